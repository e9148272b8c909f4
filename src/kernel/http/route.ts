// What an endpoint declares, for any area: its summary in the spec's words, the authorisation rule it
// needs (one reusable step, not code per handler: the rule's type and meaning are the area's, see
// `Routing.authorize`), its body fields, and the handler that turns a checked request into an
// outcome. A route is a path pattern of the spec's table and its methods. The kernel knows no area:
// the handler's context, the rule and the outcome are parameters.
import type { FieldSpec, Fields } from './fields.js';
import type { Method, Reply } from './http.js';

/** A handler's answer: a reply alone (reads, refusals), or events to append and the reply after them. */
export type Outcome<S, E> =
  | Reply
  | { events: E[]; reply: (after: S) => Reply }
  /** Work that cannot be done synchronously (OpenPGP encryption); only `World.sendAsync` accepts it. */
  | { later: () => Promise<Reply | { events: E[]; reply: (after: S) => Reply }> };

/**
 * An endpoint whose handler reads `Base` (what the router's area builds for every request) with
 * the parsed fields `F`; `Ctx` names that combination where the area has its own type for it.
 */
export interface Endpoint<Base, Rule, Out, F extends Record<string, FieldSpec> = Record<string, FieldSpec>, Ctx extends Base & { fields: Fields<F> } = Base & { fields: Fields<F> }> {
  /** In the spec's words, for narration: "enable DR replication as a primary". */
  summary: string;
  /** The authorisation the endpoint needs, checked by the area's authorisation step before the handler runs. */
  auth: Rule;
  fields?: F;
  /** The whole body is the payload (KV-v1 writes): no parameter is "unrecognized". */
  openBody?: boolean;
  /** `mount_type` of the envelope. */
  mountType?: string;
  /** Reads the request (it must change nothing) and answers: a reply, or events and the reply after them. */
  handle(ctx: Ctx): Out;
}

/** A path of the spec's table (`:name` segments are parameters, `*name` the rest) and its methods. */
export interface Route<Ep> {
  pattern: string;
  methods: Partial<Record<Method, Ep>>;
}
