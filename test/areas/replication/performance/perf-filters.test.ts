// Paths filters: what reaches a performance secondary in allow and deny mode, for mounts and
// namespaces, never the primary's local mounts; what a filter change removes at once and sends by
// streaming; and the predicate the `filters-respected` monitor uses. Data is read on the secondary.
import { describe, expect, it } from 'vitest';
import { excludedFor, namespaceExcludedFor } from '../../../../src/areas/replication/index.js';
import type { World } from '../../../../src/world.js';
import {
  PERF,
  dataOf,
  enablePerfPrimary,
  enablePerfSecondary,
  expectOk,
  get,
  perfToken,
  perfWorld,
  post,
  rootOf,
  rootTokenOn,
  setFilter,
  writeKv,
} from './helpers.js';

/** The primary's data: one secret in each of its mounts (local cache/ included). */
function seed(w: World): void {
  const root = rootOf(w, 'east');
  for (const mount of ['secret', 'billing', 'cache', 'team-a/apps']) expectOk(writeKv(w, 'east', mount, 'k', { from: mount }, root));
}

/** What `cluster` serves of each of the primary's mounts: the value, or the status of the failed read. */
function visible(w: World, cluster: string, token: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const mount of ['secret', 'billing', 'cache', 'team-a/apps']) {
    const r = get(w, cluster, `${mount}/data/k`, token);
    out[mount] = r.status === 200 ? (r.body as any).data.data.from : r.status;
  }
  return out;
}

/** A read inside namespace team-a, as a client there sends it (X-Vault-Namespace). */
function readInTeamA(w: World, cluster: string, token: string) {
  return w.request(cluster, { method: 'GET', path: 'apps/data/k', namespace: 'team-a', token });
}

/** east primary with its data, west enabled as secondary `west` with `filter` set before it connects. */
function filteredPair(filter: Record<string, unknown>): { w: World; westRoot: string } {
  const w = perfWorld();
  seed(w);
  enablePerfPrimary(w, 'east');
  const token = perfToken(w, 'east', 'west');
  expectOk(setFilter(w, 'east', 'west', filter));
  expectOk(post(w, 'west', `${PERF}/secondary/enable`, { token }));
  w.advance(1000);
  return { w, westRoot: rootTokenOn(w, 'west', 'east') };
}

describe('paths filters', () => {
  it('without a filter, every replicated mount and namespace reaches the secondary, never the primary’s local mount', () => {
    const { w, westRoot } = filteredPair({ mode: 'deny', paths: [] });
    expect(visible(w, 'west', westRoot)).toEqual({ secret: 'secret', billing: 'billing', cache: 404, 'team-a/apps': 'team-a/apps' });
  });

  it('allow: only the listed mounts reach the secondary', () => {
    const { w, westRoot } = filteredPair({ mode: 'allow', paths: ['secret/', 'billing'] });
    expect(visible(w, 'west', westRoot)).toEqual({ secret: 'secret', billing: 'billing', cache: 404, 'team-a/apps': 404 });
    // The namespace itself did not come: a request inside it finds no such path.
    expect(readInTeamA(w, 'west', westRoot)).toMatchObject({ status: 404, body: { errors: [expect.stringContaining('unsupported path')] } });
  });

  it('allow: a listed namespace brings the namespace and every mount in it', () => {
    const { w, westRoot } = filteredPair({ mode: 'allow', paths: ['team-a/'] });
    expect(visible(w, 'west', westRoot)).toEqual({ secret: 404, billing: 404, cache: 404, 'team-a/apps': 'team-a/apps' });
    // Addressed through the namespace header, as a client in team-a would.
    expect(dataOf(readInTeamA(w, 'west', westRoot)).data).toEqual({ from: 'team-a/apps' });
  });

  it('allow: a listed mount inside a namespace brings the namespace that holds it', () => {
    const { w, westRoot } = filteredPair({ mode: 'allow', paths: ['team-a/apps/'] });
    expect(visible(w, 'west', westRoot)['team-a/apps']).toBe('team-a/apps');
    expect(dataOf(readInTeamA(w, 'west', westRoot)).data).toEqual({ from: 'team-a/apps' });
  });

  it('allow: listing the primary’s local mount does not make it replicate', () => {
    const { w, westRoot } = filteredPair({ mode: 'allow', paths: ['cache/', 'secret/'] });
    expect(visible(w, 'west', westRoot)).toMatchObject({ secret: 'secret', cache: 404 });
  });

  it('deny: all but the listed mounts and namespaces reach the secondary', () => {
    const { w, westRoot } = filteredPair({ mode: 'deny', paths: ['billing/', 'team-a/'] });
    expect(visible(w, 'west', westRoot)).toEqual({ secret: 'secret', billing: 404, cache: 404, 'team-a/apps': 404 });
    expect(readInTeamA(w, 'west', westRoot).status).toBe(404);
  });

  it('writes to a filtered-out mount on the primary never reach the secondary', () => {
    const { w, westRoot } = filteredPair({ mode: 'deny', paths: ['billing/'] });
    expectOk(writeKv(w, 'east', 'billing', 'later', { v: 2 }, rootOf(w, 'east')));
    expectOk(writeKv(w, 'east', 'secret', 'later', { v: 2 }, rootOf(w, 'east')));
    w.advance(1000);
    expect(get(w, 'west', 'billing/data/later', westRoot).status).toBe(404);
    expect(dataOf(get(w, 'west', 'secret/data/later', westRoot)).data).toEqual({ v: 2 });
  });

  it('changing a filter removes the now-excluded data at once and sends the now-included data by streaming', () => {
    const { w, westRoot } = filteredPair({ mode: 'deny', paths: ['billing/'] });
    expect(visible(w, 'west', westRoot)).toMatchObject({ secret: 'secret', billing: 404 });
    const at = w.now;
    expectOk(setFilter(w, 'east', 'west', { mode: 'deny', paths: ['secret/'] }));
    // Removed with the event, before any time passes.
    expect(visible(w, 'west', westRoot)).toMatchObject({ secret: 404, billing: 404 });
    const latency = w.state.network.latencyMs;
    w.advance(latency - 1);
    expect(visible(w, 'west', westRoot).billing).toBe(404);
    w.advance(1);
    expect(visible(w, 'west', westRoot)).toMatchObject({ secret: 404, billing: 'billing' });
    const events = w.log.filter((e) => e.at >= at).map((e) => e.type);
    expect(events).toContain('replication-paths-filter-set');
    expect(events).toContain('replication-wal-delivered');
  });

  it('a partitioned secondary loses excluded data at once, and receives the included data after the link heals', () => {
    const { w, westRoot } = filteredPair({ mode: 'deny', paths: ['billing/'] });
    w.partition(['east', 'west']);
    expectOk(setFilter(w, 'east', 'west', { mode: 'deny', paths: ['secret/'] }));
    w.advance(5000);
    expect(visible(w, 'west', westRoot)).toMatchObject({ secret: 404, billing: 404 });
    w.heal('all');
    w.advance(1000);
    expect(visible(w, 'west', westRoot)).toMatchObject({ secret: 404, billing: 'billing' });
  });

  it('a filter is per secondary: another secondary of the same primary is not affected', () => {
    const { w, westRoot } = filteredPair({ mode: 'allow', paths: ['secret/'] });
    enablePerfSecondary(w, 'east', 'south');
    w.advance(1000);
    const southRoot = rootTokenOn(w, 'south', 'east');
    expect(visible(w, 'west', westRoot)).toMatchObject({ billing: 404 });
    expect(visible(w, 'south', southRoot)).toMatchObject({ billing: 'billing', 'team-a/apps': 'team-a/apps' });
  });

  it('the secondary reports the same dynamic filter as the primary once it has synced', () => {
    const { w, westRoot } = filteredPair({ mode: 'allow', paths: ['secret/'] });
    const onPrimary = dataOf(get(w, 'east', `${PERF}/primary/dynamic-filter/west`, rootOf(w, 'east')));
    const onSecondary = dataOf(get(w, 'west', `${PERF}/secondary/dynamic-filter/west`, westRoot));
    expect(onSecondary).toEqual(onPrimary);
    expect(onPrimary).toEqual({ dynamic_filtered_mounts: ['billing/', 'team-a/apps/'], dynamic_filtered_namespaces: ['team-a/'] });
  });
});

