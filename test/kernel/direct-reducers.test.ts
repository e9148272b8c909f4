// The KV and time reducers build the next state without an immer draft (their `direct` form, for
// speed). These tests pin that what they build is exactly what the former immer reducers built
// (copied below as the reference): the same values, keys in the same order, every object frozen,
// and everything unchanged shared with the state before.
import { draftState, type SimDraft } from '../../src/areas/core/draft.js';
import { emptyKeyMap, keyNames } from '../../src/areas/core/keymap.js';
import { emptyVersions } from '../../src/areas/core/versions.js';
import { objects } from './reachable.js';
import { describe, expect, it } from 'vitest';
import { coreReducers } from '../../src/areas/cluster/reducers.js';
import type { KvDeleted, KvWritten, SimEvent } from '../../src/areas/core/events.js';
import type { ClusterState, KvRecord, SimState } from '../../src/areas/core/state.js';
import { reducers, World } from '../../src/world.js';
import { applyEvent } from '../../src/kernel/engine.js';
import { SeededRng } from '../../src/kernel/prng.js';

// The reducers as they were written for immer drafts, before the direct form.
function bumpWal(c: ClusterState, at: number): void {
  c.wal.last += 1;
  c.wal.lastAt = at;
}
const reference: Record<string, (d: SimDraft, e: any) => void> = {
  'time-advanced': () => {},
  'kv-written': (d: SimDraft, e: KvWritten) => {
    const c = d.clusters[e.cluster];
    const mount = c.storage.mounts[e.mount];
    // Key maps are persistent maps (src/areas/core/keymap.ts): replaced whole, never drafted into.
    const keys = c.storage.kv[e.mount] ?? emptyKeyMap;
    const prev: KvRecord | undefined = keys.get(e.key);
    const version = mount.type === 'kv-v1' ? 1 : (prev?.current ?? 0) + 1;
    let versions = (mount.type === 'kv-v1' || !prev ? emptyVersions : prev.versions).set(String(version), { data: e.data, createdAt: e.at, deletedAt: null, destroyed: false });
    // KV-v2 keeps the service's default 10 versions (no config or metadata in these events).
    let oldest = prev?.oldest ?? 0;
    if (mount.type === 'kv-v2' && version - oldest >= 10) {
      versions = versions.dropThrough(version - 10);
      oldest = version - 10 + 1;
    }
    c.storage.kv[e.mount] = keys.set(e.key, {
      ...prev,
      current: version,
      versions,
      createdAt: prev?.createdAt ?? e.at,
      updatedAt: e.at,
      ...(oldest > 0 && mount.type === 'kv-v2' ? { oldest } : {}),
    });
    bumpWal(c, e.at);
  },
  'kv-deleted': (d: SimDraft, e: KvDeleted) => {
    const c = d.clusters[e.cluster];
    const keys = c.storage.kv[e.mount];
    const rec = keys?.get(e.key);
    if (!rec) return;
    if (e.scope === 'all' || c.storage.mounts[e.mount].type === 'kv-v1') c.storage.kv[e.mount] = keys.delete(e.key);
    else c.storage.kv[e.mount] = keys.set(e.key, { ...rec, versions: rec.versions.set(String(rec.current), { ...rec.versions.get(String(rec.current))!, deletedAt: e.at }), updatedAt: e.at });
    bumpWal(c, e.at);
  },
};

function referenceApply(state: SimState, e: SimEvent): SimState {
  return draftState(state, (d) => {
    if (e.at > d.now) d.now = e.at;
    reference[e.type](d, e);
  });
}

function world(): World {
  return World.create(
    { east: { mounts: { secret: 'kv-v2', old: 'kv-v1', cache: { type: 'kv-v2', local: true } } }, west: {} },
    { seed: 3 },
  );
}

