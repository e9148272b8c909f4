// The plugin runtime catalog under replication (#13): every change advances the WAL, so a DR
// secondary mirrors it while the link is up and serves it once promoted; a performance secondary
// reads its primary's catalog and forwards changes to it.
import { describe, expect, it } from 'vitest';
import type { World } from '../../../src/world.js';
import { DR, dataOf, drOperationToken, drPair, drWorld, expectOk, get, post } from '../replication/helpers.js';
import { perfPair, perfWorld } from '../replication/performance/helpers.js';
import { CATALOG, PLUGINS, SHA } from './helpers.js';

const RUNTIME = `${CATALOG}/container`;
const root = (w: World, c: string) => w.state.operators[c].rootToken;

describe('DR carries the plugin runtime catalog', () => {
  it('a runtime registered and then updated on the primary while the link is up is read with the update on the promoted secondary', () => {
    const w = drWorld();
    drPair(w);
    expectOk(post(w, 'east', `${RUNTIME}/gvisor`, { oci_runtime: 'runsc', memory_bytes: 1_000 }));
    w.advance(1_000);
    expectOk(post(w, 'east', `${RUNTIME}/gvisor`, { oci_runtime: 'runsc', memory_bytes: 2_000 }));
    // A plugin that runs with it, registered after the update: both travel.
    expectOk(post(w, 'east', `${PLUGINS}/secret/my-plugin`, { sha256: SHA, oci_image: 'acme/my-plugin', runtime: 'gvisor' }));
    w.advance(1_000);
    // No KV write followed: the catalog events themselves carried the changes.
    expect(w.log.some((e) => e.type === 'kv-written')).toBe(false);
    const op = drOperationToken(w, 'west', 'east');
    w.crash('east');
    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: op }, null));
    expect(dataOf(get(w, 'west', `${RUNTIME}/gvisor`, root(w, 'east')))).toEqual({ name: 'gvisor', type: 'container', oci_runtime: 'runsc', cgroup_parent: '', cpu_nanos: 0, memory_bytes: 2_000, rootless: false });
    expect(dataOf(get(w, 'west', `${PLUGINS}/secret/my-plugin`, root(w, 'east'))).runtime).toBe('gvisor');
  });

  it('a runtime deleted on the primary is gone on the promoted secondary', () => {
    const w = drWorld();
    drPair(w);
    expectOk(post(w, 'east', `${RUNTIME}/gvisor`, {}));
    w.advance(1_000);
    expect(w.request('east', { method: 'DELETE', path: `${RUNTIME}/gvisor`, token: root(w, 'east') }).status).toBe(204);
    w.advance(1_000);
    const op = drOperationToken(w, 'west', 'east');
    w.crash('east');
    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: op }, null));
    const r = get(w, 'west', `${RUNTIME}/gvisor`, root(w, 'east'));
    expect(r.status).toBe(500);
    expect(JSON.stringify(r.body)).toContain('plugin runtime not found');
  });
});

describe('a performance secondary and its primary’s plugin catalog', () => {
  it('reads the primary’s runtimes, and a runtime registered on it lands on the primary', () => {
    const w = perfWorld();
    const westRoot = perfPair(w);
    expectOk(post(w, 'east', `${RUNTIME}/gvisor`, { cpu_nanos: 5 }));
    w.advance(1_000);
    expect(dataOf(get(w, 'west', `${RUNTIME}/gvisor`, westRoot)).cpu_nanos).toBe(5);
    expect(w.request('west', { method: 'POST', path: `${RUNTIME}/runc`, body: { oci_runtime: 'runc' }, token: westRoot }).status).toBe(204);
    expect(w.log.at(-1)).toMatchObject({ type: 'plugin-runtime-registered', cluster: 'east' });
    expect(Object.keys(w.state.clusters.named('east').plugins.runtimes)).toEqual(['container/gvisor', 'container/runc']);
    w.advance(1_000);
    expect(dataOf(get(w, 'west', CATALOG, westRoot)).runtimes.map((r: { name: string }) => r.name)).toEqual(['gvisor', 'runc']);
    // A delete on west is checked against the primary's catalog and applied there.
    expect(w.request('west', { method: 'DELETE', path: `${RUNTIME}/runc`, token: westRoot }).status).toBe(204);
    expect(Object.keys(w.state.clusters.named('east').plugins.runtimes)).toEqual(['container/gvisor']);
  });
});
