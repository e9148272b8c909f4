// Invariant `operation-token-gate`: no DR-secondary call that needs a DR operation token succeeded
// without a valid, undeleted one (spec, Authentication 2: promote, disable, update-primary,
// operation-token/delete, reindex and merkle-check on a DR secondary).
//
// Two views, so that neither the authorisation step nor the reducers are trusted alone:
//  - the log: the monitor derives from the events which DR operation token each cluster holds (one
//    is minted by a completed DR generation attempt; deleting it, or enabling the cluster as a
//    secondary, which wipes its storage, ends it) and which clusters are DR secondaries; each event
//    that only such a call appends must find the cluster a DR secondary with a token;
//  - the responses: a gated call answered with success on a DR secondary must have carried, in
//    `dr_operation_token`, the token the cluster held just before.
// What stands in for a DR operation token is restated here too, from the facts: a batch token made
// under the cluster's keyring, not expired, whose policies grant `update` on the path; and, from
// 2.0.0 (1.19.17), a root token the cluster holds. A call made with one is judged by the response
// view alone (the log does not say which credential a call carried).
import { openBatchToken } from '../../core/crypto/batch-token.js';
import type { SimEvent } from '../../core/events.js';
import type { ClusterState, SimState } from '../../core/state.js';
import { modeIn, requestPath, served, violation } from '../../monitoring/observe.js';
import type { Finding, Monitor, Observation } from '../../monitoring/types.js';

/** The calls that need a DR operation token on a DR secondary (all POST). */
export const GATED_PATHS: Record<string, string> = {
  'sys/replication/dr/secondary/promote': 'promote',
  'sys/replication/dr/secondary/disable': 'disable',
  'sys/replication/dr/secondary/update-primary': 'update-primary',
  'sys/replication/dr/secondary/operation-token/delete': 'operation-token/delete',
  'sys/replication/dr/secondary/reindex': 'reindex',
  'sys/replication/dr/secondary/merkle-check': 'merkle-check',
};

/** The call a gated event records, or null for other events. */
function gatedCall(e: SimEvent): string | null {
  switch (e.type) {
    case 'replication-secondary-promoted':
      return e.kind === 'dr' ? 'promote' : null;
    case 'replication-secondary-disabled':
      return e.kind === 'dr' ? 'disable' : null;
    case 'replication-secondary-primary-updated':
      return e.kind === 'dr' ? 'update-primary' : null;
    case 'dr-operation-token-deleted':
      return 'operation-token/delete';
    case 'reindex-started':
      return 'reindex';
    case 'merkle-checked':
      return 'merkle-check';
    default:
      return null;
  }
}

/**
 * The DR mode an event leaves its cluster in, for the events that change it. An independent
 * restatement of the role table's To column on purpose: this monitor cross-checks the gate from the
 * log alone, so it must not ask the machine whose decisions it watches.
 */
function drModeAfter(e: SimEvent): 'disabled' | 'primary' | 'secondary' | null {
  if (!('kind' in e) || e.kind !== 'dr') return null;
  switch (e.type) {
    case 'replication-primary-enabled':
    case 'replication-secondary-promoted':
      return 'primary';
    case 'replication-primary-demoted':
    case 'replication-secondary-enabled':
    case 'replication-secondary-primary-updated':
      return 'secondary';
    case 'replication-primary-disabled':
    case 'replication-secondary-disabled':
      return 'disabled';
    default:
      return null;
  }
}

/** Whether `version` takes a primary's root token on a DR secondary: 2.0.0 and later, 1.19.17 and later 1.19. */
function takesRootTokens(version: string): boolean {
  const [major, minor, patch] = version.split(/[.+-]/).map((x) => Number.parseInt(x, 10));
  return major > 1 || (major === 1 && minor === 19 && patch >= 17);
}

/** Whether one rule of a policy (`path`, `path*`) covers `path`; `+` stands for one segment. */
function covers(rule: string, path: string): boolean {
  const pattern = rule.replace(/[.?^${}()|[\]\\]/g, '\\$&').replace(/\+/g, '[^/]+');
  return rule.endsWith('*') ? new RegExp(`^${pattern.slice(0, -1)}`).test(path) : new RegExp(`^${pattern}$`).test(path);
}