/** A seeded sequence of KV writes and deletes (some on keys that do not exist) and waits. */
function events(n: number, seed: number): SimEvent[] {
  const rng = new SeededRng(seed);
  const out: SimEvent[] = [];
  let at = 0;
  for (let i = 0; i < n; i++) {
    at += rng.int(0, 2) * 10;
    const cluster = rng.int(0, 4) === 0 ? 'west' : 'east';
    const mount = cluster === 'west' ? 'secret/' : ['secret/', 'old/', 'cache/'][rng.int(0, 2)];
    const key = `app/k${rng.int(0, 5)}`;
    const r = rng.int(0, 9);
    if (r < 6) out.push({ type: 'kv-written', at, cluster, mount, key, data: { v: i, nested: { list: [i, { deep: true }] } } });
    else if (r < 8) out.push({ type: 'kv-deleted', at, cluster, mount, key, scope: r === 6 ? 'latest' : 'all' });
    else out.push({ type: 'time-advanced', at: at - rng.int(0, 1) * 10 });
  }
  return out;
}

describe('direct KV and time reducers', () => {
  for (const seed of [1, 2, 3]) {
    it(`build what the immer reducers built, event by event (seed ${seed})`, () => {
      const w = world();
      let direct = w.state;
      let ref = w.state;
      for (const e of events(150, seed)) {
        const before = direct;
        direct = applyEvent(direct, structuredClone(e), reducers);
        ref = referenceApply(ref, structuredClone(e));
        // Same values with keys in the same order (plain JSON.stringify keeps insertion order).
        expect(JSON.stringify(direct)).toBe(JSON.stringify(ref));
        for (const [path, o] of objects(direct)) expect(Object.isFrozen(o), path).toBe(true);
        // Nothing changed, nothing new; otherwise the other cluster's objects are shared as they were.
        if (JSON.stringify(before) === JSON.stringify(direct)) expect(direct).toBe(before);
        const other = e.type === 'time-advanced' || (e as KvWritten).cluster === 'east' ? 'west' : 'east';
        expect(direct.clusters.get(other)).toBe(before.clusters.get(other));
      }
    });
  }

  it('share every unchanged object, as immer does', () => {
    const w = world();
    const s0 = applyEvent(w.state, { type: 'kv-written', at: 1, cluster: 'east', mount: 'secret/', key: 'a', data: { x: 1 } }, reducers);
    const s1 = applyEvent(s0, { type: 'kv-written', at: 2, cluster: 'east', mount: 'secret/', key: 'b', data: { x: 2 } }, reducers);
    const [e0, e1] = [s0.clusters.named('east'), s1.clusters.named('east')];
    expect(s1.network).toBe(s0.network);
    expect(s1.operators).toBe(s0.operators);
    expect(e1.storage.mounts).toBe(e0.storage.mounts);
    expect(e1.storage.tokens).toBe(e0.storage.tokens);
    expect(e1.replication).toBe(e0.replication);
    expect(e1.storage.kv['secret/'].get('a')).toBe(e0.storage.kv['secret/'].get('a'));
    expect(keyNames(e0.storage.kv['secret/'])).toEqual(['a']);
    expect(e1.wal).toEqual({ last: 2, lastAt: 2 });
  });

  it('a draft that removes a cluster is refused (clusters are never removed), also when it adds another', () => {
    const w = world();
    expect(() => draftState(w.state, (d) => void delete d.clusters.west)).toThrow(/removed cluster "west"/);
    expect(() =>
      draftState(w.state, (d) => {
        d.clusters.north = { ...d.clusters.west, name: 'north' };
        delete d.clusters.west;
      }),
    ).toThrow(/removed cluster "west"/);
  });

  it('work on a draft too, after an earlier change to the same cluster in the same draft', () => {
    const w = world();
    const write = (key: string, at: number): KvWritten => ({ type: 'kv-written', at, cluster: 'east', mount: 'secret/', key, data: { key } });
    const viaDraft = draftState(w.state, (d) => {
      coreReducers['kv-written'](d, write('a', 1));
      coreReducers['kv-written'](d, write('b', 2));
      coreReducers['kv-deleted'](d, { type: 'kv-deleted', at: 3, cluster: 'east', mount: 'secret/', key: 'a', scope: 'latest' });
    });
    const viaRef = draftState(w.state, (d) => {
      reference['kv-written'](d, write('a', 1));
      reference['kv-written'](d, write('b', 2));
      reference['kv-deleted'](d, { type: 'kv-deleted', at: 3, cluster: 'east', mount: 'secret/', key: 'a', scope: 'latest' });
    });
    expect(JSON.stringify(viaDraft)).toBe(JSON.stringify(viaRef));
  });
});
