// The reducers report what they touched (engine.ts `Answer`: the WALs a cluster wrote, what they did
// to a replication link), and the bus's replication source acts on that report alone. The first test
// holds every reducer to the report, over the gallery's histories: a reducer that writes a WAL or
// changes what a link depends on without reporting it is caught here (the bus would not see it). The
// others show the source doing what the report says, and nothing it does not say.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assemble, reduce, type Touch } from '../../../src/kernel/engine.js';
import { Bus, type BusEffects } from '../../../src/kernel/bus.js';
import { initialNetwork } from '../../../src/kernel/network.js';
import { ClusterTable } from '../../../src/areas/core/cluster-table.js';
import type { SimEvent } from '../../../src/areas/core/events.js';
import type { SimState } from '../../../src/areas/core/state.js';
import type { ReplicationState } from '../../../src/areas/replication/state.js';
import { replicationMessages } from '../../../src/areas/replication/messages.js';
import { loadScenario } from '../../../src/scenario/loader.js';
import { runScenario } from '../../../src/scenario/runner.js';
import { reducers, type World } from '../../../src/world.js';
import { galleryFiles, GALLERY_DIR } from '../../gallery-outputs.js';
import { drPair, drWorld, writeKv } from './helpers.js';

/** A world's log folded again from before its first event: each event with the states around it and its reducers' report. */
function* folded(w: World): Generator<{ before: SimState; event: SimEvent; after: SimState; touched: readonly Touch[] }> {
  const first = w.log[0] as Extract<SimEvent, { type: 'world-created' }>;
  let state: SimState = { now: 0, seed: first.seed, network: initialNetwork(first.latencyMs), clusters: ClusterTable.empty(), operators: {}, stores: {} };
  for (const event of w.log) {
    const answer = reduce(state, event, reducers);
    const after = assemble(state, event, answer, reducers);
    yield { before: state, event, after, touched: answer?.touched ?? [] };
    state = after;
  }
}

// What a link depends on, on one side of it, and what makes a secondary's stream the same one:
// restated here from the spec's rules so the report is checked against the state, not against itself.
const LINK_FIELDS = ['role', 'primary', 'clusterId', 'issued', 'revokedCredentials', 'jti', 'secondaryId', 'connected', 'syncState', 'mirroredPerformance'] as const;
const following = (r: ReplicationState) => r.role === 'secondary.following' && r.primary !== null;
const sameStream = (a: ReplicationState, b: ReplicationState) => following(b) && a.primary === b.primary && a.clusterId === b.clusterId && a.jti === b.jti && a.secondaryId === b.secondaryId;

describe('what the reducers report they touched', () => {
  it('names every WAL a cluster wrote and every change to what a link depends on, over the gallery', async () => {
    const seen = { wal: 0, 'stream-reset': 0, 'connection-closed': 0, 'credentials-revoked': 0, 'link-changed': 0 };
    for (const file of galleryFiles()) {
      const loaded = loadScenario(readFileSync(join(GALLERY_DIR, file), 'utf8'), `scenarios/${file}`);
      if (!loaded.ok) throw new Error(`${file} does not load`);
      const { world } = await runScenario(loaded.scenario);
      for (const { before, event, after, touched } of folded(world)) {
        const where = `${file}, event ${event.seq} (${event.type})`;
        for (const name of after.clusters.changedSince(before.clusters)) {
          const was = before.clusters.get(name);
          if (!was) continue;
          const now = after.clusters.named(name);
          const wals = touched.filter((t) => t.what === 'wal' && t.cluster === name) as Extract<Touch, { what: 'wal' }>[];
          if (now.wal.last > was.wal.last) {
            expect({ where, from: Math.min(...wals.map((t) => t.from)), to: Math.max(...wals.map((t) => t.to)) }).toEqual({ where, from: was.wal.last + 1, to: now.wal.last });
            seen.wal++;
          } else expect({ where, wals }).toEqual({ where, wals: [] });
          for (const kind of ['dr', 'performance'] as const) {
            const [a, b] = [was.replication[kind], now.replication[kind]];
            const links = touched.filter((t) => t.what !== 'wal' && t.kind === kind && t.cluster === name).map((t) => t.what);
            for (const what of links) seen[what as keyof typeof seen]++;
            if (LINK_FIELDS.some((f) => a[f] !== b[f])) expect({ where, kind, reported: links.length > 0 }).toEqual({ where, kind, reported: true });
            if (following(a) && !sameStream(a, b)) expect({ where, kind, links }).toEqual({ where, kind, links: expect.arrayContaining(['stream-reset']) });
            else if (a.connected && !b.connected && event.type !== 'replication-secondary-disconnected' && event.type !== 'cluster-crashed')
              expect({ where, kind, links }).toEqual({ where, kind, links: expect.arrayContaining(['connection-closed']) });
            if (a.revokedCredentials !== b.revokedCredentials) expect({ where, kind, links }).toEqual({ where, kind, links: expect.arrayContaining(['credentials-revoked']) });
          }
        }
      }
    }
    // The gallery meets every report: none of the checks above held vacuously.
    for (const [what, n] of Object.entries(seen)) expect({ what, met: n > 0 }).toEqual({ what, met: true });
  }, 60_000);
});

