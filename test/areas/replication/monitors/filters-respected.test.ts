import { describe, expect, it } from 'vitest';
import { filtersRespected } from '../../../../src/areas/replication/monitors/filters-respected.js';
import { World } from '../../../../src/world.js';
import { PERF, Watched, edited, stepOf } from '../../../check/helpers.js';

const PRIMARY = { namespaces: ['team-a'], mounts: { secret: 'kv-v2' as const, billing: 'kv-v2' as const, cache: { type: 'kv-v2' as const, local: true }, 'team-a/apps': 'kv-v2' as const } };
const SECONDARY = { mounts: { secret: 'kv-v2' as const, mine: { type: 'kv-v2' as const, local: true } } };

/** east a performance primary with data in every mount, west its secondary, synced. */
function perfSet(x: Watched): void {
  for (const [mount, key] of [['secret', 'a'], ['billing', 'b'], ['cache', 'c'], ['team-a/apps', 'd']]) x.write('east', key, { v: 1 }, mount);
  x.perfPrimary('east');
  x.perfSecondary('east', 'west');
  x.advance(1000);
}

const newWorld = () => World.create({ east: PRIMARY, west: SECONDARY }, { seed: 3 });

describe('invariant filters-respected', () => {
  it('holds through the API: the primary’s local mount stays home, deny and allow filters are honoured as they change', () => {
    const x = new Watched(newWorld(), [filtersRespected]);
    perfSet(x);
    expect(Object.keys(x.w.state.clusters.named('west').storage.mounts).sort()).toEqual(['billing/', 'secret/', 'team-a/apps/']);
    x.ok('east', `${PERF}/primary/paths-filter/west`, { mode: 'deny', paths: ['billing/', 'team-a/'] });
    x.write('east', 'a2', { v: 2 }, 'billing');
    x.advance(1000);
    x.ok('east', `${PERF}/primary/paths-filter/west`, { mode: 'allow', paths: ['billing/'] });
    x.advance(1000);
    x.request('east', { method: 'DELETE', path: `${PERF}/primary/paths-filter/west`, token: x.root('east') });
    x.advance(1000);
    expect(x.findings).toEqual([]);
  });

  it('catches a performance secondary that received the primary’s local mount', () => {
    const x = new Watched(newWorld(), []);
    perfSet(x);
    const m = filtersRespected();
    const w = x.w;
    w.request('east', { method: 'POST', path: 'secret/data/new', body: { data: { v: 2 } }, token: x.root('east') });
    const delivery = stepOf(w, () => w.advance(1000));
    expect(delivery.events.some((e) => e.type === 'replication-wal-delivered')).toBe(true);
    const broken = edited(delivery, (d) => {
      d.clusters.west.storage.mounts['cache/'] = d.clusters.east.storage.mounts['cache/'];
      d.clusters.west.storage.kv['cache/'] = d.clusters.east.storage.kv['cache/'];
    });
    const found = m.observe(broken);
    expect(found).toMatchObject([{ kind: 'violation', id: 'filters-respected', clusters: ['west', 'east'] }]);
    expect(found[0].message).toContain("east's local mount cache/");
    // Reported once while it lasts.
    expect(m.observe({ before: broken.state, events: [], state: broken.state })).toEqual([]);
  });

  it('catches data of a mount, and a namespace, that the filter excludes', () => {
    const x = new Watched(newWorld(), []);
    perfSet(x);
    const w = x.w;
    const held = w.state.clusters.named('west').storage;
    const set = stepOf(w, () => w.request('east', { method: 'POST', path: `${PERF}/primary/paths-filter/west`, body: { mode: 'deny', paths: ['billing/', 'team-a/'] }, token: x.root('east') }));
    // A filter that was recorded but never applied: west keeps what it held.
    const broken = edited(set, (d) => {
      d.clusters.west.storage = held as any;
    });
    const found = filtersRespected().observe(broken);
    expect(found.map((f) => f.message).sort()).toEqual([
      'west (performance secondary of east) holds mount billing/, which its paths filter excludes',
      'west (performance secondary of east) holds mount team-a/apps/, which its paths filter excludes',
      'west (performance secondary of east) holds namespace team-a/, which its paths filter excludes',
    ]);
  });
});
