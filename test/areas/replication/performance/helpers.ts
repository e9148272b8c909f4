// Worlds and requests for the performance replication tests, driven only through the API and
// World.advance, as an operator would. A performance secondary holds no token after enable (tokens
// are local to it and enable wipes them), so `rootTokenOn` gets one the operator's way: a root token
// generation on that cluster with the key shares that apply there (its primary's, after enable).
import { expect } from 'vitest';
import type { ApiResponse } from '../../../../src/kernel/http/http.js';
import type { ClusterSpec } from '../../../../src/areas/cluster/genesis.js';
import { World } from '../../../../src/world.js';
import { bodyOf, dataOf, expectOk, GENERATE_ROOT, generateWithShares, get, post, rootOf } from '../helpers.js';

export { bodyOf, dataOf, errorsOf, expectOk, expectRefused, get, post, rootOf } from '../helpers.js';

export const PERF = 'sys/replication/performance';
export const DR = 'sys/replication/dr';

/** The primary's data set: replicated `secret/` and `billing/`, a namespace with a mount, and a local `cache/`. */
export const PRIMARY_SPEC: ClusterSpec = {
  namespaces: ['team-a'],
  mounts: { secret: 'kv-v2', billing: 'kv-v2', cache: { type: 'kv-v2', local: true }, 'team-a/apps': 'kv-v2' },
};

/** A would-be secondary with data of its own (wiped when it is enabled). */
export const SECONDARY_SPEC: ClusterSpec = { mounts: { secret: 'kv-v2', mine: { type: 'kv-v2', local: true } } };

/** east (primary data set), west and south (secondaries-to-be), unless `clusters` says otherwise. */
export function perfWorld(options: { seed?: number; latencyMs?: number; clusters?: Record<string, ClusterSpec> } = {}): World {
  return World.create(options.clusters ?? { east: PRIMARY_SPEC, west: SECONDARY_SPEC, south: SECONDARY_SPEC }, { seed: options.seed ?? 1, latencyMs: options.latencyMs });
}

export function perfStatus(w: World, cluster: string): any {
  return dataOf(get(w, cluster, `${PERF}/status`));
}

export function enablePerfPrimary(w: World, primary: string, body: Record<string, unknown> = {}, token = rootOf(w, primary)): void {
  expectOk(post(w, primary, `${PERF}/primary/enable`, body, token));
}

/** A wrapped performance activation token for secondary `id`. */
export function perfToken(w: World, primary: string, id: string, token = rootOf(w, primary), body: Record<string, unknown> = {}): string {
  const r = expectOk(post(w, primary, `${PERF}/primary/secondary-token`, { id, ...body }, token));
  return bodyOf(r).wrap_info.token;
}

/** Enables `secondary` with a new token from `primary` (id = the secondary's name by default). */
export function enablePerfSecondary(w: World, primary: string, secondary: string, options: { id?: string; primaryToken?: string } = {}): void {
  const token = perfToken(w, primary, options.id ?? secondary, options.primaryToken ?? rootOf(w, primary));
  expectOk(post(w, secondary, `${PERF}/secondary/enable`, { token }, rootOf(w, secondary)));
}

/**
 * A root token generated on `cluster` through sys/generate-root with the key shares of `keysOf`
 * (the cluster whose keyring it holds: its performance primary's after enable).
 */
export function rootTokenOn(w: World, cluster: string, keysOf: string): string {
  const token = generateWithShares(w, cluster, keysOf, GENERATE_ROOT);
  if (token === null) throw new Error('sys/generate-root answers 501');
  return token;
}

/** east a performance primary, `secondary` enabled under it and synced; returns the secondary's generated root token. */
export function perfPair(w: World, secondary = 'west', primary = 'east'): string {
  enablePerfPrimary(w, primary);
  enablePerfSecondary(w, primary, secondary);
  w.advance(1000);
  return rootTokenOn(w, secondary, primary);
}

export function writeKv(w: World, cluster: string, mount: string, key: string, data: Record<string, unknown>, token: string): ApiResponse {
  return post(w, cluster, `${mount}/data/${key}`, { data }, token);
}

export function readKv(w: World, cluster: string, mount: string, key: string, token: string): ApiResponse {
  return get(w, cluster, `${mount}/data/${key}`, token);
}

/** The `data.data` of a KV-v2 read, or the status when it failed. */
export function kvValue(w: World, cluster: string, mount: string, key: string, token: string): unknown {
  const r = readKv(w, cluster, mount, key, token);
  return r.status === 200 ? (r.body as any).data.data : r.status;
}

export function setFilter(w: World, primary: string, id: string, body: Record<string, unknown>, token = rootOf(w, primary)): ApiResponse {
  return post(w, primary, `${PERF}/primary/paths-filter/${id}`, body, token);
}
