// Minimal KV-v1 and KV-v2 endpoints (write, read, delete, list), so that data flows through
// replication can be seen from the API, as an operator would check them.
import type { SimEvent } from './events.js';
import { writeLanding } from '../replication/forwarding.js';
import { liveVersion } from './reducers.js';
import type { ClusterState, KvRecord, MountEntry, SimState } from './state.js';
import { rfc3339 } from '../../kernel/clock.js';
import { own } from '../../kernel/own.js';
import { errors, reply, type Reply } from '../../kernel/http/http.js';
import { endpoint, type Outcome, type RequestContext, type Route } from './http/route.js';
import { clusterRefusals } from './refusals.js';
import { keyEntries, recordAt, type KeyMap } from './keymap.js';

function mountOf(ctx: RequestContext): MountEntry {
  return ctx.cluster.storage.mounts[ctx.params.mount];
}

/** The record of a key: the key comes from the request path, so own entries only (`toString` is a key like any other). */
function recordOf(ctx: RequestContext, key: string): KvRecord | undefined {
  return recordAt(own(ctx.cluster.storage.kv, ctx.params.mount), key);
}

/** create for a key that does not exist yet, update for one that does (the service's existence check). */
function createOrUpdate(ctx: RequestContext) {
  return liveVersion(recordOf(ctx, ctx.params.key)) ? ('update' as const) : ('create' as const);
}

function versionMetadata(rec: KvRecord, version: number) {
  const v = rec.versions[version];
  return {
    created_time: rfc3339(v.createdAt),
    custom_metadata: null,
    deletion_time: v.deletedAt === null ? '' : rfc3339(v.deletedAt),
    destroyed: v.destroyed,
    version,
  };
}

/** The immediate children of a folder: keys, and sub-folders with a trailing slash. */
function listChildren(keys: KeyMap | undefined, folder: string): string[] {
  const prefix = folder === '' || folder.endsWith('/') ? folder : folder + '/';
  const out = new Set<string>();
  for (const [k, rec] of keyEntries(keys)) {
    if (!k.startsWith(prefix)) continue;
    if (!Object.values(rec.versions).some((v) => v.deletedAt === null && !v.destroyed)) continue;
    const rest = k.slice(prefix.length);
    const slash = rest.indexOf('/');
    out.add(slash >= 0 ? rest.slice(0, slash + 1) : rest);
  }
  return [...out].sort();
}

/** A write that lands on another cluster was forwarded there by the one it was sent to: the bus carries it (src/kernel/bus.ts). */
function forwarded(ctx: RequestContext, landed: string): { forwardedBy?: string } {
  return landed === ctx.cluster.name ? {} : { forwardedBy: ctx.cluster.name };
}

function write(ctx: RequestContext, data: Record<string, unknown>, answer: (after: SimState, landed: string) => Reply): Outcome {
  const target = writeLanding(ctx.state, ctx.cluster, mountOf(ctx));
  if ('refuse' in target) return target.refuse;
  const event: SimEvent = { type: 'kv-written', at: ctx.now, cluster: target.cluster, mount: ctx.params.mount, key: ctx.params.key, data, ...forwarded(ctx, target.cluster) };
  return { events: [event], reply: (after) => answer(after, target.cluster) };
}

function remove(ctx: RequestContext, scope: 'latest' | 'all'): Outcome {
  const target = writeLanding(ctx.state, ctx.cluster, mountOf(ctx));
  if ('refuse' in target) return target.refuse;
  if (!recordOf(ctx, ctx.params.key)) return reply.empty();
  return { events: [{ type: 'kv-deleted', at: ctx.now, cluster: target.cluster, mount: ctx.params.mount, key: ctx.params.key, scope, ...forwarded(ctx, target.cluster) }], reply: () => reply.empty() };
}

function list(ctx: RequestContext): Reply {
  const keys = listChildren(own(ctx.cluster.storage.kv, ctx.params.mount), ctx.params.key ?? '');
  return keys.length ? reply.data({ keys }, { mountType: 'kv' }) : errors.notFound();
}

