// What an operator's session calls besides replication: `sys/leader` (which node leads; answered by
// the service's HTTP layer on every node, a DR secondary included) and `sys/mounts` (`vault secrets
// enable` / `disable` / `list`). A simulated cluster is one active node of integrated storage, so
// it always leads. Mounts are the KV engines replsim simulates (kv version 1 and 2); another engine
// type answers 501 with that reason.
import { rfc3339 } from '../../kernel/clock.js';
import { errors, reply } from '../../kernel/http/http.js';
import { hasOwn } from '../../kernel/own.js';
import { endpoint, type Outcome, type RequestContext, type Route } from '../core/http/route.js';
import { asFolder } from '../core/paths.js';
import { clusterRefusals } from '../core/refusals.js';
import type { MountEntry, MountType } from '../core/state.js';

const leaderRoute: Route = {
  pattern: 'sys/leader',
  methods: {
    GET: endpoint({
      summary: 'read which node leads the cluster',
      auth: { token: 'none', openOnDrSecondary: true },
      handle: (ctx) => {
        const c = ctx.cluster;
        return reply.bare({
          ha_enabled: true,
          is_self: true,
          active_time: rfc3339(0),
          leader_address: c.apiAddr,
          leader_cluster_address: c.clusterAddr,
          performance_standby: false,
          performance_standby_last_remote_wal: 0,
          last_wal: c.wal.last,
          // One node: the raft log is what the replicated WAL counts (simulator choice).
          raft_committed_index: c.wal.last,
          raft_applied_index: c.wal.last,
        });
      },
    }),
  },
};

function mountView(m: MountEntry) {
  return {
    accessor: m.accessor,
    config: { default_lease_ttl: 0, max_lease_ttl: 0, force_no_cache: false, ...m.config },
    deprecation_status: 'supported',
    description: m.description ?? '',
    external_entropy_access: m.externalEntropyAccess ?? false,
    local: m.local,
    options: m.options ?? { version: m.type === 'kv-v2' ? '2' : '1' },
    plugin_version: m.pluginVersion ?? '',
    running_plugin_version: '',
    running_sha256: '',
    seal_wrap: m.sealWrap ?? false,
    type: 'kv',
    uuid: m.uuid,
  };
}

/** The mount a path names in the request's namespace ("secret", "secret/"). */
const mountPath = (ctx: RequestContext) => ctx.namespace + asFolder(ctx.params.path);

const enableFields = {
  type: { type: 'string', default: '' },
  description: { type: 'string', default: '' },
  config: { type: 'map', default: {} },
  options: { type: 'map', default: {} },
  local: { type: 'bool', default: false },
  seal_wrap: { type: 'bool', default: false },
  external_entropy_access: { type: 'bool', default: false },
  plugin_name: { type: 'string', default: '' },
  plugin_version: { type: 'string', default: '' },
} as const;

/** kv, kv-v1 and kv-v2, with `options.version` choosing between the two for `kv` (the service's default: 1). */
function kvType(type: string, options: Record<string, unknown>): MountType | null {
  const t = type.trim().toLowerCase();
  if (t === 'kv-v2') return 'kv-v2';
  if (t === 'kv-v1') return 'kv-v1';
  if (t !== 'kv') return null;
  return String(hasOwn(options, 'version') ? options.version : '1') === '2' ? 'kv-v2' : 'kv-v1';
}

