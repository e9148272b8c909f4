// The router: from a client's request to an endpoint of the spec's path table (or a KV mount),
// through the one authorisation step and the field parser, to the handler. LIST is the method
// LIST or GET with `?list=true`. The router changes nothing: it returns the handler's outcome.
import { asFolder, namespaceOfPath } from '../cluster/paths.js';
import type { ClusterState, MountType, SimState } from '../cluster/state.js';
import { isUp } from '../world/network.js';
import type { Rng } from '../world/prng.js';
import { authorize } from './authorize.js';
import { parseFields } from './fields.js';
import { errors, METHODS, reply, type ApiRequest, type Method, type Reply } from './http.js';
import type { Endpoint, Outcome, RequestContext, Route } from './route.js';

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

function match(routes: Route[], path: string): { route: Route; params: Record<string, string> } | null {
  for (const { route, re, names } of compile(routes)) {
    const m = re.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    names.forEach((n, i) => (params[n] = decodeURIComponent(m[i + 1] ?? '')));
    return { route, params };
  }
  return null;
}

/** Routes one request on one cluster of a world state. */
export function dispatch(state: SimState, clusterName: string, req: ApiRequest, rng: Rng, routes: RouteTable): Dispatch {
  const cluster = state.clusters[clusterName];
  if (!isUp(state.network, clusterName)) return { outcome: errors.clusterDown(clusterName) };

  let body: Record<string, unknown> = {};
  if (req.body !== undefined && req.body !== null) {
    if (typeof req.body !== 'object' || Array.isArray(req.body)) return { outcome: errors.badRequest('failed to parse JSON input: the request body must be a JSON object') };
    body = req.body as Record<string, unknown>;
  }

  let raw = String(req.path ?? '').trim().replace(/^\/+/, '');
  if (raw.startsWith('v1/')) raw = raw.slice(3);
  const qAt = raw.indexOf('?');
  const query: Record<string, string> = {};
  if (qAt >= 0) {
    for (const [k, v] of new URLSearchParams(raw.slice(qAt + 1))) query[k] = v;
    raw = raw.slice(0, qAt);
  }
  let method = String(req.method ?? '').toUpperCase() as Method;
  if (!METHODS.includes(method)) return { outcome: errors.unsupportedOperation() };
  if (method === 'GET' && query.list === 'true') method = 'LIST';

  const headerNs = asFolder(req.namespace);
  if (headerNs !== '' && !(headerNs in cluster.storage.namespaces)) return { outcome: errors.unsupportedPath(), method };
  const full = headerNs + raw;
  const namespace = namespaceOfPath(full, Object.keys(cluster.storage.namespaces));
  const rel = full.slice(namespace.length);

  let found: { route: Route; params: Record<string, string> } | null = null;
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
    }
  }
  if (!found) return { outcome: errors.unsupportedPath(), method };
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
    token: req.token ? (cluster.storage.tokens[req.token] ?? null) : null,
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
