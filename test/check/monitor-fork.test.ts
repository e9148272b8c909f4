// Forking the monitors (Monitor.fork): the explorer shows a state's monitors only its last step,
// forked from its parent's, where it used to show fresh monitors the whole path again. On a tree
// of operator commands (every family, three clusters, a seeded choice of branches), every node's
// findings from forked monitors must equal those of fresh monitors shown its whole path, for every
// monitor of the catalogue; siblings fork the same parent after one another, so a fork that shared
// memory with its parent or a sibling would show here.
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../src/check/catalogue.js';
import type { Finding, Monitor, MonitorFactory, Observation } from '../../src/areas/monitoring/types.js';
import type { SimState } from '../../src/areas/core/state.js';
import { oneGenerationAttempt } from '../../src/areas/operation-token/monitors/one-generation-attempt.js';
import { operationTokenGate } from '../../src/areas/operation-token/monitors/operation-token-gate.js';
import { clusterIdRules } from '../../src/areas/replication/monitors/cluster-id-rules.js';
import { convergence } from '../../src/areas/replication/monitors/convergence.js';
import { filtersRespected } from '../../src/areas/replication/monitors/filters-respected.js';
import { newerPrimary } from '../../src/areas/replication/monitors/newer-primary.js';
import { revokedStaysBarred } from '../../src/areas/replication/monitors/revoked-stays-barred.js';
import { twoPrimaries } from '../../src/areas/replication/monitors/two-primaries.js';
import { wipeOnEnable } from '../../src/areas/replication/monitors/wipe-on-enable.js';
import { emptyKeyMap } from '../../src/areas/core/keymap.js';
import { DR, PERF, edited, editedState, folded, stepOf, world } from './helpers.js';
import { ROLE_FAMILIES, capabilitiesFor, cloneModel, clusterNames, enumerateCommands, freshOperator, initialModel, ModelMismatch, Operator, type Model } from '../../src/explore/commands/index.js';
import { keyOwnersOf, type Ref } from '../../src/explore/commands/operator.js';
import { World } from '../../src/world.js';
import { SeededRng } from '../../src/kernel/prng.js';

interface Node {
  world: World;
  model: Model;
  roots: ReadonlyMap<string, Ref>;
  path: Observation[];
  monitors: Monitor[];
}

/** The findings of the last observation, from fresh monitors shown the whole path (what the explorer did before forks). */
function replayed(path: Observation[]): Finding[] {
  const monitors = catalogue.map((f) => f());
  let found: Finding[] = [];
  for (const o of path) found = monitors.flatMap((m) => m.observe(o));
  return found;
}

describe('Monitor.fork', () => {
  it('every catalogue monitor has one', () => {
    for (const f of catalogue) expect(typeof f().fork).toBe('function');
  });

  it('forked monitors shown one step find what fresh monitors shown the whole path find, node by node', () => {
    const k = 3;
    const caps = capabilitiesFor();
    const commands = enumerateCommands(k, caps);
    const start = freshOperator(k, 5, { watch: false });
    const keyOwners = keyOwnersOf(start.world.state);
    const rng = new SeededRng(11);
    const seen = new Map<string, number>();
    let nodes = 0;
    let frontier: Node[] = [{ world: start.world, model: initialModel(clusterNames(k), caps), roots: new Map(), path: [], monitors: catalogue.map((f) => f()) }];
    for (let depth = 1; depth <= 12; depth++) {
      const next: Node[] = [];
      for (const node of frontier) {
        const possible = commands.filter((c) => c.check(node.model) && c.predict(node.model) !== 'refuse');
        // Three branches a node (the same one picked twice is tried twice: siblings alike must be independent too).
        for (let b = 0; b < 3 && possible.length; b++) {
          // Role changes two times in three, so that secondaries follow, get promoted and get disabled.
          const roles = possible.filter((c) => ROLE_FAMILIES.includes(c.family));
          const among = roles.length && rng.int(0, 2) > 0 ? roles : possible;
          const command = among[rng.int(0, among.length - 1)];
          const model = cloneModel(node.model);
          const op = new Operator(node.world.fork(), { watch: false, keyOwners, generatedRoots: node.roots });
          try {
            command.run(model, op);
          } catch (e) {
            if (e instanceof ModelMismatch) continue;
            throw e;
          }
          const o = op.lastObservation!;
          const monitors = node.monitors.map((m) => m.fork());
          const found = monitors.flatMap((m) => m.observe(o));
          const path = [...node.path, o];
          expect(found).toEqual(replayed(path));
          for (const f of found) seen.set(f.id, (seen.get(f.id) ?? 0) + 1);
          nodes++;
          // A bounded tree: keep a few nodes a level.
          if (next.length < 24 && rng.int(0, 2) > 0) next.push({ world: op.world, model, roots: op.generatedRoots, path, monitors });
        }
      }
      frontier = next;
    }
    expect(nodes).toBeGreaterThan(150);
    // Not vacuous: monitors that remember (while a hazard lasts, what was reported) reported on the way.
    expect([...seen.keys()].sort()).toEqual(['forced-promotion', 'lost-writes', 'two-primaries']);
  });
});

