// KV-v1 and KV-v2 endpoints, so that data flows through replication can be seen from the API, as
// an operator would check them: write, read, delete, list; for KV-v2 also the mount's `config`, each
// key's `metadata`, check-and-set and `max_versions` (the service's hashicorp/vault-plugin-secrets-kv,
// path_config.go, path_metadata.go, path_data.go; what was chosen: src/areas/core/README.md).
import type { SimEvent } from '../core/events.js';
import type { KvMountConfig, KvRecord, MountEntry, SimState } from '../core/state.js';
import { rfc3339 } from '../../kernel/clock.js';
import { own } from '../../kernel/own.js';
import { errors, reply, type Reply } from '../../kernel/http/http.js';
import { parseFields } from '../../kernel/http/fields.js';
import { hasOwn } from '../../kernel/own.js';
import { liveVersion, versionAt, versionEntries } from '../core/versions.js';
import { forwardedFrom, endpoint, type Outcome, type RequestContext, type Route } from '../core/http/route.js';
import { notBuilt } from '../core/http/not-built.js';
import { clusterRefusals } from '../core/refusals.js';
import { keysUnder, recordAt, type KeyMap } from '../core/keymap.js';

function mountOf(ctx: RequestContext): MountEntry {
  return ctx.cluster.storage.mounts[ctx.params.mount];
}

/** The record of a key: the key comes from the request path, so own entries only (`toString` is a key like any other). */
function recordOf(ctx: RequestContext, key: string): KvRecord | undefined {
  return recordAt(own(ctx.cluster.storage.kv, ctx.params.mount), key);
}

/** create for a key with no metadata yet, update for one with (the service's metadataExistenceCheck). */
function metadataCreateOrUpdate(ctx: RequestContext) {
  return recordOf(ctx, ctx.params.key) ? ('update' as const) : ('create' as const);
}

/** create for a key that does not exist yet, update for one that does (the service's existence check). */
function createOrUpdate(ctx: RequestContext) {
  return liveVersion(recordOf(ctx, ctx.params.key)) ? ('update' as const) : ('create' as const);
}

function versionMetadata(rec: KvRecord, version: number) {
  const v = versionAt(rec, version)!;
  return {
    created_time: rfc3339(v.createdAt),
    custom_metadata: rec.customMetadata ?? null,
    deletion_time: v.deletedAt === null ? '' : rfc3339(v.deletedAt),
    destroyed: v.destroyed,
    version,
  };
}

/**
 * The immediate children of a folder: keys (those `listed` lets through), and sub-folders with a
 * trailing slash (always, as the service lists its storage's folders).
 */
function listChildren(keys: KeyMap | undefined, folder: string, listed: (rec: KvRecord) => boolean): string[] {
  const prefix = folder === '' || folder.endsWith('/') ? folder : folder + '/';
  const out = new Set<string>();
  for (const [k, rec] of keysUnder(keys, prefix)) {
    const rest = k.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash >= 0) out.add(rest.slice(0, slash + 1));
    else if (listed(rec)) out.add(rest);
  }
  return [...out].sort();
}

/** A write that lands on another cluster was forwarded there by the one it was sent to: the bus carries it (src/kernel/bus.ts). */
function forwarded(ctx: RequestContext, landed: string): { forwardedBy?: string } {
  return forwardedFrom(ctx.cluster.name, landed);
}

function write(ctx: RequestContext, data: Record<string, unknown>, answer: (after: SimState, landed: string) => Reply, options?: Record<string, unknown>): Outcome {
  const target = ctx.landing.write(ctx.state, ctx.cluster, mountOf(ctx));
  if ('refuse' in target) return target.refuse;
  // Check-and-set is checked where the write lands (a performance secondary forwards it to its primary).
  if (options) {
    const landed = ctx.state.clusters.named(target.cluster);
    const refused = checkAndSet(options, landed.storage.mounts[ctx.params.mount], recordAt(own(landed.storage.kv, ctx.params.mount), ctx.params.key));
    if (refused) return refused;
  }
  const event: SimEvent = { type: 'kv-written', at: ctx.now, cluster: target.cluster, mount: ctx.params.mount, key: ctx.params.key, data, ...forwarded(ctx, target.cluster) };
  return { events: [event], reply: (after) => answer(after, target.cluster) };
}