const missingKey = (ctx: RequestContext): Reply | null => (ctx.params.key ? null : errors.unsupportedPath());

const kvV2: Route[] = [
  {
    pattern: 'data/*key',
    methods: {
      GET: endpoint({
        summary: 'read a KV-v2 secret',
        auth: { token: 'client' },
        mountType: 'kv',
        handle: (ctx) => {
          const rec = recordOf(ctx, ctx.params.key);
          const live = liveVersion(rec);
          if (!rec || !live) return errors.notFound();
          return reply.data({ data: live.data, metadata: versionMetadata(rec, live.version) }, { mountType: 'kv' });
        },
      }),
      POST: endpoint({
        summary: 'write a KV-v2 secret',
        auth: { token: 'client', capability: createOrUpdate },
        fields: { data: { type: 'map', required: 'no data provided' }, options: { type: 'map' } },
        mountType: 'kv',
        handle: (ctx) =>
          missingKey(ctx) ??
          write(ctx, ctx.fields.data, (after, landed) => {
            const rec = recordAt(after.clusters[landed].storage.kv[ctx.params.mount], ctx.params.key) as KvRecord;
            return reply.data(versionMetadata(rec, rec.current), { mountType: 'kv' });
          }),
      }),
      DELETE: endpoint({ summary: 'delete the latest version of a KV-v2 secret', auth: { token: 'client' }, handle: (ctx) => missingKey(ctx) ?? remove(ctx, 'latest') }),
    },
  },
  {
    pattern: 'metadata/*key',
    methods: {
      LIST: endpoint({ summary: 'list KV-v2 keys', auth: { token: 'client' }, handle: list }),
      GET: endpoint({
        summary: 'read KV-v2 metadata',
        auth: { token: 'client' },
        handle: (ctx) => {
          const rec = recordOf(ctx, ctx.params.key);
          if (!rec) return errors.notFound();
          const versions: Record<string, unknown> = {};
          for (const n of Object.keys(rec.versions)) {
            const { created_time, deletion_time, destroyed } = versionMetadata(rec, Number(n));
            versions[n] = { created_time, deletion_time, destroyed };
          }
          return reply.data(
            { cas_required: false, created_time: rfc3339(rec.createdAt), current_version: rec.current, custom_metadata: null, delete_version_after: '0s', max_versions: 0, oldest_version: 0, updated_time: rfc3339(rec.updatedAt), versions },
            { mountType: 'kv' },
          );
        },
      }),
      DELETE: endpoint({ summary: 'delete a KV-v2 secret and all its versions', auth: { token: 'client' }, handle: (ctx) => missingKey(ctx) ?? remove(ctx, 'all') }),
    },
  },
];

const kvV1: Route[] = [
  {
    pattern: '*key',
    methods: {
      GET: endpoint({
        summary: 'read a KV-v1 secret',
        auth: { token: 'client' },
        handle: (ctx) => {
          const live = liveVersion(recordOf(ctx, ctx.params.key));
          return live ? reply.data(live.data, { mountType: 'kv' }) : errors.notFound();
        },
      }),
      POST: endpoint({
        summary: 'write a KV-v1 secret',
        auth: { token: 'client', capability: createOrUpdate },
        openBody: true,
        handle: (ctx) => {
          if (!ctx.params.key) return errors.unsupportedPath();
          if (Object.keys(ctx.body).length === 0) return clusterRefusals.missingData();
          return write(ctx, ctx.body, () => reply.empty());
        },
      }),
      DELETE: endpoint({ summary: 'delete a KV-v1 secret', auth: { token: 'client' }, handle: (ctx) => missingKey(ctx) ?? remove(ctx, 'all') }),
      LIST: endpoint({ summary: 'list KV-v1 keys', auth: { token: 'client' }, handle: list }),
    },
  },
];

export const kvRoutes = { 'kv-v1': kvV1, 'kv-v2': kvV2 };