function enable(ctx: RequestContext<typeof enableFields>): Outcome {
  const f = ctx.fields;
  const type = f.plugin_name !== '' ? f.plugin_name : f.type;
  if (type.trim() === '') return clusterRefusals.mountTypeMissing();
  const kind = kvType(type, f.options);
  if (!kind) return errors.notImplemented(`secrets engine type ${JSON.stringify(type)} (replsim simulates kv version 1 and 2)`);
  const path = mountPath(ctx);
  const landingAt = f.local ? { cluster: ctx.cluster.name } : ctx.landing.configuration(ctx.state, ctx.cluster);
  if ('refuse' in landingAt) return landingAt.refuse;
  const target = ctx.state.clusters.named(landingAt.cluster);
  for (const m of Object.keys(target.storage.mounts)) if (path.startsWith(m) || m.startsWith(path)) return clusterRefusals.mountInUse(m);
  // Every check passed: draw the mount's ids now.
  const mount: MountEntry = {
    path,
    type: kind,
    local: f.local,
    accessor: 'kv_' + Buffer.from(ctx.rng.bytes(4)).toString('hex'),
    uuid: ctx.rng.uuid(),
    namespace: ctx.namespace,
    description: f.description,
    config: f.config,
    options: { ...f.options, version: kind === 'kv-v2' ? '2' : '1' },
    sealWrap: f.seal_wrap,
    externalEntropyAccess: f.external_entropy_access,
    pluginVersion: f.plugin_version,
  };
  return { events: [{ type: 'mount-enabled', at: ctx.now, cluster: target.name, mount }], reply: () => reply.empty() };
}

function disable(ctx: RequestContext): Outcome {
  const path = mountPath(ctx);
  const m = ctx.cluster.storage.mounts[path];
  // Disabling a path nothing is mounted at succeeds and changes nothing, as on the service.
  if (!m || !hasOwn(ctx.cluster.storage.mounts, path)) return reply.empty();
  const landingAt = m.local ? { cluster: ctx.cluster.name } : ctx.landing.configuration(ctx.state, ctx.cluster);
  if ('refuse' in landingAt) return landingAt.refuse;
  if (!hasOwn(ctx.state.clusters.named(landingAt.cluster).storage.mounts, path)) return reply.empty();
  return { events: [{ type: 'mount-disabled', at: ctx.now, cluster: landingAt.cluster, mount: path }], reply: () => reply.empty() };
}

function readOne(ctx: RequestContext): Outcome {
  const path = mountPath(ctx);
  if (!hasOwn(ctx.cluster.storage.mounts, path)) return clusterRefusals.noMountAt(path);
  return reply.data(mountView(ctx.cluster.storage.mounts[path]));
}

function list(ctx: RequestContext): Outcome {
  const out: Record<string, unknown> = {};
  // Sorted by path: the order a cluster's mounts were made in is not kept through a saved history (canonical JSON sorts keys).
  for (const [path, m] of Object.entries(ctx.cluster.storage.mounts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) if (m.namespace === ctx.namespace) Object.defineProperty(out, path.slice(ctx.namespace.length), { value: mountView(m), enumerable: true, writable: true, configurable: true });
  return reply.data(out);
}

const mountAuth = { token: 'client' as const };

/**
 * `sys/config/state/sanitized`: the server's configuration without secrets. replsim reports what it
 * simulates of it; `enable_unauthenticated_access` is there only when set, as on the service.
 */
const sanitizedConfigRoute: Route = {
  pattern: 'sys/config/state/sanitized',
  methods: {
    GET: endpoint({
      summary: 'read the server configuration (sanitized)',
      auth: { token: 'client', sudo: true },
      handle: (ctx) => {
        const c = ctx.cluster;
        const data: Record<string, unknown> = { api_addr: c.apiAddr, cluster_addr: c.clusterAddr, storage: { type: 'raft' } };
        if (c.serverConfig) data.enable_unauthenticated_access = c.serverConfig.enableUnauthenticatedAccess;
        return reply.data(data);
      },
    }),
  },
};

export const operatorRoutes: Route[] = [
  leaderRoute,
  sanitizedConfigRoute,
  { pattern: 'sys/mounts', methods: { GET: endpoint({ summary: 'list the secrets engines', auth: { ...mountAuth, capability: 'read' }, handle: list }) } },
  {
    pattern: 'sys/mounts/*path',
    methods: {
      GET: endpoint({ summary: 'read a secrets engine', auth: mountAuth, handle: readOne }),
      POST: endpoint({ summary: 'enable a secrets engine (kv version 1 or 2)', auth: mountAuth, fields: enableFields, handle: enable }),
      DELETE: endpoint({ summary: 'disable a secrets engine (its data is gone)', auth: mountAuth, handle: disable }),
    },
  },
];