function remove(ctx: RequestContext, scope: 'latest' | 'all'): Outcome {
  const target = ctx.landing.write(ctx.state, ctx.cluster, mountOf(ctx));
  if ('refuse' in target) return target.refuse;
  // The record where the delete lands: a performance secondary forwards it to its primary, which may
  // hold a version the secondary has not received yet (a write forwarded a moment ago).
  const rec = recordAt(own(ctx.state.clusters.named(target.cluster).storage.kv, ctx.params.mount), ctx.params.key);
  // A key whose metadata was written before any data has no latest version to delete: nothing to do, as on the service.
  if (!rec || (scope === 'latest' && !versionAt(rec, rec.current))) return reply.empty();
  return { events: [{ type: 'kv-deleted', at: ctx.now, cluster: target.cluster, mount: ctx.params.mount, key: ctx.params.key, scope, ...forwarded(ctx, target.cluster) }], reply: () => reply.empty() };
}

/** LIST of a KV-v1 mount: its keys (a KV-v1 delete removes the key). */
function list(ctx: RequestContext): Reply {
  const keys = listChildren(own(ctx.cluster.storage.kv, ctx.params.mount), ctx.params.key ?? '', () => true);
  return keys.length ? reply.data({ keys }, { mountType: 'kv' }) : errors.notFound();
}

const listFields = { exclude_deleted: { type: 'bool', default: false } } as const;

/**
 * LIST <mount>/metadata/<folder>: every key with metadata, its versions deleted or not, and keys
 * with metadata alone; `?exclude_deleted=true` leaves out keys whose current version is deleted
 * (path_metadata.go `pathMetadataList`).
 */
function listMetadata(ctx: RequestContext): Reply {
  const asked = parseFields(listFields, hasOwn(ctx.query, 'exclude_deleted') ? { exclude_deleted: ctx.query.exclude_deleted } : {});
  if (!asked.ok) return asked.reply;
  const excludeDeleted = asked.fields.exclude_deleted;
  const keys = listChildren(own(ctx.cluster.storage.kv, ctx.params.mount), ctx.params.key ?? '', (rec) => !excludeDeleted || (versionAt(rec, rec.current)?.deletedAt ?? null) === null);
  return keys.length ? reply.data({ keys }, { mountType: 'kv' }) : errors.notFound();
}

const missingKey = (ctx: RequestContext): Reply | null => (ctx.params.key ? null : errors.unsupportedPath());

// --- KV-v2 check-and-set, config and metadata ---

/**
 * The service's `validateCheckAndSetOption`: `options.cas`, decoded weakly as an integer (null is 0,
 * as mapstructure leaves it), must equal the key's current version (0 when it has none); without it,
 * the write is refused where the mount's config or the key's metadata sets cas_required.
 */
function checkAndSet(options: Record<string, unknown>, mount: MountEntry, rec: KvRecord | undefined): Reply | null {
  if (hasOwn(options, 'cas')) {
    const cas = weakInt(options.cas);
    if (cas === null) return clusterRefusals.casUnparsable();
    // The service compares uint64(cas): a negative cas never matches.
    return cas === (rec?.current ?? 0) ? null : clusterRefusals.casMismatch();
  }
  return mount.kvConfig?.casRequired || rec?.casRequired ? clusterRefusals.casRequired() : null;
}

/** mapstructure's WeakDecode into an int: numbers (truncated), booleans, numeric strings ("" is 0), null. */
function weakInt(v: unknown): number | null {
  if (v === null) return 0;
  if (typeof v === 'number') return Number.isFinite(v) ? Math.trunc(v) : null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') return v.trim() === '' ? 0 : /^[+-]?\d+$/.test(v.trim()) ? Number(v.trim()) : null;
  return null;
}

/** The service's `uint32(max_versions)`: a negative value wraps, as the service stores it. */
const asUint32 = (n: number): number => n >>> 0;

