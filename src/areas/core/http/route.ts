// What an endpoint of the simulator declares (the kernel's contract, src/kernel/http/route.ts, at
// the simulator's types): the authorisation rule it needs (one reusable step, not code per handler:
// authorize.ts), its body fields, and the handler that turns a checked request into events and a
// reply, reading a cluster of the world's state.
import type { SimEvent } from '../events.js';
import type { Capability, ClusterState, MountEntry, SimState, TokenEntry } from '../state.js';
import type { Refused } from '../../../kernel/refusal.js';
import type { Rng } from '../../../kernel/prng.js';
import type { FieldSpec, Fields } from '../../../kernel/http/fields.js';
import type { Method } from '../../../kernel/http/http.js';
import type { Endpoint as KernelEndpoint, Outcome as KernelOutcome, Route as KernelRoute } from '../../../kernel/http/route.js';

export interface AuthRule {
  /**
   * How the caller proves it may call: `client`, an ordinary client token with the capability;
   * `none`, unauthenticated; `dr-operation-token`, a valid DR operation token in the body.
   */
  token: 'client' | 'none' | 'dr-operation-token';
  /** The capability needed (default: from the method), or a function of the request (create vs update). */
  capability?: Capability | ((ctx: RequestContext) => Capability);
  sudo?: boolean;
  /** Restricted-root: callable only from the root namespace. */
  rootNamespace?: boolean;
  /** Licence needed; absent means any. */
  license?: 'enterprise' | 'enterprise-or-managed';
  /**
   * The path exists only in Enterprise builds: on a community build (licence `none`) there is no
   * such path at all, 404 `unsupported path` (secret sync), before any other check.
   */
  enterpriseBuildOnly?: boolean;
  /** The path stays open on a DR secondary (status, the DR secondary's own endpoints). */
  openOnDrSecondary?: boolean;
  /**
   * An unauthenticated endpoint of a family that needs a token from 2.0.0 (1.19.17) unless the
   * server's `enable_unauthenticated_access` names it (version-rules.ts `generationNeedsToken`).
   */
  unauthenticatedFamily?: 'generate-operation-token' | 'generate-root' | 'rekey';
}

/** The rule of most operator endpoints: a client token, in the root namespace, on an enterprise licence. */
export const adminAuth: AuthRule = { token: 'client', rootNamespace: true, license: 'enterprise' };

/** Everything a handler may read. It must not change anything: it returns events instead. */
export interface RequestContext<F extends Record<string, FieldSpec> = Record<string, FieldSpec>> {
  state: SimState;
  cluster: ClusterState;
  method: Method;
  /** The path relative to its namespace (no query string), e.g. "sys/replication/dr/status". */
  path: string;
  /** The namespace the request is in: "" for root, else "team-a/". */
  namespace: string;
  params: Record<string, string>;
  query: Record<string, string>;
  body: Record<string, unknown>;
  fields: Fields<F>;
  /** The client token, when one was sent and is known to this cluster. */
  token: TokenEntry | null;
  now: number;
  /** Draw only once every check has passed: a refused request must draw nothing. */
  rng: Rng;
  /** Where a write sent here lands (replication's rule, given to the routing by the world). */
  landing: Landing;
}

/** Where a write lands: on a cluster (the one it was sent to, or the primary it is forwarded to), or refused. */
export type WriteLanding = { cluster: string } | { refuse: Refused };

/**
 * Where a write sent to a cluster lands. Performance replication decides it (a performance
 * secondary forwards writes of replicated data to its primary: replication/forwarding.ts); the world
 * gives that rule to the routing, so the areas that take writes ask the request for it.
 */
export interface Landing {
  /** A write of replicated configuration: sync, the plugin catalog, ACL policies, token roles, mounts. */
  configuration(state: SimState, cluster: ClusterState): WriteLanding;
  /** A KV write to `mount`. */
  write(state: SimState, cluster: ClusterState, mount: MountEntry): WriteLanding;
}

/** What a forwarded write's event records: the cluster it was sent to, when it landed elsewhere. */
export function forwardedFrom(sentTo: string, landed: string): { forwardedBy?: string } {
  return landed === sentTo ? {} : { forwardedBy: sentTo };
}

/** A handler's answer: a reply alone (reads, refusals), or events to append and the reply after them. */
export type Outcome = KernelOutcome<SimState, SimEvent>;

/** What a handler reads, before the fields are parsed (what the authorisation step sees). */
export type BaseContext = Omit<RequestContext, 'fields'>;

export type Endpoint<F extends Record<string, FieldSpec> = Record<string, FieldSpec>> = KernelEndpoint<BaseContext, AuthRule, Outcome, F, RequestContext<F>>;

/** A path of the spec's table (`:name` segments are parameters) and its methods. */
export type Route = KernelRoute<Endpoint<any>>;

/** Declares an endpoint with its field types carried through to the handler. */
export function endpoint<const F extends Record<string, FieldSpec>>(e: Endpoint<F>): Endpoint<F> {
  return e;
}

/** One row of an area's route table: method and path → summary, auth rule, fields and the decision. */
export interface Row {
  method: Method;
  path: string;
  endpoint: Endpoint<any>;
}

/** A row of a route table, with its field types carried through to the decision. */
export function row<const F extends Record<string, FieldSpec> = Record<string, FieldSpec>>(
  method: Method,
  path: string,
  e: Omit<Endpoint<F>, 'handle'> & { decide: (ctx: RequestContext<F>) => Outcome },
): Row {
  const { decide, ...declared } = e;
  return { method, path, endpoint: endpoint<F>({ ...declared, handle: decide }) };
}

/** The routes of a table's rows: one route per path, in the order the paths first appear, methods in row order. */
export function routesOf(rows: readonly Row[]): Route[] {
  const byPath = new Map<string, Route>();
  for (const r of rows) {
    let route = byPath.get(r.path);
    if (!route) byPath.set(r.path, (route = { pattern: r.path, methods: {} }));
    if (route.methods[r.method]) throw new Error(`${r.method} ${r.path} is in the table twice`);
    route.methods[r.method] = r.endpoint;
  }
  return [...byPath.values()];
}