/** Whether `given` stands in for a DR operation token on this cluster for `path` at `now`. */
function standIn(c: ClusterState, given: unknown, path: string, now: number): boolean {
  if (typeof given !== 'string' || given === '') return false;
  const claims = openBatchToken(given, c.storage.keyring.rootKeyHex);
  if (claims) {
    if (claims.expiresAt <= now) return false;
    const rules = claims.policies.flatMap((name) => {
      const p = c.storage.policies && Object.prototype.hasOwnProperty.call(c.storage.policies, name) ? c.storage.policies[name] : undefined;
      return p ? Object.entries(p.rules) : [];
    });
    const matching = rules.filter(([rule]) => covers(rule, path));
    return matching.some(([, caps]) => caps.includes('update')) && !matching.some(([, caps]) => caps.includes('deny'));
  }
  const held = Object.prototype.hasOwnProperty.call(c.storage.tokens, given) ? c.storage.tokens[given] : undefined;
  return held !== undefined && held.policy === 'root' && takesRootTokens(c.version);
}

export function operationTokenGate(): Monitor {
  return operationTokenGateFrom(new Map(), new Map());
}

/** The monitor that knows, from the log so far, the token each cluster holds and its DR mode. */
function operationTokenGateFrom(token: Map<string, string | null>, mode: Map<string, 'disabled' | 'primary' | 'secondary'>): Monitor {
  const learn = (state: SimState) => {
    for (const c of state.clusters.list()) {
      if (!token.has(c.name)) token.set(c.name, c.drOperationToken);
      if (!mode.has(c.name)) mode.set(c.name, modeIn(state, c.name, 'dr'));
    }
  };

  return {
    id: 'operation-token-gate',
    kind: 'invariant',
    description: 'no DR-secondary call that needs a DR operation token succeeded without a valid, undeleted one',
    observe(o: Observation) {
      const findings: Finding[] = [];
      learn(o.before);
      // Clusters whose gated call of this step carried a valid stand-in: the log cannot judge them.
      const stoodIn = new Set<string>();
      for (const r of o.responses ?? []) {
        const { path } = requestPath(r.request);
        const c = r.before.clusters.get(r.cluster);
        if (GATED_PATHS[path] && c && standIn(c, (r.request.body as { dr_operation_token?: unknown } | undefined)?.dr_operation_token, path, r.before.now)) stoodIn.add(r.cluster);
      }
      // Clusters already reported from the log, so one call is not reported twice.
      const flagged = new Set<string>();
      for (const e of o.events) {
        if (e.type === 'world-created') continue;
        const call = gatedCall(e);
        const cluster = 'cluster' in e ? (e.cluster as string) : null;
        if (call && cluster && mode.get(cluster) === 'secondary' && !token.get(cluster) && !stoodIn.has(cluster)) {
          flagged.add(cluster);
          findings.push(violation('operation-token-gate', e.at, [cluster], `${call} ran on the DR secondary ${cluster} while it held no valid DR operation token (none generated since its last wipe, or deleted)`));
        }
        if (!cluster) continue;
        if (e.type === 'generation-completed' && e.strategy === 'dr-operation-token') token.set(cluster, e.token);
        else if (e.type === 'dr-operation-token-deleted' || e.type === 'replication-secondary-enabled') token.set(cluster, null);
        const m = drModeAfter(e);
        if (m) mode.set(cluster, m);
      }
      for (const r of o.responses ?? []) {
        const { method, path } = requestPath(r.request);
        const call = GATED_PATHS[path];
        if (!call || (method !== 'POST' && method !== 'PUT') || !served(r.response.status) || modeIn(r.before, r.cluster, 'dr') !== 'secondary') continue;
        const held = r.before.clusters.get(r.cluster)?.drOperationToken ?? null;
        const given = (r.request.body as { dr_operation_token?: unknown } | undefined)?.dr_operation_token;
        if ((held === null || given !== held) && !flagged.has(r.cluster) && !stoodIn.has(r.cluster)) {
          const why = held === null ? 'it held no DR operation token' : typeof given === 'string' && given !== '' ? 'the token given was not its DR operation token' : 'no dr_operation_token was given';
          findings.push(violation('operation-token-gate', r.after.now, [r.cluster], `${call} on the DR secondary ${r.cluster} was answered ${r.response.status} although ${why}`));
        }
      }
      return findings;
    },
    fork: () => operationTokenGateFrom(new Map(token), new Map(mode)),
  };
}