/** Go's `time.Duration.String()` for whole seconds: "0s", "1m30s", "1h0m0s", "-1s". */
export function goDuration(seconds: number): string {
  if (seconds === 0) return '0s';
  const sign = seconds < 0 ? '-' : '';
  let s = Math.abs(seconds);
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  return sign + (h > 0 ? `${h}h${m}m${s}s` : m > 0 ? `${m}m${s}s` : `${s}s`);
}

const DEFAULT_CONFIG: KvMountConfig = { maxVersions: 0, casRequired: false, deleteVersionAfter: 0 };

/** GET <mount>/config: the stored values (max_versions 0 means the default, 10), as the service reports them. */
function readConfig(ctx: RequestContext): Reply {
  const c = mountOf(ctx).kvConfig ?? DEFAULT_CONFIG;
  return reply.data({ cas_required: c.casRequired, delete_version_after: goDuration(c.deleteVersionAfter), max_versions: c.maxVersions }, { mountType: 'kv' });
}

const configFields = { max_versions: { type: 'int' }, cas_required: { type: 'bool' }, delete_version_after: { type: 'signed-duration' } } as const;

/** POST <mount>/config: the fields given replace the mount's; none given changes nothing (204). */
function writeConfig(ctx: RequestContext<typeof configFields>): Outcome {
  const f = ctx.fields;
  if (f.present.size === 0) return reply.empty();
  const target = ctx.landing.write(ctx.state, ctx.cluster, mountOf(ctx));
  if ('refuse' in target) return target.refuse;
  // The service: a negative delete_version_after disables it on every key (stored as -1s), 0 clears it.
  const dva = f.present.has('delete_version_after') ? (f.delete_version_after < 0 ? -1 : Math.trunc(f.delete_version_after / 1000)) : undefined;
  const event: SimEvent = {
    type: 'kv-config-written',
    at: ctx.now,
    cluster: target.cluster,
    mount: ctx.params.mount,
    ...(f.present.has('max_versions') ? { maxVersions: asUint32(f.max_versions) } : {}),
    ...(f.present.has('cas_required') ? { casRequired: f.cas_required } : {}),
    ...(dva !== undefined ? { deleteVersionAfter: dva } : {}),
    ...forwarded(ctx, target.cluster),
  };
  return { events: [event], reply: () => reply.empty() };
}

/** GET <mount>/metadata/<key>: the key's own settings (0 / false / "0s" / null when unset) and its versions. */
function readMetadata(ctx: RequestContext): Reply {
  const rec = recordOf(ctx, ctx.params.key);
  if (!rec) return errors.notFound();
  const versions: Record<string, unknown> = {};
  for (const [n] of versionEntries(rec)) {
    const { created_time, deletion_time, destroyed } = versionMetadata(rec, n);
    versions[n] = { created_time, deletion_time, destroyed };
  }
  return reply.data(
    {
      cas_required: rec.casRequired ?? false,
      created_time: rfc3339(rec.createdAt),
      current_version: rec.current,
      custom_metadata: rec.customMetadata ?? null,
      delete_version_after: goDuration(rec.deleteVersionAfter ?? 0),
      max_versions: rec.maxVersions ?? 0,
      oldest_version: rec.oldest ?? 0,
      updated_time: rfc3339(rec.updatedAt),
      versions,
    },
    { mountType: 'kv' },
  );
}

// The service's bounds on custom_metadata (path_metadata.go).
const MAX_CUSTOM_METADATA_KEYS = 64;
const MAX_CUSTOM_METADATA_KEY_LENGTH = 128;
const MAX_CUSTOM_METADATA_VALUE_LENGTH = 512;
const CM = 'custom_metadata validation failed';
/** strutil.Printable: every rune printable (letters, marks, numbers, punctuation, symbols, the ASCII space). */
const printable = (s: string): boolean => /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]*$/u.test(s);
const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

