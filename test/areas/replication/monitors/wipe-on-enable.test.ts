import { describe, expect, it } from 'vitest';
import { wipeOnEnable } from '../../../../src/areas/replication/monitors/wipe-on-enable.js';
import { DR, PERF, Watched, edited, stepOf, world } from '../../../check/helpers.js';

describe('invariant wipe-on-enable', () => {
  it('holds through a real DR set-up: what the secondary stored before is gone, what the primary sends arrives', () => {
    const x = new Watched(world(), [wipeOnEnable]);
    x.write('west', 'mine', { v: 'west' });
    x.write('west', 'shared', { v: 'west' });
    x.write('east', 'shared', { v: 'east' });
    x.drPrimary('east');
    x.drSecondary('east', 'west');
    x.advance(1000);
    x.write('east', 'later', { v: 1 });
    x.advance(1000);
    expect(x.w.state.clusters.named('west').storage.kv['secret/']?.get('shared')).toBeDefined();
    expect(x.findings).toEqual([]);
  });

  it('holds through a real performance set-up, and a write of the same value afterwards is not a resurrection', () => {
    const x = new Watched(world(), [wipeOnEnable]);
    x.write('west', 'k', { v: 1 }, 'cache');
    x.perfPrimary('east');
    x.perfSecondary('east', 'west');
    x.advance(1000);
    expect(x.findings).toEqual([]);
  });

  it('does not take a version the primary sent for one the secondary kept, even when both wrote the same at the same time', () => {
    const x = new Watched(world(), [wipeOnEnable]);
    x.write('west', 'same', { v: 1 });
    x.write('east', 'same', { v: 1 });
    x.drPrimary('east');
    x.drSecondary('east', 'west');
    x.advance(1000);
    expect(x.w.state.clusters.named('west').storage.kv['secret/']?.get('same')).toBeDefined();
    expect(x.findings).toEqual([]);
  });

  it('catches an enable that wiped nothing', () => {
    const w = world();
    const root = w.state.operators.west.rootToken;
    w.request('west', { method: 'POST', path: 'secret/data/app', body: { data: { password: 'old' } }, token: root });
    w.request('east', { method: 'POST', path: `${DR}/primary/enable`, token: w.state.operators.east.rootToken });
    const m = wipeOnEnable();
    m.observe(stepOf(w, () => {}));
    const token = (w.request('east', { method: 'POST', path: `${DR}/primary/secondary-token`, body: { id: 'west' }, token: w.state.operators.east.rootToken }).body as any).wrap_info.token;
    const real = stepOf(w, () => w.request('west', { method: 'POST', path: `${DR}/secondary/enable`, body: { token }, token: root }));
    expect(real.events.map((e) => e.type)).toEqual(['replication-secondary-enabled']);
    // The reducer "forgot" the wipe: west keeps its KV.
    const broken = edited(real, (d) => {
      d.clusters.west.storage.kv = real.before.clusters.named('west').storage.kv as any;
    });
    const found = m.observe(broken);
    expect(found).toMatchObject([{ kind: 'violation', id: 'wipe-on-enable', clusters: ['west'] }]);
    expect(found[0].message).toContain('secret/app');
  });

  it('catches pre-enable data that comes back later (a restart that restored the old disk), once', () => {
    const w = world();
    const m = wipeOnEnable();
    w.request('west', { method: 'POST', path: 'secret/data/app', body: { data: { v: 'old' } }, token: w.state.operators.west.rootToken });
    const old = w.state.clusters.named('west').storage;
    m.observe(stepOf(w, () => {}));
    const enable = stepOf(w, () => {
      w.request('east', { method: 'POST', path: `${PERF}/primary/enable`, token: w.state.operators.east.rootToken });
      const token = (w.request('east', { method: 'POST', path: `${PERF}/primary/secondary-token`, body: { id: 'west' }, token: w.state.operators.east.rootToken }).body as any).wrap_info.token;
      w.request('west', { method: 'POST', path: `${PERF}/secondary/enable`, body: { token }, token: w.state.operators.west.rootToken });
      w.advance(1000);
    });
    expect(m.observe(enable)).toEqual([]);
    const restart = stepOf(w, () => {
      w.crash('west');
      w.restart('west');
    });
    const broken = edited(restart, (d) => {
      d.clusters.west.storage.kv['secret/'] = old.kv['secret/'] as any;
    });
    expect(m.observe(broken)).toMatchObject([{ id: 'wipe-on-enable', clusters: ['west'] }]);
    expect(m.observe(broken)).toEqual([]);
  });
});
