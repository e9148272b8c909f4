// In the cluster area, not the kernel: routing reads the cluster's namespaces, mounts and seal state,
// and authorisation its tokens, policies and DR role (docs/architecture.md, "Departures").
// The router: from a client's request to an endpoint of the spec's path table (or a KV mount),
// through the one authorisation step and the field parser, to the handler. LIST is the method
// LIST or GET with `?list=true`. The router changes nothing: it returns the handler's outcome.
import { asFolder, namespaceOfPath, parseRequestLine } from '../../areas/cluster/paths.js';
import type { ClusterState, MountType, SimState } from '../../areas/cluster/state.js';
import { isUp } from '../network.js';
import { hasOwn, own, PROTO_NAME } from '../own.js';
import type { Rng } from '../prng.js';
import { authorize } from '../../areas/cluster/http/authorize.js';
import { parseFields } from './fields.js';
import { errors, METHODS, reply, type ApiRequest, type Method, type Reply } from './http.js';
import { bodyLimitProblem, DEFAULT_REQUEST_LIMITS, type RequestLimits } from './limits.js';
import type { Endpoint, Outcome, RequestContext, Route } from '../../areas/cluster/http/route.js';

/** The routes a world serves: fixed `sys/` paths, and routes relative to a mount per mount type. */
export interface RouteTable {
  sys: Route[];
  mounts: Record<MountType, Route[]>;
}

/** What the router found, for narration and history, beside the outcome. */
export interface Dispatch {
  outcome: Outcome;
  /** The endpoint's summary and pattern when a route matched. */
  summary?: string;
  pattern?: string;
  mountType?: string;
  method?: Method;
}

interface Compiled {
  route: Route;
  re: RegExp;
  names: string[];
}

const compiledCache = new WeakMap<Route[], Compiled[]>();

/** `a/:x/b` matches one segment for `:x`; `*rest` matches the remainder, slashes included, maybe empty. */
function compile(routes: Route[]): Compiled[] {
  let c = compiledCache.get(routes);
  if (!c) {
    c = routes.map((route) => {
      const names: string[] = [];
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
          return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        })
        .join('/');
      return { route, re: new RegExp('^' + src.replace(/\/\(\.\*\)$/, '(?:/(.*))?') + '$'), names };
    });
    compiledCache.set(routes, c);
  }
  return c;
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

function match(routes: Route[], path: string): { route: Route; params: Record<string, string> } | null {
  for (const { route, re, names } of compile(routes)) {
    const m = re.exec(path);
    if (!m) continue;
    // Route parameters by name; null-prototype, since a handler may look up any of its names.
    const params: Record<string, string> = Object.create(null);
    names.forEach((n, i) => (params[n] = decodeParam(m[i + 1] ?? '')));
    return { route, params };
  }
  return null;
}

/** Routes one request on one cluster of a world state. */
export function dispatch(state: SimState, clusterName: string, req: ApiRequest, rng: Rng, routes: RouteTable, limits: Readonly<RequestLimits> = DEFAULT_REQUEST_LIMITS): Dispatch {
  try {
    return route(state, clusterName, req, rng, routes, limits);
  } catch (e) {
    if (e instanceof Unroutable) return { outcome: e.reply };
    throw e;
  }
}

function route(state: SimState, clusterName: string, req: ApiRequest, rng: Rng, routes: RouteTable, limits: Readonly<RequestLimits>): Dispatch {
  const cluster = state.clusters[clusterName];
  if (!isUp(state.network, clusterName)) return { outcome: errors.clusterDown(clusterName) };

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

  // The request line, parsed in one place (paths.ts); the query is null-prototype.
  const { path: raw, query, method: asked } = parseRequestLine(req.method, req.path);
  const method = asked as Method;
  if (!METHODS.includes(method)) return { outcome: errors.unsupportedOperation() };

  const headerNs = asFolder(req.namespace);
  if (headerNs !== '' && !hasOwn(cluster.storage.namespaces, headerNs)) return { outcome: errors.noNamespace(), method };
  const full = headerNs + raw;
  const namespace = namespaceOfPath(full, Object.keys(cluster.storage.namespaces));
  const rel = full.slice(namespace.length);

  let found: { route: Route; params: Record<string, string> } | null = null;
  // Which refusal an unmatched path gets: no mount holds it, or no endpoint under its mount or sys/.
  let unmatched = errors.unsupportedPath;
  let fullPath = full;
  // `auth/token/` is the token store's fixed paths (lookup-self), served from the same table as `sys/`.
  if (rel === 'sys' || rel.startsWith('sys/') || rel.startsWith('auth/token/')) {
    found = match(routes.sys, rel.replace(/\/+$/, ''));
  } else {
    let mount = null as ClusterState['storage']['mounts'][string] | null;
    for (const m of Object.values(cluster.storage.mounts)) if ((full + '/').startsWith(m.path) && (!mount || m.path.length > mount.path.length)) mount = m;
    if (mount) {
      const remainder = full.length >= mount.path.length ? full.slice(mount.path.length) : '';
      found = match(routes.mounts[mount.type], remainder);
      if (found) found.params.mount = mount.path;
      fullPath = full;
    } else unmatched = errors.noMount;
  }
  if (!found) return { outcome: unmatched(), method };
  const ep: Endpoint | undefined = found.route.methods[method] ?? (method === 'PUT' ? found.route.methods.POST : undefined);
  if (!ep) return { outcome: errors.unsupportedOperation(), pattern: found.route.pattern, method };

  const base: Omit<RequestContext, 'fields'> = {
    state,
    cluster,
    method,
    path: rel,
    namespace,
    params: found.params,
    query,
    body,
    token: req.token ? (own(cluster.storage.tokens, req.token) ?? null) : null,
    now: state.now,
    rng,
  };
  const meta = { summary: ep.summary, pattern: found.route.pattern, mountType: ep.mountType, method };
  // The service checks a LIST against the path with a trailing slash (a policy on `x/*` lists `x/`).
  const authPath = method === 'LIST' && !fullPath.endsWith('/') ? fullPath + '/' : fullPath;
  const refusal = authorize(ep.auth, base, authPath, req.token);
  if (refusal) return { outcome: refusal, ...meta };

  const parsed = parseFields(ep.fields ?? {}, body);
  if (!parsed.ok) return { outcome: parsed.reply, ...meta };
  const outcome = ep.handle({ ...base, fields: parsed.fields });
  return { outcome: ep.openBody ? outcome : withWarnings(outcome, parsed.warnings), ...meta };
}

/** Adds the field parser's warnings (ignored parameters) to a successful reply. */
function withWarnings(outcome: Outcome, warnings: string[]): Outcome {
  if (warnings.length === 0) return outcome;
  const add = (r: Reply): Reply => {
    if (r.kind === 'data') return { ...r, warnings: [...(r.warnings ?? []), ...warnings] };
    if (r.kind === 'empty') return { kind: 'data', data: null, warnings };
    return r;
  };
  if ('kind' in outcome) return add(outcome);
  if ('later' in outcome) return { later: async () => withWarnings(await outcome.later(), warnings) as Exclude<Outcome, { later: unknown }> };
  return { events: outcome.events, reply: (after) => add(outcome.reply(after)) };
}

/** Whether a reply is a success. */
export function succeeded(r: Reply): boolean {
  return r.kind !== 'error';
}

export { reply };
