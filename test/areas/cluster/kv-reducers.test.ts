// The KV and time reducers build the next state with literals rather than an immer draft (for
// speed: src/areas/cluster/reducers.ts). What they build is frozen throughout, the same state when
// nothing changed, and shares everything unchanged with the state before.
import { keyNames } from '../../../src/areas/core/keymap.js';
import { objects } from '../../kernel/reachable.js';
import { describe, expect, it } from 'vitest';
import type { KvWritten, SimEvent } from '../../../src/areas/core/events.js';
import { reducers, World } from '../../../src/world.js';
import { applyEvent } from '../../../src/kernel/engine.js';
import { SeededRng } from '../../../src/kernel/prng.js';

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

describe('KV and time reducers', () => {
  for (const seed of [1, 2, 3]) {
    it(`build frozen states sharing what did not change, event by event (seed ${seed})`, () => {
      const w = world();
      let direct = w.state;
      for (const e of events(150, seed)) {
        const before = direct;
        direct = applyEvent(direct, structuredClone(e), reducers);
        for (const [path, o] of objects(direct)) expect(Object.isFrozen(o), path).toBe(true);
        // Nothing changed, nothing new; otherwise the other cluster's objects are shared as they were.
        if (JSON.stringify(before) === JSON.stringify(direct)) expect(direct).toBe(before);
        const other = e.type === 'time-advanced' || (e as KvWritten).cluster === 'east' ? 'west' : 'east';
        expect(direct.clusters.get(other)).toBe(before.clusters.get(other));
      }
    });
  }

  it('share every unchanged object', () => {
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
});
