// Worlds for the generation-attempt, operation-token and merkle tests. A DR secondary is made by
// rewriting a world's first event so the cluster starts in that role (`secondary.unassigned`: a DR
// secondary with no primary to stream from), then replaying the log: every later event (KV writes,
// an attempt already started) is applied to it. This does not need the DR enable endpoint.
import type { ApiRequest, ApiResponse } from '../../../src/kernel/http/http.js';
import type { SimEvent, WorldCreated } from '../../../src/areas/core/events.js';
import type { ClusterSpec } from '../../../src/areas/cluster/genesis.js';
import { World } from '../../../src/world.js';

export const DR_ATTEMPT = 'sys/replication/dr/secondary/generate-operation-token/attempt';
export const DR_UPDATE = 'sys/replication/dr/secondary/generate-operation-token/update';
export const ROOT_ATTEMPT = 'sys/generate-root/attempt';
export const ROOT_UPDATE = 'sys/generate-root/update';
export const OP_TOKEN_DELETE = 'sys/replication/dr/secondary/operation-token/delete';
export const REINDEX = 'sys/replication/dr/secondary/reindex';
export const MERKLE_CHECK = 'sys/replication/dr/secondary/merkle-check';

/** A world's log replayed with the cluster's DR role set as given from the start. */
export function withDrRole(w: World, cluster: string, role: 'secondary.unassigned' | 'disabled'): World {
  const log = structuredClone(w.log) as SimEvent[];
  const genesis = log[0] as WorldCreated;
  const c = genesis.clusters.find((x) => x.name === cluster);
  if (!c) throw new Error(`no cluster ${cluster}`);
  c.replication.dr.role = role;
  return World.replay(log);
}

/** One cluster `west` that is a DR secondary, holding `kvKeys` KV keys written before it became one. */
export function drSecondaryWorld(options: { seed?: number; kvKeys?: number; spec?: ClusterSpec } = {}): World {
  const w = World.create({ west: options.spec ?? { mounts: { secret: 'kv-v2', cache: { type: 'kv-v2', local: true } } } }, { seed: options.seed ?? 1 });
  const root = w.tokenNamed('west', 'root');
  for (let i = 0; i < (options.kvKeys ?? 0); i++) w.request('west', { method: 'POST', path: `secret/data/k${i}`, body: { data: { i } }, token: root });
  return withDrRole(w, 'west', 'secondary.unassigned');
}

/** One plain enterprise cluster `east` (not replicating). */
export function plainWorld(options: { seed?: number; spec?: ClusterSpec } = {}): World {
  return World.create({ east: options.spec ?? {} }, { seed: options.seed ?? 1 });
}

export const post = (path: string, body?: unknown): ApiRequest => ({ method: 'POST', path, body });
export const get = (path: string): ApiRequest => ({ method: 'GET', path });
export const del = (path: string): ApiRequest => ({ method: 'DELETE', path });

export function bodyOf(r: ApiResponse): any {
  return r.body as any;
}

export function errorsOf(r: ApiResponse): string[] {
  return (r.body as { errors: string[] }).errors;
}

/** The operator's key shares of a cluster (base64), as handed out at initialisation. */
export function keysOf(w: World, cluster: string): string[] {
  return w.state.operators[cluster].keys;
}

/** Runs a whole OTP generation on `cluster`: start, then shares up to the threshold. */
export function generateWithOtp(w: World, cluster: string, paths: { attempt: string; update: string }, keys = keysOf(w, cluster)) {
  const start = bodyOf(w.request(cluster, post(paths.attempt)));
  let last: ApiResponse | null = null;
  for (const key of keys.slice(0, start.required)) last = w.request(cluster, post(paths.update, { key, nonce: start.nonce }));
  return { start, final: bodyOf(last!), finalResponse: last! };
}

/** Obtains a DR operation token on the DR secondary `west`. */
export function drOperationTokenOf(w: World, cluster = 'west'): string {
  generateWithOtp(w, cluster, { attempt: DR_ATTEMPT, update: DR_UPDATE });
  const token = w.state.clusters.named(cluster).drOperationToken;
  if (!token) throw new Error('no DR operation token was generated');
  return token;
}
