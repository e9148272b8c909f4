// Worlds and requests for the replication tests, driven only through the API and World.advance, as
// an operator would. The DR operation token is generated through the API too (generation attempt
// with the key shares that apply); when that endpoint still answers 501, `operationTokensBuilt` is
// false and the tests that need one are skipped.
import { expect } from 'vitest';
import type { ApiResponse } from '../../../src/kernel/http/http.js';
import { decodeToken } from '../../../src/areas/core/crypto/otp.js';
import type { ClusterSpec } from '../../../src/areas/cluster/genesis.js';
import { World } from '../../../src/world.js';

export const DR = 'sys/replication/dr';
const ATTEMPT = `${DR}/secondary/generate-operation-token/attempt`;
const UPDATE = `${DR}/secondary/generate-operation-token/update`;

/** A world of DR-capable clusters (defaults: east, west, south; KV-v2 `secret/` and a local `cache/`). */
export function drWorld(options: { seed?: number; latencyMs?: number; clusters?: Record<string, ClusterSpec> } = {}): World {
  const spec: ClusterSpec = { mounts: { secret: 'kv-v2', cache: { type: 'kv-v2', local: true } } };
  return World.create(options.clusters ?? { east: spec, west: spec, south: spec }, { seed: options.seed ?? 1, latencyMs: options.latencyMs });
}

/** The root token `cluster` was initialised with. */
export function rootOf(w: World, cluster: string): string {
  return w.state.operators[cluster].rootToken;
}

/** A POST with `cluster`'s initial root token, another token, or none (`null`). */
export function post(w: World, cluster: string, path: string, body?: unknown, token: string | null = rootOf(w, cluster)): ApiResponse {
  return w.request(cluster, { method: 'POST', path, body, token: token ?? undefined });
}

export function get(w: World, cluster: string, path: string, token?: string): ApiResponse {
  return w.request(cluster, { method: 'GET', path, token });
}

export function bodyOf(r: ApiResponse): any {
  return r.body as any;
}

export function dataOf(r: ApiResponse): any {
  return (r.body as { data: unknown }).data;
}

export function errorsOf(r: ApiResponse): string[] {
  return (r.body as { errors: string[] }).errors;
}

/** Expects a refusal with this status whose (first) error contains `text`. */
export function expectRefused(r: ApiResponse, status: number, text: string | RegExp): void {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  const e = errorsOf(r).join('\n');
  if (typeof text === 'string') expect(e).toContain(text);
  else expect(e).toMatch(text);
}

/** Expects success (2xx), printing the body when not. */
export function expectOk(r: ApiResponse): ApiResponse {
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  return r;
}

export function drStatus(w: World, cluster: string): any {
  return dataOf(get(w, cluster, `${DR}/status`));
}

/** Enables DR primary replication on `primary`. */
export function enablePrimary(w: World, primary: string, body: Record<string, unknown> = {}): void {
  expectOk(post(w, primary, `${DR}/primary/enable`, body));
}

/** A wrapped activation token for secondary `id`, issued by `primary` with its root token. */
export function secondaryToken(w: World, primary: string, id: string, body: Record<string, unknown> = {}, token = rootOf(w, primary)): string {
  const r = expectOk(post(w, primary, `${DR}/primary/secondary-token`, { id, ...body }, token));
  return bodyOf(r).wrap_info.token;
}

/** Enables `secondary` with a new token from `primary` (id = the secondary's name). */
export function enableSecondary(w: World, primary: string, secondary: string, id = secondary): void {
  const token = secondaryToken(w, primary, id);
  expectOk(post(w, secondary, `${DR}/secondary/enable`, { token }));
}

/** primary enabled, secondary enabled and given time to connect and sync. */
export function drPair(w: World, primary = 'east', secondary = 'west'): void {
  enablePrimary(w, primary);
  enableSecondary(w, primary, secondary);
  w.advance(1000);
}

/** Writes a KV-v2 secret on `cluster` with the given token (default its initial root token). */
export function writeKv(w: World, cluster: string, key: string, data: Record<string, unknown>, token = rootOf(w, cluster), mount = 'secret'): ApiResponse {
  return post(w, cluster, `${mount}/data/${key}`, { data }, token);
}

export function readKv(w: World, cluster: string, key: string, token: string, mount = 'secret'): ApiResponse {
  return get(w, cluster, `${mount}/data/${key}`, token);
}

/**
 * A token generated on `cluster` through a generation attempt, as an operator does it: start the
 * attempt (its response carries the OTP once), give the key shares of `keysOf` (the cluster whose
 * keyring it holds: its primary's after enable) up to the threshold, decode the encoded token with
 * the OTP. `paths` picks the strategy: the DR operation token or sys/generate-root. Null when the
 * endpoint is not built (501).
 */
export function generateWithShares(w: World, cluster: string, keysOf: string, paths: { attempt: string; update: string }): string | null {
  const start = w.request(cluster, { method: 'POST', path: paths.attempt, body: {} });
  if (start.status === 501) return null;
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  const s = bodyOf(start);
  let last: any = s;
  for (const key of w.state.operators[keysOf].keys.slice(0, s.required)) {
    const r = w.request(cluster, { method: 'POST', path: paths.update, body: { key, nonce: s.nonce } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    last = bodyOf(r);
  }
  expect(last.complete).toBe(true);
  return decodeToken(last.encoded_token, s.otp);
}

/** The paths of the standard root-token strategy. */
export const GENERATE_ROOT = { attempt: 'sys/generate-root/attempt', update: 'sys/generate-root/update' };

/** A DR operation token for `cluster` (a DR secondary), or null while generation answers 501. */
export function obtainDrOperationToken(w: World, cluster: string, keysOf: string): string | null {
  return generateWithShares(w, cluster, keysOf, { attempt: ATTEMPT, update: UPDATE });
}

/** Like obtainDrOperationToken, for tests that run only when generation is built. */
export function drOperationToken(w: World, cluster: string, keysOf: string): string {
  const t = obtainDrOperationToken(w, cluster, keysOf);
  if (t === null) throw new Error('DR operation token generation is not built yet (501)');
  return t;
}

/**
 * Whether DR operation tokens can be generated through the API yet (the other module answers 501
 * until built). Probed once on a throwaway world made a DR secondary through the API.
 */
export const operationTokensBuilt: boolean = (() => {
  const w = drWorld();
  drPair(w);
  return obtainDrOperationToken(w, 'west', 'east') !== null;
})();
