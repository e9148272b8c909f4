// The cluster area's part of routing, which the world plugs into the kernel's router
// (src/kernel/http/router.ts): a crashed cluster answers nothing; a request goes to the namespace
// its header and path name (which must exist on the cluster), then to the `sys/` table (with the
// token store's fixed paths) or to the KV engine of the mount holding the path; the handler reads
// the cluster's state; and the one authorisation step (authorize.ts) checks the endpoint's rule
// against the cluster's licence, DR role, tokens and policies.
import type { Method, Reply } from '../../../kernel/http/http.js';
import { errors } from '../../../kernel/http/http.js';
import type { Location, Routing } from '../../../kernel/http/router.js';
import { isUp } from '../../../kernel/network.js';
import { hasOwn } from '../../../kernel/own.js';
import type { Rng } from '../../../kernel/prng.js';
import { asFolder, namespaceOfPath } from '../paths.js';
import type { ClusterState, MountType, SimState } from '../state.js';
import { authorize } from './authorize.js';
import { resolveToken } from '../tokens.js';
import { clusterRefusals } from '../refusals.js';
import { rejectsUncleanedPaths, tokenHeaderLimit } from '../version-rules.js';

/** A path segment `.` or `..`, or an empty one (`//`). */
const UNCLEANED = /(^|\/)\.\.?(\/|$)|\/\//;
import type { AuthRule, BaseContext, Endpoint, Landing, Route } from './route.js';

/** The routes a world serves: fixed `sys/` paths, and routes relative to a mount per mount type. */
export interface RouteTable {
  sys: Route[];
  mounts: Record<MountType, Route[]>;
  /** Where a write lands (replication's forwarding rule), handed to every request. */
  landing: Landing;
}

/** Where a request goes on a cluster: the kernel's location, and the namespace and full path it was found in. */
interface ClusterLocation extends Location<Endpoint<any>> {
  /** The namespace the request is in: "" for root, else "team-a/". */
  namespace: string;
  /** The path relative to its namespace. */
  rel: string;
  /** The path from the root namespace (what policies are written against). */
  full: string;
}

/** The cluster area's routing of one request on cluster `clusterName` of a world state. */
export function clusterRouting(state: SimState, clusterName: string, rng: Rng, table: RouteTable): Routing<BaseContext, AuthRule, Endpoint<any>, ClusterLocation> {
  const cluster: ClusterState = state.clusters.named(clusterName);
  return {
    unavailable: () => (isUp(state.network, clusterName) ? null : errors.clusterDown(clusterName)),

    locate(line, namespaceHeader): ClusterLocation | Reply {
      // From 2.0.0 (and 1.21.5, 1.20.10, 1.19.16) a path holding /../, /./ or // is refused.
      if (UNCLEANED.test(line.path) && rejectsUncleanedPaths(cluster.version)) return clusterRefusals.uncleanedPath(line.path);
      const headerNs = asFolder(namespaceHeader);
      if (headerNs !== '' && !hasOwn(cluster.storage.namespaces, headerNs)) return errors.noNamespace();
      const full = headerNs + line.path;
      const namespace = namespaceOfPath(full, Object.keys(cluster.storage.namespaces));
      const rel = full.slice(namespace.length);
      // `auth/token/` is the token store's fixed paths (lookup-self), served from the same table as `sys/`.
      if (rel === 'sys' || rel.startsWith('sys/') || rel.startsWith('auth/token/'))
        return { routes: table.sys, path: rel.replace(/\/+$/, ''), unmatched: errors.unsupportedPath, namespace, rel, full };
      let mount = null as ClusterState['storage']['mounts'][string] | null;
      const folder = full + '/';
      for (const m of Object.values(cluster.storage.mounts)) if (folder.startsWith(m.path) && (!mount || m.path.length > mount.path.length)) mount = m;
      // No mount holds the path: the mount was never created here, or never replicated to it.
      if (!mount) return { routes: [], path: '', unmatched: errors.noMount, namespace, rel, full };
      const remainder = full.length >= mount.path.length ? full.slice(mount.path.length) : '';
      return { routes: table.mounts[mount.type], path: remainder, unmatched: errors.unsupportedPath, params: { mount: mount.path }, namespace, rel, full };
    },

    context: (location, { method, params, query, body, token }): BaseContext => ({
      state,
      cluster,
      method,
      path: location.rel,
      namespace: location.namespace,
      params,
      query,
      body,
      token: resolveToken(cluster, token, state.now),
      now: state.now,
      rng,
      landing: table.landing,
    }),

    authorize(rule, ctx, location, token) {
      // From 2.0.0 a token header over the listener's max_token_header_size (8192 bytes) gets 431 before the token is looked at.
      const limit = tokenHeaderLimit(cluster.version);
      if (limit !== null && token !== undefined && Buffer.byteLength(token, 'utf8') > limit) return clusterRefusals.tokenHeaderTooLarge(limit);
      // The service checks a LIST against the path with a trailing slash (a policy on `x/*` lists `x/`).
      const authPath = ctx.method === 'LIST' && !location.full.endsWith('/') ? location.full + '/' : location.full;
      return authorize(rule, ctx, authPath, token);
    },
  };
}

export type { Method };
