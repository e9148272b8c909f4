// Worlds for the benchmarks, built through the API as an operator would (like test/areas/replication/
// helpers.ts, without vitest): replication sets of one primary and N secondaries, DR or performance.
import type { ApiResponse } from '../../src/kernel/http/http.js';
import type { ClusterSpec, Topology } from '../../src/areas/cluster/genesis.js';
import type { ReplicationKind } from '../../src/areas/core/state.js';
import { World } from '../../src/world.js';

export const LATENCY_MS = 20;
export const KV_SPEC: ClusterSpec = { mounts: { secret: 'kv-v2' } };

const BASE: Record<ReplicationKind, string> = { dr: 'sys/replication/dr', performance: 'sys/replication/performance' };

export function rootOf(w: World, cluster: string): string {
  return w.state.operators[cluster].rootToken;
}

function post(w: World, cluster: string, path: string, body: Record<string, unknown> = {}): ApiResponse {
  return w.request(cluster, { method: 'POST', path, body, token: rootOf(w, cluster) });
}

function ok(r: ApiResponse, what: string): ApiResponse {
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

/** Makes `primary` a primary of `kind` and each of `secondaries` its secondary (id = its name); not yet advanced. */
export function replicate(w: World, kind: ReplicationKind, primary: string, secondaries: readonly string[]): void {
  const base = BASE[kind];
  ok(post(w, primary, `${base}/primary/enable`), `${kind} primary/enable on ${primary}`);
  for (const s of secondaries) {
    const r = ok(post(w, primary, `${base}/primary/secondary-token`, { id: s }), `${kind} secondary-token for ${s}`);
    const token = (r.body as { wrap_info: { token: string } }).wrap_info.token;
    ok(post(w, s, `${base}/secondary/enable`, { token }), `${kind} secondary/enable on ${s}`);
  }
}

/** Whether the endpoints of a kind are built: enabling a primary answers something other than 501. */
export function probe(kind: ReplicationKind): { built: boolean; why?: string } {
  const w = World.create({ p: KV_SPEC, s: KV_SPEC }, { seed: 1 });
  const r = post(w, 'p', `${BASE[kind]}/primary/enable`);
  if (r.status === 501) return { built: false, why: `${BASE[kind]}/primary/enable answers 501 (not built yet)` };
  if (r.status >= 300) return { built: false, why: `${BASE[kind]}/primary/enable answers ${r.status}: ${JSON.stringify(r.body)}` };
  return { built: true };
}

/** One primary `p` and secondaries `s1`..`sN` of `kind`, connected and synced. */
export function replicationSet(kind: ReplicationKind, secondaries = 3, seed = 1): World {
  const names = Array.from({ length: secondaries }, (_, i) => `s${i + 1}`);
  const topology: Topology = { p: KV_SPEC };
  for (const n of names) topology[n] = KV_SPEC;
  const w = World.create(topology, { seed, latencyMs: LATENCY_MS });
  replicate(w, kind, 'p', names);
  w.advance(1000);
  return w;
}

/** A KV-v2 write on `cluster` with its initial root token; throws unless it succeeded. */
export function write(w: World, cluster: string, token: string, key: string, data: Record<string, unknown>): void {
  const r = w.request(cluster, { method: 'POST', path: `secret/data/${key}`, body: { data }, token });
  if (r.status !== 200) throw new Error(`write ${key} on ${cluster}: ${r.status} ${JSON.stringify(r.body)}`);
}

/** Deletes a KV-v2 key and all its versions (metadata delete). */
export function destroy(w: World, cluster: string, token: string, key: string): void {
  const r = w.request(cluster, { method: 'DELETE', path: `secret/metadata/${key}`, token });
  if (r.status >= 300) throw new Error(`delete ${key} on ${cluster}: ${r.status} ${JSON.stringify(r.body)}`);
}
