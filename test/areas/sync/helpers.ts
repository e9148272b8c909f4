// Worlds and requests for the secret sync tests, driven through the API, World.advance and the
// destination-fault fault, as an operator would.
import { expect } from 'vitest';
import type { ApiResponse } from '../../../src/kernel/http/http.js';
import type { ClusterSpec } from '../../../src/areas/cluster/genesis.js';
import { World } from '../../../src/world.js';

export const DEST = 'sys/sync/destinations';

/** Connection bodies that satisfy each destination type's required parameters. */
export const CONNECTIONS: Record<string, Record<string, unknown>> = {
  'cloudone-sm': { access_key_id: 'AKIAEXAMPLE', secret_access_key: 'wJalrEXAMPLE', region: 'eu-west-1' },
  'cloudtwo-kv': { key_vault_uri: 'https://keys.example', client_id: 'cid', client_secret: 'csecret', tenant_id: 'tid' },
  'cloudthree-sm': { credentials: '{"type":"service_account"}' },
  codehost: { access_token: 'github_pat_x', repository_owner: 'acme', repository_name: 'web' },
  'webhost-project': { access_token: 'wh_token', project_id: 'prj_1', deployment_environments: ['production'] },
};

/** One enterprise cluster `east` with KV-v2 `secret/`, KV-v1 `old/`, a namespace and narrow tokens. */
export function syncWorld(options: { seed?: number; east?: ClusterSpec; others?: Record<string, ClusterSpec> } = {}): World {
  const east: ClusterSpec = {
    namespaces: ['team-a'],
    mounts: { secret: 'kv-v2', old: 'kv-v1', 'team-a/apps': 'kv-v2' },
    tokens: {
      // May manage sync, but not read secrets.
      syncer: { policy: { 'sys/sync/*': ['create', 'read', 'update', 'delete', 'list'] } },
      // May manage sync and read secret/ (not old/).
      operator: { policy: { 'sys/sync/*': ['create', 'read', 'update', 'delete', 'list'], 'secret/data/*': ['read'] } },
      // May only read sync state.
      viewer: { policy: { 'sys/sync/*': ['read', 'list'] } },
      teamA: { namespace: 'team-a', policy: { 'sys/sync/*': ['create', 'read', 'update', 'delete', 'list'], 'apps/data/*': ['create', 'read', 'update'] } },
    },
    ...options.east,
  };
  return World.create({ east, ...options.others }, { seed: options.seed ?? 1 });
}

export function rootOf(w: World, cluster = 'east'): string {
  return w.state.operators[cluster].rootToken;
}

/** A request on `east` with its root token, a named token, or none (`null`). */
export function call(w: World, method: string, path: string, body?: unknown, token: string | null = 'root', cluster = 'east', namespace?: string): ApiResponse {
  const value = token === null ? undefined : token.startsWith('hvs.') ? token : w.tokenNamed(cluster, token);
  return w.request(cluster, { method, path, body, token: value, namespace });
}

export function dataOf(r: ApiResponse): any {
  return (r.body as { data: unknown }).data;
}

export function errorsOf(r: ApiResponse): string[] {
  return (r.body as { errors: string[] }).errors;
}

export function expectOk(r: ApiResponse): ApiResponse {
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  return r;
}

/** Expects a refusal with this status whose errors contain `text` (or, with `exact`, are exactly it). */
export function expectRefused(r: ApiResponse, status: number, text: string, exact = false): void {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  if (exact) expect(errorsOf(r)).toEqual([text]);
  else expect(errorsOf(r).join('\n')).toContain(text);
}

export function writeSecret(w: World, key: string, data: Record<string, unknown>, mount = 'secret'): void {
  expectOk(call(w, 'POST', `${mount}/data/${key}`, { data }));
}

export function createDestination(w: World, type: string, name: string, extra: Record<string, unknown> = {}): ApiResponse {
  return expectOk(call(w, 'POST', `${DEST}/${type}/${name}`, { ...CONNECTIONS[type], ...extra }));
}

export function setAssociation(w: World, type: string, name: string, mount: string, secretName: string, token = 'root'): ApiResponse {
  return call(w, 'POST', `${DEST}/${type}/${name}/associations/set`, { mount, secret_name: secretName }, token);
}

export function removeAssociation(w: World, type: string, name: string, mount: string, secretName: string): ApiResponse {
  return call(w, 'POST', `${DEST}/${type}/${name}/associations/remove`, { mount, secret_name: secretName });
}

/** The mount accessor of a mount path on `east` (what association keys start with). */
export function accessorOf(w: World, mount = 'secret/', cluster = 'east'): string {
  return w.state.clusters.named(cluster).storage.mounts[mount].accessor;
}

/** The sync status of one secret at one destination, read through the by-secret endpoint. */
export function statusOf(w: World, type: string, name: string, mount: string, secretName: string): string | undefined {
  const r = call(w, 'GET', `sys/sync/associations/destinations?mount=${encodeURIComponent(mount)}&secret_name=${encodeURIComponent(secretName)}`);
  return dataOf(r)?.associated_destinations?.[`${type}/${name}`]?.sync_status;
}

/** What the simulated external store behind a destination holds (the world's: one store per destination). */
export function storeOf(w: World, type: string, name: string, namespace = ''): Record<string, string> {
  return w.state.stores[`${namespace}${type}/${name}`]?.secrets ?? {};
}
