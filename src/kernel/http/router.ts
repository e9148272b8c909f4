// The router, knowing no area: from a client's request to an endpoint of a route table, through
// the area's authorisation step and the field parser, to the handler. It checks what the service's
// HTTP layer checks before anything else (the listener's body bounds, a JSON object body, text
// headers, a known method), matches the path in the table the area's routing chose (`:name`
// parameters %-decoded), picks the method's endpoint (405 otherwise), asks the area's
// authorisation step (`Routing.authorize`), parses the fields and calls the handler. Refusals are
// rendered from the registry (refusal.ts). The router changes nothing: it returns the outcome.
//
// The area plugs in what reads its state (`Routing`): whether the node is up, where a request line
// goes (the cluster area: namespaces, `sys/` or a KV mount), what a handler reads, and the
// authorisation rules (tokens, policies, the DR role). src/world.ts plugs in the cluster area's
// (src/areas/core/http/routing.ts).
import { PROTO_NAME } from '../own.js';
import { parseFields } from './fields.js';
import { errors, METHODS, type ApiRequest, type Method, type Reply } from './http.js';
import { bodyLimitProblem, DEFAULT_REQUEST_LIMITS, type RequestLimits } from './limits.js';
import { parseRequestLine, type RequestLine } from './request-line.js';
import type { Endpoint, Outcome, Route } from './route.js';

/** Any endpoint, as the router handles it. */
type AnyEndpoint<Ctx, Rule> = Endpoint<Ctx, Rule, Outcome<any, any>, any, any>;

/** Where a request goes, as the area's routing found it: the table, the path within it, and the refusal when nothing there matches. */
export interface Location<Ep> {
  routes: readonly Route<Ep>[];
  /** The path to match in `routes`. */
  path: string;
  /** What a path no route of the table matches is refused with. */
  unmatched: () => Reply;
  /** Parameters the location gives every handler (the mount a KV path is under). */
  params?: Readonly<Record<string, string>>;
}

/** What an area gives the router for one request: the steps that read its state. */
export interface Routing<Ctx, Rule, Ep extends AnyEndpoint<Ctx, Rule>, L extends Location<Ep> = Location<Ep>> {
  /** A refusal before the request is read at all (the node is down), or null. */
  unavailable(): Reply | null;
  /** Where the request line goes (the namespace header as sent); or a refusal (a namespace that does not exist). */
  locate(line: RequestLine & { method: Method }, namespace: string | undefined): L | Reply;
  /** What the handler reads once a route matched (the fields are added after authorisation). */
  context(location: L, request: { method: Method; params: Record<string, string>; query: Record<string, string>; body: Record<string, unknown>; token: string | undefined }): Ctx;
  /** The one authorisation step, driven by the endpoint's rule: null when allowed, else the refusal. */
  authorize(rule: Rule, ctx: Ctx, location: L, token: string | undefined): Reply | null;
}

/** What the router found, for narration and history, beside the outcome. */
export interface Dispatch<Out> {
  outcome: Out | Reply;
  /** The endpoint's summary and pattern when a route matched. */
  summary?: string;
  pattern?: string;
  mountType?: string;
  method?: Method;
}

interface Compiled {
  route: Route<any>;
  /** The route's place in its table: the first route that matches a path wins. */
  index: number;
  re: RegExp;
  names: string[];
  /** The literal text every path it matches starts with (up to its first parameter). */
  prefix: string;
}

/**
 * A table made ready for matching. A pattern without parameters matches one path exactly, so
 * those are found by the path itself (most of the `sys/` table); the others are tried in table
 * order, each only when the path starts with its literal prefix. A path matching an exact route
 * and a parametric one earlier in the table still goes to the earlier one, as a walk of the
 * whole table in order would.
 */
interface Table {
  exact: Map<string, Compiled>;
  parametric: Compiled[];
}

const compiledCache = new WeakMap<readonly Route<unknown>[], Table>();