/** A fresh monitor shown the prefix, then the continuation: what each of the continuation's steps finds. */
function reference(factory: MonitorFactory, prefix: Observation[], continuation: Observation[]): Finding[][] {
  const m = factory();
  for (const o of prefix) m.observe(o);
  return continuation.map((o) => m.observe(o));
}

/**
 * One monitor shown the prefix, then forked once per continuation; the forks are shown their
 * continuations step by step in turn (as the explorer's siblings are), and then the monitor itself
 * the first one. Each must find what a fresh monitor shown the prefix and that continuation finds.
 */
function twins(factory: MonitorFactory, prefix: Observation[], continuations: Observation[][]): Finding[][][] {
  const m = factory();
  for (const o of prefix) m.observe(o);
  const forks = continuations.map(() => m.fork());
  const found: Finding[][][] = continuations.map(() => []);
  const longest = Math.max(...continuations.map((c) => c.length));
  for (let step = 0; step < longest; step++) continuations.forEach((c, i) => step < c.length && found[i].push(forks[i].observe(c[step])));
  const expected = continuations.map((c) => reference(factory, prefix, c));
  found.forEach((f, i) => expect(f).toEqual(expected[i]));
  expect(continuations[0].map((o) => m.observe(o))).toEqual(expected[0]);
  return expected;
}

/** How many findings in all. */
const count = (found: Finding[][][]) => found.flat(2).length;

/** An empty step on a state. */
const still = (state: SimState): Observation => ({ before: state, events: [], state });

/** west a DR secondary of east, synced; the world and an empty step on it. */
function drPair(versions?: Record<string, string>): World {
  const w = world(['east', 'west', 'south'], { versions });
  const root = (c: string) => w.state.operators[c].rootToken;
  w.request('east', { method: 'POST', path: `${DR}/primary/enable`, token: root('east') });
  const token = (w.request('east', { method: 'POST', path: `${DR}/primary/secondary-token`, body: { id: 'west' }, token: root('east') }).body as { wrap_info: { token: string } }).wrap_info.token;
  w.request('west', { method: 'POST', path: `${DR}/secondary/enable`, body: { token }, token: root('west') });
  return w;
}