/** custom_metadata as the service parses and validates it: values decoded weakly to strings, then bounded. */
function customMetadataOf(raw: Record<string, unknown>): { ok: Record<string, string> } | { refuse: Reply } {
  const entries: [string, string][] = [];
  for (const [k, v] of Object.entries(raw)) {
    if (v === null) entries.push([k, '']);
    else if (typeof v === 'string') entries.push([k, v]);
    else if (typeof v === 'number' || typeof v === 'boolean') entries.push([k, weakString(v)]);
    else return { refuse: clusterRefusals.customMetadataType(k) };
  }
  if (entries.length > MAX_CUSTOM_METADATA_KEYS) {
    return { refuse: clusterRefusals.customMetadataInvalid([`${CM}: payload must contain at most ${MAX_CUSTOM_METADATA_KEYS} keys, provided ${entries.length}`]) };
  }
  // The service walks a Go map (random order); replsim lists the problems by key, for determinism.
  const problems: string[] = [];
  for (const [k, v] of [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const kl = byteLength(k);
    const vl = byteLength(v);
    if (kl === 0 || kl > MAX_CUSTOM_METADATA_KEY_LENGTH) problems.push(`${CM}: length of key ${JSON.stringify(k)} is ${kl} but must be 0 < len(key) <= ${MAX_CUSTOM_METADATA_KEY_LENGTH}`);
    if (vl === 0 || vl > MAX_CUSTOM_METADATA_VALUE_LENGTH) problems.push(`${CM}: length of value for key ${JSON.stringify(k)} is ${vl} but must be 0 < len(value) <= ${MAX_CUSTOM_METADATA_VALUE_LENGTH}`);
    if (!printable(k)) problems.push(`${CM}: key ${JSON.stringify(k)} (${k}) contains unprintable characters`);
    if (!printable(v)) problems.push(`${CM}: value for key ${JSON.stringify(k)} contains unprintable characters`);
  }
  return problems.length ? { refuse: clusterRefusals.customMetadataInvalid(problems) } : { ok: Object.fromEntries(entries) };
}

/** mapstructure's WeakDecode of a number or boolean into a string ("1"/"0" for booleans). */
function weakString(v: number | boolean): string {
  return typeof v === 'boolean' ? (v ? '1' : '0') : String(v);
}

const metadataFields = { max_versions: { type: 'int' }, cas_required: { type: 'bool' }, delete_version_after: { type: 'duration' }, custom_metadata: { type: 'map' } } as const;

/**
 * POST <mount>/metadata/<key>: the fields given replace the key's; a key with no data gets a record
 * with no versions. Nothing given changes nothing (204). A lowered max_versions prunes on the next write.
 */
function writeMetadata(ctx: RequestContext<typeof metadataFields>): Outcome {
  if (!ctx.params.key) return clusterRefusals.missingPath();
  const f = ctx.fields;
  if (f.present.size === 0) return reply.empty();
  let customMetadata: Record<string, string> | undefined;
  if (f.present.has('custom_metadata')) {
    const cm = customMetadataOf(f.custom_metadata);
    if ('refuse' in cm) return cm.refuse;
    customMetadata = cm.ok;
  }
  const target = ctx.landing.write(ctx.state, ctx.cluster, mountOf(ctx));
  if ('refuse' in target) return target.refuse;
  const mount = ctx.state.clusters.named(target.cluster).storage.mounts[ctx.params.mount];
  const warnings =
    f.present.has('cas_required') && !f.cas_required && mount.kvConfig?.casRequired ? ['"cas_required" set to false, but is mandated by backend config. This value will be ignored.'] : [];
  const event: SimEvent = {
    type: 'kv-metadata-written',
    at: ctx.now,
    cluster: target.cluster,
    mount: ctx.params.mount,
    key: ctx.params.key,
    ...(f.present.has('max_versions') ? { maxVersions: asUint32(f.max_versions) } : {}),
    ...(f.present.has('cas_required') ? { casRequired: f.cas_required } : {}),
    ...(f.present.has('delete_version_after') ? { deleteVersionAfter: Math.trunc(f.delete_version_after / 1000) } : {}),
    ...(customMetadata !== undefined ? { customMetadata } : {}),
    ...forwarded(ctx, target.cluster),
  };
  return { events: [event], reply: () => (warnings.length ? reply.data(null, { warnings, mountType: 'kv' }) : reply.empty()) };
}

const readFields = { version: { type: 'int' } } as const;

/**
 * GET <mount>/data/<key>[?version=N]: the current version, or version N (a version dropped by
 * max_versions, or never written, is a 404 with no errors, as the service answers it).
 */
function readData(ctx: RequestContext): Reply {
  const asked = parseFields(readFields, hasOwn(ctx.query, 'version') ? { version: ctx.query.version } : {});
  if (!asked.ok) return asked.reply;
  const rec = recordOf(ctx, ctx.params.key);
  if (!rec) return errors.notFound();
  const n = asked.fields.version !== undefined && asked.fields.version > 0 ? asked.fields.version : rec.current;
  const v = versionAt(rec, n);
  if (!v || v.deletedAt !== null || v.destroyed) return errors.notFound();
  return reply.data({ data: v.data, metadata: versionMetadata(rec, n) }, { mountType: 'kv' });
}

const kvV2: Route[] = [
  {
    pattern: 'config',
    methods: {
      GET: endpoint({ summary: 'read the KV-v2 mount configuration', auth: { token: 'client' }, mountType: 'kv', handle: readConfig }),
      POST: endpoint({ summary: 'configure the KV-v2 mount (max_versions, cas_required, delete_version_after)', auth: { token: 'client' }, fields: configFields, mountType: 'kv', handle: writeConfig }),
    },
  },
  {
    pattern: 'data/*key',
    methods: {
      GET: endpoint({ summary: 'read a KV-v2 secret', auth: { token: 'client' }, mountType: 'kv', handle: readData }),
      POST: endpoint({
        summary: 'write a KV-v2 secret',
        auth: { token: 'client', capability: createOrUpdate },
        fields: { data: { type: 'map', required: 'no data provided' }, options: { type: 'map' } },
        mountType: 'kv',
        handle: (ctx) =>
          missingKey(ctx) ??
          write(
            ctx,
            ctx.fields.data,
            (after, landed) => {
              const rec = recordAt(after.clusters.named(landed).storage.kv[ctx.params.mount], ctx.params.key) as KvRecord;
              return reply.data(versionMetadata(rec, rec.current), { mountType: 'kv' });
            },
            ctx.fields.options ?? {},
          ),
      }),
      DELETE: endpoint({ summary: 'delete the latest version of a KV-v2 secret', auth: { token: 'client' }, handle: (ctx) => missingKey(ctx) ?? remove(ctx, 'latest') }),
      PATCH: notBuilt('data/*key', ['PATCH'], 'PATCH of KV-v2 data').methods.PATCH,
    },
  },
  {
    pattern: 'metadata/*key',
    methods: {
      LIST: endpoint({ summary: 'list KV-v2 keys', auth: { token: 'client' }, handle: listMetadata }),
      GET: endpoint({ summary: 'read KV-v2 metadata', auth: { token: 'client' }, handle: readMetadata }),
      POST: endpoint({ summary: "set a KV-v2 key's max_versions, cas_required, delete_version_after or custom_metadata", auth: { token: 'client', capability: metadataCreateOrUpdate }, fields: metadataFields, mountType: 'kv', handle: writeMetadata }),
      DELETE: endpoint({ summary: 'delete a KV-v2 secret and all its versions', auth: { token: 'client' }, handle: (ctx) => missingKey(ctx) ?? remove(ctx, 'all') }),
      PATCH: notBuilt('metadata/*key', ['PATCH'], 'PATCH of KV-v2 metadata').methods.PATCH,
    },
  },
  // The service's other KV-v2 paths, not simulated: they answer 501 rather than a misleading 404.
  notBuilt('delete/*key', ['POST'], 'KV-v2 delete of given versions'),
  notBuilt('undelete/*key', ['POST'], 'KV-v2 undelete'),
  notBuilt('destroy/*key', ['POST'], 'KV-v2 destroy'),
  notBuilt('subkeys/*key', ['GET'], 'KV-v2 subkeys'),
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