/** `a/:x/b` matches one segment for `:x`; `*rest` matches the remainder, slashes included, maybe empty. */
function compile(routes: readonly Route<unknown>[]): Table {
  let t = compiledCache.get(routes);
  if (!t) {
    t = { exact: new Map(), parametric: [] };
    for (const [index, route] of routes.entries()) {
      const names: string[] = [];
      const literal: string[] = [];
      const src = route.pattern
        .split('/')
        .map((seg) => {
          if (seg.startsWith(':')) {
            names.push(seg.slice(1));
            return '([^/]+)';
          }
          if (seg.startsWith('*')) {
            names.push(seg.slice(1));
            return '(.*)';
          }
          if (names.length === 0) literal.push(seg);
          return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        })
        .join('/');
      const compiled = { route, index, re: new RegExp('^' + src.replace(/\/\(\.\*\)$/, '(?:/(.*))?') + '$'), names, prefix: literal.join('/') };
      if (names.length > 0) t.parametric.push(compiled);
      // The first of two identical patterns is the one a walk in order finds.
      else if (!t.exact.has(route.pattern)) t.exact.set(route.pattern, compiled);
    }
    compiledCache.set(routes, t);
  }
  return t;
}

/** A path that cannot be routed: the reply says why. */
class Unroutable {
  constructor(readonly reply: Reply) {}
}

/**
 * A path parameter, %-decoded. A malformed escape is the client's error: the service's HTTP layer
 * (Go's net/url) refuses it with `invalid URL escape "%ZZ"`; here it is a 400 in the error format
 * (it threw a URIError, and `replsim run` printed "internal error"). A parameter naming
 * `__proto__` cannot be stored as an entry of the state's plain objects (see world/own.ts): it is
 * refused the same way, in simulator wording.
 */
function decodeParam(raw: string): string {
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    // Go names the first `%` not followed by two hex digits, with up to two characters after it.
    const bad = /%(?![0-9a-fA-F]{2})[^]{0,2}/.exec(raw)?.[0];
    // Every escape well formed but the bytes are not UTF-8 (`%C0%AF`): Go would pass the bytes on;
    // replsim's names are text, so it refuses them (simulator wording).
    throw new Unroutable(errors.badUrlEscape(bad !== undefined ? `invalid URL escape ${JSON.stringify(bad)}` : `invalid URL escape: ${JSON.stringify(raw)} does not decode to UTF-8 text`));
  }
  if (value === PROTO_NAME) throw new Unroutable(errors.forbiddenName());
  return value;
}

function match<Ep>(routes: readonly Route<Ep>[], path: string): { route: Route<Ep>; params: Record<string, string> } | null {
  const { exact, parametric } = compile(routes);
  const literal = exact.get(path);
  const before = literal ? literal.index : Infinity;
  for (const { route, index, re, names, prefix } of parametric) {
    if (index > before) break;
    if (!path.startsWith(prefix)) continue;
    const m = re.exec(path);
    if (!m) continue;
    // Route parameters by name; null-prototype, since a handler may look up any of its names.
    const params: Record<string, string> = Object.create(null);
    names.forEach((n, i) => (params[n] = decodeParam(m[i + 1] ?? '')));
    return { route, params };
  }
  return literal ? { route: literal.route, params: Object.create(null) } : null;
}

function isMethod(m: string): m is Method {
  return (METHODS as readonly string[]).includes(m);
}

/** Routes one request through an area's routing. */
export function dispatch<Ctx, Rule, Ep extends AnyEndpoint<Ctx, Rule>, L extends Location<Ep>>(
  routing: Routing<Ctx, Rule, Ep, L>,
  req: ApiRequest,
  limits: Readonly<RequestLimits> = DEFAULT_REQUEST_LIMITS,
): Dispatch<ReturnType<Ep['handle']>> {
  try {
    return route(routing, req, limits);
  } catch (e) {
    if (e instanceof Unroutable) return { outcome: e.reply };
    throw e;
  }
}