describe('excludedFor (the filters-respected predicate)', () => {
  it('is true for the primary’s local mounts and for mounts the secondary’s filter excludes', () => {
    const { w } = filteredPair({ mode: 'deny', paths: ['team-a/'] });
    const s = w.state;
    expect(excludedFor(s, 'east', 'west', 'cache/')).toBe(true);
    expect(excludedFor(s, 'east', 'west', 'team-a/apps/')).toBe(true);
    expect(excludedFor(s, 'east', 'west', 'secret/')).toBe(false);
    expect(excludedFor(s, 'east', 'someone-else', 'team-a/apps/')).toBe(false);
    expect(namespaceExcludedFor(s, 'east', 'west', 'team-a/')).toBe(true);
    expect(namespaceExcludedFor(s, 'east', 'someone-else', 'team-a/')).toBe(false);
  });

  it('holds at every step of a run that changes filters, partitions and re-points the secondary', () => {
    const { w, westRoot } = filteredPair({ mode: 'allow', paths: ['secret/'] });
    const check = () => {
      for (const c of w.state.clusters.list()) {
        const r = c.replication.performance;
        if (r.role !== 'secondary.following' || r.primary === null) continue;
        for (const m of Object.values(c.storage.mounts)) if (!m.local) expect(excludedFor(w.state, r.primary, r.secondaryId, m.path), `${c.name} holds ${m.path}`).toBe(false);
        for (const ns of Object.keys(c.storage.namespaces)) expect(namespaceExcludedFor(w.state, r.primary, r.secondaryId, ns), `${c.name} holds ${ns}`).toBe(false);
      }
    };
    const steps: (() => void)[] = [
      () => setFilter(w, 'east', 'west', { mode: 'deny', paths: ['secret/'] }),
      () => w.advance(100),
      () => w.partition(['east', 'west']),
      () => setFilter(w, 'east', 'west', { mode: 'allow', paths: ['team-a/'] }),
      () => w.heal('all'),
      () => w.advance(100),
      () => {
        perfToken(w, 'east', 'west-2');
        setFilter(w, 'east', 'west-2', { mode: 'deny', paths: ['team-a/apps/', 'billing/'] });
      },
      () => post(w, 'west', `${PERF}/secondary/update-primary`, { token: perfToken(w, 'east', 'west-3') }, westRoot),
      () => setFilter(w, 'east', 'west-3', { mode: 'allow', paths: [] }),
      () => w.advance(1000),
    ];
    for (const step of steps) {
      step();
      check();
      w.advance(7);
      check();
    }
  });
});
