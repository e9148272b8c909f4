import { describe, expect, it } from 'vitest';
import { changesReplication, convergence, convergenceBoundMs } from '../../../../src/areas/replication/monitors/convergence.js';
import { World } from '../../../../src/world.js';
import { DR, PERF, Watched, edited, stepOf, world } from '../../../check/helpers.js';
import { emptyKeyMap } from '../../../../src/areas/core/keymap.js';

describe('invariant convergence', () => {
  it('has a bound of five link latencies', () => {
    expect(convergenceBoundMs(20)).toBe(100);
    expect(convergenceBoundMs(0)).toBe(1);
  });

  it('holds through the API: writes, a partition (not judged while cut), a crash and restart, then quiet time', () => {
    const x = new Watched(world(['east', 'west', 'south']), [convergence]);
    x.drPrimary('east');
    x.drSecondary('east', 'west');
    x.drSecondary('east', 'south');
    x.advance(1000);
    x.write('east', 'a', { v: 1 });
    x.advance(1000);
    x.partition('east', 'west');
    x.write('east', 'b', { v: 2 });
    x.advance(10_000);
    expect(x.w.state.clusters.named('west').storage.kv['secret/']?.get('b')).toBeUndefined();
    x.heal();
    x.advance(1000);
    x.crash('south');
    x.write('east', 'c', { v: 3 });
    x.advance(1000);
    x.restart('south');
    x.advance(1000);
    expect(x.w.state.clusters.named('south').storage.kv['secret/']?.get('c')).toBeDefined();
    expect(x.findings).toEqual([]);
  });

  it('holds for performance secondaries under a paths filter', () => {
    const w = World.create({ east: { mounts: { secret: 'kv-v2', billing: 'kv-v2', cache: { type: 'kv-v2', local: true } } }, west: {} }, { seed: 2 });
    const x = new Watched(w, [convergence]);
    x.write('east', 'a', { v: 1 });
    x.write('east', 'b', { v: 1 }, 'billing');
    x.perfPrimary('east');
    x.perfSecondary('east', 'west');
    x.advance(1000);
    x.ok('east', `${PERF}/primary/paths-filter/west`, { mode: 'deny', paths: ['billing/'] });
    x.advance(1000);
    x.write('east', 'c', { v: 1 });
    x.advance(1000);
    expect(x.findings).toEqual([]);
  });

  it('catches a connected secondary that stayed behind after quiet time, once, with the keys that differ', () => {
    const w = world(['east', 'west']);
    const m = convergence();
    const root = w.state.operators.east.rootToken;
    const act = (f: () => void) => m.observe(stepOf(w, f));
    act(() => {
      w.request('east', { method: 'POST', path: `${DR}/primary/enable`, token: root });
      const token = (w.request('east', { method: 'POST', path: `${DR}/primary/secondary-token`, body: { id: 'west' }, token: root }).body as any).wrap_info.token;
      w.request('west', { method: 'POST', path: `${DR}/secondary/enable`, body: { token }, token: w.state.operators.west.rootToken });
      w.advance(1000);
    });
    act(() => w.request('east', { method: 'POST', path: 'secret/data/lost', body: { data: { v: 1 } }, token: root }));
    // Within the bound nothing is judged yet, however stale west is.
    const early = stepOf(w, () => w.advance(50));
    expect(m.observe(edited(early, (d) => void delete d.clusters.west.storage.kv['secret/']))).toEqual([]);
    // Past it, a streaming process that dropped the delivery leaves west without the key.
    const late = edited(stepOf(w, () => w.advance(1000)), (d) => {
      d.clusters.west.storage = { ...d.clusters.east.storage, kv: { ...d.clusters.east.storage.kv, 'secret/': emptyKeyMap } };
    });
    const found = m.observe(late);
    expect(found).toMatchObject([{ kind: 'violation', id: 'convergence', clusters: ['west', 'east'] }]);
    expect(found[0].message).toContain('secret/lost');
    expect(m.observe({ before: late.state, events: [], state: late.state })).toEqual([]);
  });

  it('restarts the quiet period on changes to what replication carries, not on other concerns’ events', () => {
    const w = world(['east', 'west']);
    const write = stepOf(w, () => w.request('east', { method: 'POST', path: 'secret/data/k', body: { data: { v: 1 } }, token: w.state.operators.east.rootToken }));
    expect(changesReplication(write.before, write.state)).toBe(true);
    const attempt = stepOf(w, () => w.request('east', { method: 'POST', path: 'sys/generate-root/attempt', body: {} }));
    expect(attempt.events).toHaveLength(1);
    expect(changesReplication(attempt.before, attempt.state)).toBe(false);
    const cut = stepOf(w, () => w.partition(['east', 'west']));
    expect(changesReplication(cut.before, cut.state)).toBe(true);
  });
});