function route<Ctx, Rule, Ep extends AnyEndpoint<Ctx, Rule>, L extends Location<Ep>>(routing: Routing<Ctx, Rule, Ep, L>, req: ApiRequest, limits: Readonly<RequestLimits>): Dispatch<ReturnType<Ep['handle']>> {
  const down = routing.unavailable();
  if (down) return { outcome: down };

  // The listener's bounds come before anything else reads the body.
  const tooBig = bodyLimitProblem(req.body ?? null, limits);
  if (tooBig) return { outcome: errors.badJson(tooBig) };
  let body: Record<string, unknown> = {};
  if (req.body !== undefined && req.body !== null) {
    if (typeof req.body !== 'object' || Array.isArray(req.body)) return { outcome: errors.badJson('the request body must be a JSON object') };
    body = req.body as Record<string, unknown>;
  }
  // Headers are text (null or undefined: none); a caller of `world.request` may pass anything. Simulator wording.
  if (req.token != null && typeof req.token !== 'string') return { outcome: errors.badHeader('client token (X-Vault-Token)') };
  if (req.namespace != null && typeof req.namespace !== 'string') return { outcome: errors.badHeader('namespace (X-Vault-Namespace)') };

  // The request line, parsed in one place (request-line.ts); the query is null-prototype.
  const line = parseRequestLine(req.method, req.path);
  if (!isMethod(line.method)) return { outcome: errors.unsupportedOperation() };
  const method = line.method;

  const location = routing.locate(line as RequestLine & { method: Method }, req.namespace ?? undefined);
  if (!('routes' in location)) return { outcome: location, method };
  const found = match(location.routes, location.path);
  if (!found) return { outcome: location.unmatched(), method };
  if (location.params) Object.assign(found.params, location.params);
  const ep: Ep | undefined = found.route.methods[method] ?? (method === 'PUT' ? found.route.methods.POST : undefined);
  if (!ep) return { outcome: errors.unsupportedOperation(), pattern: found.route.pattern, method };

  const token = req.token ?? undefined;
  const ctx = routing.context(location, { method, params: found.params, query: line.query, body, token });
  // What the router found, with the outcome (built whole: a spread of it into each answer was slower).
  const answer = (outcome: ReturnType<Ep['handle']> | Reply): Dispatch<ReturnType<Ep['handle']>> => ({ outcome, summary: ep.summary, pattern: found.route.pattern, mountType: ep.mountType, method });
  const refusal = routing.authorize(ep.auth, ctx, location, token);
  if (refusal) return answer(refusal);

  const parsed = parseFields(ep.fields ?? {}, body);
  if (!parsed.ok) return answer(parsed.reply);
  const outcome = ep.handle(withFields(ctx, parsed.fields) as Parameters<Ep['handle']>[0]) as ReturnType<Ep['handle']>;
  return answer(ep.openBody ? outcome : withWarnings(outcome, parsed.warnings));
}

/**
 * The handler's context: the routing's with the parsed fields. Set on the routing's object when it
 * may be (it is made for this request and nothing else holds it): a copy of its dozen fields cost
 * more than a microsecond a request, most of the router's own time on a KV write.
 */
function withFields<Ctx>(ctx: Ctx, fields: unknown): Ctx & { fields: unknown } {
  if (!Object.isExtensible(ctx)) return { ...ctx, fields };
  const full = ctx as Ctx & { fields: unknown };
  full.fields = fields;
  return full;
}

/** Adds the field parser's warnings (ignored parameters) to a successful reply. */
function withWarnings<O extends Outcome<any, any>>(outcome: O, warnings: string[]): O {
  if (warnings.length === 0) return outcome;
  const add = (r: Reply): Reply => {
    if (r.kind === 'data') return { ...r, warnings: [...(r.warnings ?? []), ...warnings] };
    if (r.kind === 'empty') return { kind: 'data', data: null, warnings };
    return r;
  };
  const o = outcome as Outcome<unknown, unknown>;
  if ('kind' in o) return add(o) as O;
  if ('later' in o) return { later: async () => withWarnings(await o.later(), warnings) } as O;
  return { events: o.events, reply: (after: unknown) => add(o.reply(after)) } as O;
}