describe('Monitor.fork keeps each monitor’s memory apart', () => {
  it('two-primaries: what was reported while the condition lasts', () => {
    const w = World.create({ east: {}, west: {} }, { seed: 1 });
    const withRoles = (west: 'primary' | 'secondary.demoted'): SimState =>
      editedState(w.state, (d) => {
        d.clusters.east.replication.dr = { ...d.clusters.east.replication.dr, role: 'primary', clusterId: 's' };
        d.clusters.west.replication.dr = { ...d.clusters.west.replication.dr, role: west, clusterId: 's' };
      });
    const [both, one] = [still(withRoles('primary')), still(withRoles('secondary.demoted'))];
    expect(count([twins(twoPrimaries, [both], [[both, one, both], [one, both, both], [both]])].flat())).toBe(2);
  });

  it('one-generation-attempt: the attempts open', () => {
    const w = world();
    const start = (cluster: string, nonce: string) => ({ type: 'generation-started' as const, at: 0, cluster, strategy: 'root' as const, nonce, required: 3, otpLength: 28, otp: 'x'.repeat(28), pgpKey: '', pgpFingerprint: '' });
    const first = folded(w.state, [start('east', 'n1')]);
    const second = { before: first.state, events: [start('east', 'n2')], state: first.state };
    const elsewhere = folded(first.state, [start('west', 'n3')]);
    const again = { before: elsewhere.state, events: [start('west', 'n4')], state: elsewhere.state };
    expect(count([twins(oneGenerationAttempt, [first], [[second], [elsewhere, again], [elsewhere, second]])].flat())).toBe(3);
  });

  it('operation-token-gate: the token each cluster holds and its DR mode, from the log', () => {
    const w = drPair();
    const s = w.state;
    // No attempt was started: the machine would refuse this event, so the step is not folded (the monitor reads the log).
    const minted = { before: s, state: s, events: [{ type: 'generation-completed' as const, at: 0, cluster: 'west', strategy: 'dr-operation-token' as const, nonce: 'n', share: 's', token: 'hvs.t', accessor: '', encodedToken: 'e' }] };
    const deleted = folded(s, [{ type: 'dr-operation-token-deleted', at: 0, cluster: 'west' }]);
    const check = folded(s, [{ type: 'merkle-checked', at: 0, cluster: 'west' }]);
    // A delete without a token is itself a gated call: reported, then the check after it.
    expect(count([twins(operationTokenGate, [still(s)], [[minted, check], [deleted, check], [check]])].flat())).toBe(3);
  });

  it('cluster-id-rules: every id each cluster has held', () => {
    const w = world();
    const enabled = stepOf(w, () => w.request('east', { method: 'POST', path: `${DR}/primary/enable`, token: w.state.operators.east.rootToken }));
    const old = w.state.clusters.named('east').replication.dr.clusterId;
    const again = (id: string, at: SimState) =>
      folded(at, [
        { type: 'replication-primary-disabled', at: 0, kind: 'dr', cluster: 'east', role: 'disabled' },
        { type: 'replication-primary-enabled', at: 0, kind: 'dr', cluster: 'east', clusterId: id, primaryClusterAddr: '', role: 'primary' },
      ]);
    const fresh = again('fresh-id', w.state);
    expect(count([twins(clusterIdRules, [enabled], [[fresh, again('fresh-id', fresh.state)], [again(old, w.state)], [fresh, again(old, fresh.state)]])].flat())).toBe(3);
  });

  it('revoked-stays-barred: the bars, and whether each was reported', () => {
    const w = drPair();
    w.advance(1000);
    const s = w.state;
    const revoked = folded(s, [{ type: 'replication-secondary-revoked', at: 1000, kind: 'dr', cluster: 'east', id: 'west' }]);
    const delivered = folded(revoked.state, [{ type: 'replication-wal-delivered', at: 1020, kind: 'dr', cluster: 'west', primary: 'east', wal: s.clusters.named('east').wal.last + 1 }]);
    expect(count([twins(revokedStaysBarred, [still(s)], [[revoked, delivered, delivered], [delivered], [revoked, delivered]])].flat())).toBe(2);
    // A bar set before the fork: each fork reports it once.
    expect(count([twins(revokedStaysBarred, [still(s), revoked], [[delivered, delivered], [delivered], [still(s)]])].flat())).toBe(2);
  });

  it('newer-primary: the pairs reported while the secondary follows', () => {
    const w = drPair({ east: '1.16.0', west: '1.15.3' });
    const synced = stepOf(w, () => w.advance(1000));
    const [a, b] = [w.fork(), w.fork()];
    a.request('east', { method: 'POST', path: 'secret/data/k', body: { data: { v: 1 } }, token: a.state.operators.east.rootToken });
    const wal = stepOf(a, () => a.advance(1000));
    const forget = stepOf(b, () => b.request('east', { method: 'POST', path: `${DR}/primary/revoke-secondary`, body: { id: 'west' }, token: b.state.operators.east.rootToken }));
    // A delivery after the pair was forgotten (west no longer following east) is reported anew.
    const unfollowed = edited(forget, (d) => {
      d.clusters.west.replication.dr.primary = null;
    });
    const delivered = folded(unfollowed.state, [{ type: 'replication-wal-delivered', at: 3000, kind: 'dr', cluster: 'west', primary: 'east', wal: 1 }]);
    expect(count([twins(newerPrimary, [], [[synced, wal], [synced, unfollowed, delivered], [synced]])].flat())).toBe(4);
  });

  it('wipe-on-enable: what each cluster stored before its enable, and the keys reported', () => {
    const w = world();
    const root = (c: string) => w.state.operators[c].rootToken;
    w.request('west', { method: 'POST', path: 'secret/data/app', body: { data: { v: 'old' } }, token: root('west') });
    const old = w.state.clusters.named('west').storage;
    const first = stepOf(w, () => {});
    const enable = stepOf(w, () => {
      w.request('east', { method: 'POST', path: `${DR}/primary/enable`, token: root('east') });
      const token = (w.request('east', { method: 'POST', path: `${DR}/primary/secondary-token`, body: { id: 'west' }, token: root('east') }).body as { wrap_info: { token: string } }).wrap_info.token;
      w.request('west', { method: 'POST', path: `${DR}/secondary/enable`, body: { token }, token: root('west') });
    });
    const back = edited(stepOf(w, () => w.advance(1000)), (d) => {
      d.clusters.west.storage = { ...d.clusters.west.storage, kv: { ...d.clusters.west.storage.kv, 'secret/': old.kv['secret/'] } };
    });
    expect(count([twins(wipeOnEnable, [first, enable], [[back, back], [still(w.state), back], [back]])].flat())).toBe(3);
  });

  it('filters-respected: what was reported, and the local mounts each cluster held as its own', () => {
    const w = World.create(
      { east: { mounts: { secret: 'kv-v2', cache: { type: 'kv-v2', local: true } } }, west: { mounts: { secret: 'kv-v2' } } },
      { seed: 3 },
    );
    const root = (c: string) => w.state.operators[c].rootToken;
    w.request('east', { method: 'POST', path: 'cache/data/c', body: { data: { v: 1 } }, token: root('east') });
    w.request('east', { method: 'POST', path: `${PERF}/primary/enable`, token: root('east') });
    const token = (w.request('east', { method: 'POST', path: `${PERF}/primary/secondary-token`, body: { id: 'west' }, token: root('east') }).body as { wrap_info: { token: string } }).wrap_info.token;
    w.request('west', { method: 'POST', path: `${PERF}/secondary/enable`, body: { token }, token: root('west') });
    const synced = stepOf(w, () => w.advance(1000));
    const leaked = edited(stepOf(w, () => {}), (d) => {
      d.clusters.west.storage.mounts['cache/'] = d.clusters.east.storage.mounts['cache/'];
      d.clusters.west.storage.kv['cache/'] = d.clusters.east.storage.kv['cache/'];
    });
    expect(count([twins(filtersRespected, [synced], [[leaked, leaked, still(w.state), leaked], [leaked], [still(w.state), leaked]])].flat())).toBe(4);
  });

  it('convergence: when the world last changed, and what was reported', () => {
    const w = drPair();
    w.advance(1000);
    const root = w.state.operators.east.rootToken;
    const write = stepOf(w, () => w.request('east', { method: 'POST', path: 'secret/data/lost', body: { data: { v: 1 } }, token: root }));
    const stale = (o: Observation) =>
      edited(o, (d) => {
        d.clusters.west.storage = { ...d.clusters.east.storage, kv: { ...d.clusters.east.storage.kv, 'secret/': emptyKeyMap } };
      });
    const early = stale(stepOf(w, () => w.advance(50)));
    const late = stale(stepOf(w, () => w.advance(1000)));
    expect(count([twins(convergence, [write], [[early, late, still(late.state)], [late], [early, still(early.state)]])].flat())).toBe(2);
  });
});
