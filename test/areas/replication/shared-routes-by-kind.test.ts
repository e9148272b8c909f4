// The shared route builders serve either kind. This drives the builders for kind `performance`
// through the router with a test route table of its own (the world wires them in
// replication-performance.ts), in a world given that table.
import { describe, expect, it } from 'vitest';
import type { ApiRequest, ApiResponse } from '../../../src/kernel/http/http.js';
import { kvRoutes } from '../../../src/areas/cluster/kv.js';
import { operationTokenRoutes } from '../../../src/areas/operation-token/routes.js';
import { decodeToken } from '../../../src/areas/core/crypto/otp.js';
import { drRoutes, replicationRoutes } from '../../../src/areas/replication/routes.js';
import type { RouteTable } from '../../../src/areas/core/http/routing.js';
import type { SimState } from '../../../src/areas/core/state.js';
import { routes as worldRoutes, World } from '../../../src/world.js';
import { rootOf } from './helpers.js';

const table: RouteTable = { sys: [...replicationRoutes('performance'), ...drRoutes, ...operationTokenRoutes], mounts: kvRoutes, landing: worldRoutes.landing };
const PERF = 'sys/replication/performance';

/** A world driven by the test table: requests through the router, time through the world's processes and bus. */
class Harness {
  constructor(private readonly w: World) {}

  get state(): SimState {
    return this.w.state;
  }

  request(cluster: string, req: ApiRequest): ApiResponse {
    return this.w.request(cluster, req);
  }

  post(cluster: string, path: string, body: unknown = {}, token = this.state.operators[cluster].rootToken): ApiResponse {
    return this.request(cluster, { method: 'POST', path, body, token });
  }

  advance(ms: number): void {
    this.w.advance(ms);
  }
}

describe('replicationRoutes(kind) for performance', () => {
  function perfPair() {
    const w = World.create({ east: { mounts: { secret: 'kv-v2', cache: { type: 'kv-v2', local: true } } }, west: {} }, { seed: 1, routes: table });
    const h = new Harness(w);
    h.post('east', 'secret/data/app', { data: { v: 1 } });
    h.post('east', 'cache/data/local', { data: { v: 1 } });
    expect(h.post('east', `${PERF}/primary/enable`).status).toBe(200);
    const token = (h.post('east', `${PERF}/primary/secondary-token`, { id: 'west' }).body as any).wrap_info.token;
    expect(h.post('west', `${PERF}/secondary/enable`, { token }).status).toBe(200);
    h.advance(1000);
    // Tokens are local to a performance secondary and enable wiped west's: its operators generate a
    // root token there with the primary's key shares.
    const start = h.request('west', { method: 'POST', path: 'sys/generate-root/attempt', body: {} }).body as any;
    let last: any = null;
    for (const key of w.state.operators.east.keys.slice(0, start.required)) last = h.request('west', { method: 'POST', path: 'sys/generate-root/update', body: { key, nonce: start.nonce } }).body;
    const root = decodeToken(last.encoded_token, start.otp);
    return { h, root, eastRoot: rootOf(w, 'east') };
  }

  it('a performance secondary receives replicated mounts, not the primary’s local ones', () => {
    const { h } = perfPair();
    const west = h.state.clusters.named('west');
    expect(west.replication.performance).toMatchObject({ role: 'secondary.following', primary: 'east', lastRemoteWal: h.state.clusters.named('east').wal.last });
    // Enabling wiped its own local mount too; afterwards only the primary's replicated mount arrives.
    expect(Object.keys(west.storage.mounts)).toEqual(['secret/']);
    expect(west.storage.kv['secret/']?.get('app')).toBeDefined();
    expect(west.storage.kv['cache/']).toBeUndefined();
  });

  it('a performance secondary must be promoted, not enabled as a primary', () => {
    const { h, root } = perfPair();
    const r = h.post('west', `${PERF}/primary/enable`, {}, root);
    expect(r).toMatchObject({ status: 400, body: { errors: [expect.stringContaining('must be promoted')] } });
  });

  it('a DR secondary may not run beside performance replication', () => {
    const { h, root, eastRoot } = perfPair();
    expect(h.post('east', 'sys/replication/dr/primary/enable', {}, eastRoot).status).toBe(200);
    const token = (h.post('east', 'sys/replication/dr/primary/secondary-token', { id: 'west' }, eastRoot).body as any).wrap_info.token;
    const r = h.post('west', 'sys/replication/dr/secondary/enable', { token }, root);
    expect(r).toMatchObject({ status: 400, body: { errors: [expect.stringContaining('disable performance replication on this cluster first')] } });
  });

  it('performance promotion takes a client token, no DR operation token, and reports last_performance_wal', () => {
    const { h, root } = perfPair();
    expect(h.post('west', `${PERF}/secondary/promote`, {}, root).status).toBe(200);
    const status = (h.request('west', { method: 'GET', path: `${PERF}/status` }).body as any).data;
    expect(status).toMatchObject({ mode: 'primary', last_performance_wal: status.last_wal });
  });
});
