// What monitors share to read an observation: the state at any moment between the step's events,
// a request's path in a form that compares, and small readers of roles and replicated data. All of
// it only reads; folding events again runs the world's pure reducers on copies (immer), never on
// the world.
import { asFolder } from '../core/paths.js';
import { parseRequestLine } from '../../kernel/http/request-line.js';
import { modeOf } from '../../../models/replication-role.machine.js';
import type { SimEvent } from '../core/events.js';
import type { ClusterState, KvRecord, ReplicationKind, SimState } from '../core/state.js';
import { versionEntries } from '../core/versions.js';
import { canonicalJson } from '../../kernel/canonical.js';
import { memoOnObject } from '../../kernel/memo.js';
import type { Finding, Observation, ObservedRequest } from './types.js';

export { REPLICATION_KINDS as KINDS, KIND_WORD } from '../core/vocabulary.js';

// States folded again for observations that did not carry them, computed once per observation.
const foldedOf = memoOnObject((_: Observation): SimState[] => []);

/** The state right after `events[i]`. */
export function stateAfter(o: Observation, i: number): SimState {
  if (o.states && o.states.length === o.events.length) return o.states[i];
  if (i === o.events.length - 1) return o.state;
  return foldTo(o, i);
}

/** The state right before `events[i]` (the observation's `before` for the first). */
export function stateBefore(o: Observation, i: number): SimState {
  return i <= 0 ? o.before : stateAfter(o, i - 1);
}

function foldTo(o: Observation, i: number): SimState {
  const states = foldedOf(o);
  const fold = o.fold;
  if (!fold) throw new Error('an observation of several events needs the state after each (states) or the world\'s fold to compute them');
  for (let k = states.length; k <= i; k++) states.push(fold(k === 0 ? o.before : states[k - 1], o.events[k] as SimEvent));
  return states[i];
}

/** The DR or performance mode of a cluster in a state ('disabled' for an unknown cluster). */
export function modeIn(state: SimState, cluster: string, kind: ReplicationKind): 'disabled' | 'primary' | 'secondary' {
  const c = state.clusters.get(cluster);
  return c ? modeOf(c.replication[kind].role) : 'disabled';
}

/** Whether the cluster is a DR secondary in that state (it then serves no client request outside its open paths). */
export function isDrSecondaryIn(state: SimState, cluster: string): boolean {
  return modeIn(state, cluster, 'dr') === 'secondary';
}

/** A request's path relative to the root namespace and without `/v1/`, slashes at the ends or query. */
export function requestPath(request: ObservedRequest): RequestPath {
  return lineOf(request, request.method, request.path, request.namespace);
}
type RequestPath = Readonly<{ method: string; path: string }>;
// Several monitors read each request's line: it is parsed once per request (and again when the
// request object was changed since) and shared, frozen.
const lineOf = memoOnObject((_: ObservedRequest, method: string, path: string, namespace: string | undefined): RequestPath => {
  const line = parseRequestLine(method, path);
  return Object.freeze({ method: line.method, path: (asFolder(namespace) + line.path).replace(/\/+$/, '') });
});

/** The same path with a namespace of the cluster taken off its front, when it has one (sys paths are relative to it). */
export function pathsWithinNamespaces(cluster: ClusterState | undefined, path: string): string[] {
  const out = [path];
  for (const ns of Object.keys(cluster?.storage.namespaces ?? {})) if (path.startsWith(ns)) out.push(path.slice(ns.length));
  return out;
}

/** Whether an HTTP status is an answer that served the request (not a refusal or an error). */
export function served(status: number): boolean {
  return status >= 200 && status < 400;
}

/** `mount/key` as findings list keys: "secret/" + "app/db" → "secret/app/db". */
export function keyName(mount: string, key: string): string {
  return mount.endsWith('/') ? mount + key : `${mount}/${key}`;
}

/** The readable versions of a KV record (not deleted, not destroyed), as stable strings. */
export function readableVersions(mount: string, key: string, rec: KvRecord | undefined): readonly string[] {
  return rec ? fingerprints(rec, mount, key) : NO_VERSIONS;
}
const NO_VERSIONS: readonly string[] = Object.freeze([]);
// Records are immutable and shared between states: the fingerprints (each the version's data as
// canonical JSON) are made once per record, mount and key, not again at every step that reads them,
// and shared, frozen.
const fingerprints = memoOnObject((rec: KvRecord, mount: string, key: string): readonly string[] => {
  const out: string[] = [];
  for (const [n, v] of versionEntries(rec)) {
    if (v.deletedAt !== null || v.destroyed) continue;
    out.push(`${mount}\u0000${key}\u0000${n}\u0000${v.createdAt}\u0000${canonicalJson(v.data)}`);
  }
  return Object.freeze(out);
});

/** Whether two KV records are the same (every version, its data and times), by identity first. */
export function sameRecord(a: KvRecord | undefined, b: KvRecord | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return canonicalJson(a) === canonicalJson(b);
}

/** Builds a violation of an invariant. */
export function violation(id: Finding['id'], at: number, clusters: string[], message: string): Finding {
  return { kind: 'violation', id, at, clusters, message };
}
