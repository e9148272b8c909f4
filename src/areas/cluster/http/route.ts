// What an endpoint declares: the authorisation it needs (one reusable step, not code per
// handler), its body fields, and the handler that turns a checked request into events and a reply.
import type { SimEvent } from '../events.js';
import type { Capability, ClusterState, SimState, TokenEntry } from '../state.js';
import type { Rng } from '../../../kernel/prng.js';
import type { FieldSpec, Fields } from '../../../kernel/http/fields.js';
import type { Method, Reply } from '../../../kernel/http/http.js';

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
   * such path at all, 404 `unsupported path` (secret sync, #13), before any other check.
   */
  enterpriseBuildOnly?: boolean;
  /** The path stays open on a DR secondary (status, the DR secondary's own endpoints). */
  openOnDrSecondary?: boolean;
}

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
}

/** A handler's answer: a reply alone (reads, refusals), or events to append and the reply after them. */
export type Outcome =
  | Reply
  | { events: SimEvent[]; reply: (after: SimState) => Reply }
  /** Work that cannot be done synchronously (OpenPGP encryption); only `World.sendAsync` accepts it. */
  | { later: () => Promise<Reply | { events: SimEvent[]; reply: (after: SimState) => Reply }> };

export interface Endpoint<F extends Record<string, FieldSpec> = Record<string, FieldSpec>> {
  /** In the spec's words, for narration: "enable DR replication as a primary". */
  summary: string;
  auth: AuthRule;
  fields?: F;
  /** The whole body is the payload (KV-v1 writes): no parameter is "unrecognized". */
  openBody?: boolean;
  /** `mount_type` of the envelope. */
  mountType?: string;
  handle(ctx: RequestContext<F>): Outcome;
}

/** A path of the spec's table (`:name` segments are parameters) and its methods. */
export interface Route {
  pattern: string;
  methods: Partial<Record<Method, Endpoint<any>>>;
}

/** Declares an endpoint with its field types carried through to the handler. */
export function endpoint<const F extends Record<string, FieldSpec>>(e: Endpoint<F>): Endpoint<F> {
  return e;
}