describe('the bus reads the report', () => {
  /**
   * East streams DR to west; two writes 10 ms apart, then west takes the first while the second is on
   * its way. The log up to that delivery is read onto a bus of replication's source alone, and the
   * delivery (or the write before it, `write`) is read with the report `edit` makes of its own.
   */
  function effectsOf(edit: (real: readonly Touch[]) => readonly Touch[], which: 'kv-written' | 'replication-wal-delivered'): { effects: BusEffects | null; real: readonly Touch[] } {
    const w = drWorld({ latencyMs: 50 });
    drPair(w);
    writeKv(w, 'east', 'a', { v: 1 });
    w.advance(10);
    writeKv(w, 'east', 'b', { v: 2 });
    if (which === 'replication-wal-delivered') w.advance(40);
    const bus = new Bus<SimState, SimEvent>([replicationMessages], { history: false });
    const steps = [...folded(w)];
    const at = steps.map((s) => s.event.type).lastIndexOf(which);
    for (const s of steps.slice(0, at)) bus.observe(s.before, s.event, s.after, s.touched);
    const { before, event, after, touched } = steps[at];
    return { effects: replicationMessages(before, event, after, bus, edit(touched)), real: touched };
  }

  it('sends the WALs a write reports to the primary’s connected followers, and none it does not report', () => {
    const { effects, real } = effectsOf((t) => t, 'kv-written');
    expect(real).toEqual([expect.objectContaining({ what: 'wal', cluster: 'east' })]);
    expect(effects?.sent.map((m) => `${m.kind} ${m.from}>${m.to} ${m.label}`)).toEqual([expect.stringMatching(/^wal east>west WAL \d+ \(DR\)$/)]);
    expect(effectsOf(() => [], 'kv-written').effects?.sent ?? []).toEqual([]);
  });

  it('drops what is on its way over a link the report says was reset, and looks at a link the report says changed', () => {
    const { effects, real } = effectsOf((t) => t, 'replication-wal-delivered');
    expect(real.filter((t) => t.what !== 'wal')).toEqual([]);
    expect(effects?.dropped ?? []).toEqual([]);
    expect(effects?.check ?? []).toEqual([]);
    // The same delivery, its report edited: west's DR stream reset (the second write is on its way), or its link changed.
    const reset = effectsOf((t) => [...t, { what: 'stream-reset', kind: 'dr', cluster: 'west', primary: 'east' }], 'replication-wal-delivered').effects;
    expect(reset?.dropped?.length).toBeGreaterThan(0);
    for (const d of reset!.dropped!) expect(d).toEqual({ id: expect.stringMatching(/^wal:dr:east>west:/), reason: 'link reset: west no longer streams from east' });
    const changed = effectsOf((t) => [...t, { what: 'link-changed', kind: 'dr', cluster: 'west', primary: null }], 'replication-wal-delivered').effects;
    expect(changed?.check).toEqual(['link:dr:west']);
  });
});
