// Secret sync (spec area D): destinations per type, associations between KV-v2 secrets and
// destinations, and the reads by destination and by secret. Response shapes, obfuscation and
// statuses follow vault-api-facts.md §D; texts the facts file does not have are the simulator's
// and say so. Deliveries happen later, as time passes (cluster/sync.ts): a set or remove answers at
// once with the association PENDING.
//
// Under performance replication, destinations and associations are the primary's replicated
// configuration: a performance secondary answers reads from its copy, and a write sent to it is
// applied on its primary (`configurationLanding`, as a KV write to a replicated mount), whose state
// the write is checked against and whose answer is returned.
import { isLinked, isManaged, syncStatusOf } from '../../../models/sync-association.machine.js';
import { configurationLanding } from '../replication/forwarding.js';
import { capabilitiesOf } from '../cluster/policy.js';
import { liveVersion } from '../cluster/reducers.js';
import type { ClusterState, MountEntry } from '../cluster/state.js';
import {
  associationId,
  destinationKey,
  type DestinationSettings,
  type SyncAssociationRemoved,
  type SyncAssociationSet,
  type SyncDestination,
  type SyncDestinationConfigured,
  type SyncDestinationDeleted,
  type SyncPurgeStarted,
} from './sync.js';
import { DESTINATION_TYPES, GRANULARITIES, destinationTypes, isDestinationType, obfuscated, type DestinationType, type Granularity } from './destinations.js';
import { defaultTemplate, templateProblem } from './naming.js';
import { rfc3339 } from '../../kernel/clock.js';
import { own, PROTO_NAME } from '../../kernel/own.js';
import type { FieldSpec } from '../../kernel/http/fields.js';
import { errors, reply, type Reply } from '../../kernel/http/http.js';
import { endpoint, type AuthRule, type Endpoint, type Outcome, type RequestContext, type Route } from '../cluster/http/route.js';
import { syncRefusals } from './refusals.js';
import { recordAt } from '../cluster/keymap.js';

/**
 * Every sync endpoint: a client token with the path's capability, and a licence that has the
 * feature ("Appropriate Vault Enterprise license or HCP Vault Dedicated cluster required",
 * developer.hashicorp.com/vault/docs/sync). A community build (licence `none`) has no sync paths
 * at all: its stub backend registers none, so they are 404 `unsupported path` (vault-api-facts.md
 * §0.3), not the `enterprise-only feature` of the replication stubs. Not restricted to the root
 * namespace: destinations live in the namespace they were created in. A DR secondary refuses them
 * like any client path.
 */
function syncAuth(capability?: AuthRule['capability']): AuthRule {
  return { token: 'client', license: 'enterprise-or-managed', enterpriseBuildOnly: true, ...(capability ? { capability } : {}) };
}

/** The cluster a write lands on (the primary, for a performance secondary), or why it cannot be forwarded. */
function landing(ctx: RequestContext): ClusterState | Reply {
  const l = configurationLanding(ctx.state, ctx.cluster);
  return 'refuse' in l ? l.refuse : ctx.state.clusters[l.cluster];
}

/** The sync refusals (refusals.ts). */
const syncErrors = syncRefusals;

// ---------------------------------------------------------------------------------------------------
// Reading

function destinationsIn(c: ClusterState, namespace: string): SyncDestination[] {
  return Object.values(c.sync.destinations)
    .filter((d) => d.namespace === namespace)
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The destination the request's URL names, on `c` (the receiving cluster by default, or where a write lands). */
function destinationOf(ctx: RequestContext, type: DestinationType, c: ClusterState = ctx.cluster): SyncDestination | undefined {
  return c.sync.destinations[destinationKey(ctx.namespace, type, ctx.params.name)];
}

/**
 * The last failure's message, while the association reports a failure. The service keeps "the
 * error code of the last sync or unsync operation if it failed" in each association
 * (developer.hashicorp.com/vault/docs/sync, "Associations") but does not publish the field's name:
 * `last_error` is replsim's. Left out when the last operation succeeded (or none ran yet).
 */
function lastError(a: { error: string }): { last_error?: string } {
  return a.error === '' ? {} : { last_error: a.error };
}

/** A destination as GET prints it: sensitive connection values obfuscated. */
export function destinationView(d: SyncDestination) {
  const connection_details: Record<string, unknown> = {};
  for (const f of destinationTypes[d.type].connection) {
    const v = d.connection[f.name] ?? (f.list ? [] : '');
    connection_details[f.name] = f.sensitive && typeof v === 'string' ? obfuscated(v) : v;
  }
  const view: Record<string, unknown> = {
    connection_details,
    name: d.name,
    type: d.type,
    options: { granularity_level: d.granularity, secret_name_template: d.secretNameTemplate, custom_tags: d.customTags },
  };
  if (d.purge) {
    view.purge_initiated_at = rfc3339(d.purge.initiatedAt);
    if (d.purge.error) view.purge_error = d.purge.error;
  }
  return view;
}

/**
 * A destination's associations with their latest status. A removed association stays listed with
 * its unsync's status (PENDING, then UNSYNCED), as the service's remove response shows it.
 */
export function associationsView(d: SyncDestination) {
  const associated_secrets: Record<string, unknown> = {};
  for (const id of Object.keys(d.associations).sort()) {
    const a = d.associations[id];
    const status = syncStatusOf(a.value);
    if (status === null) continue;
    associated_secrets[id] = { accessor: a.accessor, secret_name: a.secretName, sync_status: status, updated_at: rfc3339(a.updatedAt), ...lastError(a) };
  }
  return { associated_secrets, store_name: d.name, store_type: d.type };
}

/** A mount given by path relative to the request's namespace ("secret" or "secret/"), on `c`. */
function mountNamed(ctx: RequestContext, given: string, c: ClusterState = ctx.cluster): MountEntry | null {
  const rel = given.replace(/^\/+|\/+$/g, '');
  if (rel === '') return null;
  const m = c.storage.mounts[ctx.namespace + rel + '/'];
  return m && m.namespace === ctx.namespace ? m : null;
}

/** Every destination of the namespace that has handled this secret, with its latest status. */
function destinationsOfSecret(ctx: RequestContext, mount: MountEntry, secretName: string) {
  const associated_destinations: Record<string, unknown> = {};
  const id = associationId(mount.accessor, secretName);
  for (const d of destinationsIn(ctx.cluster, ctx.namespace)) {
    const a = d.associations[id];
    const status = a && syncStatusOf(a.value);
    if (!status) continue;
    associated_destinations[`${d.type}/${d.name}`] = { type: d.type, name: d.name, sync_status: status, updated_at: rfc3339(a.updatedAt), ...lastError(a) };
  }
  return reply.data({ associated_destinations });
}

// ---------------------------------------------------------------------------------------------------
// Destinations

/** The body a type's create/update takes: its connection parameters and the common options. */
function configureFields(type: DestinationType): Record<string, FieldSpec> {
  const info = destinationTypes[type];
  const fields: Record<string, FieldSpec> = {};
  for (const f of info.connection) fields[f.name] = f.list ? { type: 'strings', default: [] } : { type: 'string', default: f.default ?? '' };
  fields.granularity = { type: 'string', default: '' };
  fields.secret_name_template = { type: 'string', default: '' };
  if (info.customTags) fields.custom_tags = { type: 'map', default: {} };
  return fields;
}

function configure(type: DestinationType, ctx: RequestContext): Outcome {
  const info = destinationTypes[type];
  const fields = ctx.fields as unknown as Record<string, unknown>;
  const name = ctx.params.name;
  const key = destinationKey(ctx.namespace, type, name);
  const target = landing(ctx);
  if ('kind' in target) return target;
  if (target.sync.destinations[key]?.purge) return syncErrors.purging(type, name);

  const connection: Record<string, string | string[]> = {};
  for (const f of info.connection) {
    if (f.list) {
      const list = [...new Set((fields[f.name] as string[]).map((s) => s.trim()).filter((s) => s !== ''))];
      if (f.required && list.length === 0) return syncErrors.missingField(f.name);
      const bad = f.accepted && list.find((v) => !f.accepted!.includes(v));
      if (bad) return syncErrors.badAccepted(f.name, bad, f.accepted!);
      connection[f.name] = list;
    } else {
      const value = fields[f.name] as string;
      if (f.required && value === '') return syncErrors.missingField(f.name);
      if (f.accepted && value !== '' && !f.accepted.includes(value)) return syncErrors.badAccepted(f.name, value, f.accepted);
      connection[f.name] = value;
    }
  }
  const given = fields.granularity as string;
  if (given !== '' && !GRANULARITIES.includes(given as Granularity)) return syncErrors.badAccepted('granularity', given, GRANULARITIES);
  const granularity = (given || info.defaultGranularity) as Granularity;
  const template = (fields.secret_name_template as string) || defaultTemplate(granularity);
  const problem = templateProblem(template, granularity);
  if (problem) return syncRefusals.badTemplate(problem);
  const customTags: Record<string, string> = {};
  for (const [k, v] of Object.entries((fields.custom_tags as Record<string, unknown> | undefined) ?? {})) {
    if (typeof v !== 'string') return syncRefusals.badCustomTag(k);
    if (k === PROTO_NAME) return errors.forbiddenName(); // a plain object cannot hold it (world/own.ts)
    customTags[k] = v;
  }

  const destination: DestinationSettings = { key, namespace: ctx.namespace, type, name, connection, granularity, secretNameTemplate: template, customTags };
  const event: SyncDestinationConfigured = { type: 'sync-destination-configured', at: ctx.now, cluster: target.name, destination };
  return { events: [event], reply: (after) => reply.data(destinationView(after.clusters[target.name].sync.destinations[key])) };
}

const BOOL_WORDS: Record<string, boolean> = { true: true, t: true, '1': true, false: false, f: false, '0': false };

/** A flag of a DELETE: from the query string (`?purge=true`), or the body. */
function flag(ctx: RequestContext, name: string): boolean | Reply {
  const raw = ctx.query[name] ?? ctx.body[name];
  if (raw === undefined || raw === null || raw === '') return false;
  if (typeof raw === 'boolean') return raw;
  const b = BOOL_WORDS[String(raw).toLowerCase()];
  return b ?? syncRefusals.badFlag(JSON.stringify(raw), name);
}

function remove(type: DestinationType, ctx: RequestContext): Outcome {
  const target = landing(ctx);
  if ('kind' in target) return target;
  const d = destinationOf(ctx, type, target);
  if (!d) return reply.empty();
  const purge = flag(ctx, 'purge');
  if (typeof purge !== 'boolean') return purge;
  const force = flag(ctx, 'force_delete');
  if (typeof force !== 'boolean') return force;
  const managed = Object.values(d.associations).filter((a) => isManaged(a.value)).length;
  const cluster = target.name;
  if (managed === 0) {
    const event: SyncDestinationDeleted = { type: 'sync-destination-deleted', at: ctx.now, cluster, destination: d.key };
    return { events: [event], reply: () => reply.empty() };
  }
  if (!purge) return syncErrors.stillManages(type, d.name, managed);
  // A purge already under way goes on as it is.
  if (d.purge) return reply.empty();
  const event: SyncPurgeStarted = { type: 'sync-destination-purge-started', at: ctx.now, cluster, destination: d.key, force };
  return { events: [event], reply: () => reply.empty() };
}

// ---------------------------------------------------------------------------------------------------
// Associations

const setFields = { mount: { type: 'string', default: '' }, secret_name: { type: 'string', default: '' } } as const satisfies Record<string, FieldSpec>;
const removeFields = { ...setFields, name: { type: 'string', default: '' } } as const satisfies Record<string, FieldSpec>;

function setAssociation(type: DestinationType, ctx: RequestContext<typeof setFields>): Outcome {
  const mountGiven = ctx.fields.mount;
  const secretName = ctx.fields.secret_name;
  if (mountGiven === '') return syncErrors.missingField('mount');
  if (secretName === '') return syncErrors.missingField('secret_name');
  const target = landing(ctx);
  if ('kind' in target) return target;
  const d = destinationOf(ctx, type, target);
  if (!d) return syncErrors.noDestination(type, ctx.params.name);
  if (d.purge) return syncErrors.purging(type, d.name);
  const mount = mountNamed(ctx, mountGiven, target);
  if (!mount) return syncErrors.noMount(mountGiven);
  if (mount.type !== 'kv-v2') return syncErrors.notKvV2(mountGiven);
  // Read access to the secret itself, beyond the capability on the sync path.
  if (!ctx.token || !capabilitiesOf(ctx.token, `${mount.path}data/${secretName}`).has('read')) return syncErrors.cannotRead(secretName, mountGiven);
  if (secretName.endsWith('/') || !liveVersion(recordAt(own(target.storage.kv, mount.path), secretName))) return syncErrors.noSecret();

  const id = associationId(mount.accessor, secretName);
  const prev = d.associations[id];
  // A refresh keeps the naming the association was created with; a new link takes the destination's.
  const naming = prev && isLinked(prev.value) ? { granularity: prev.granularity, template: prev.template } : { granularity: d.granularity, template: d.secretNameTemplate };
  const event: SyncAssociationSet = {
    type: 'sync-association-set',
    at: ctx.now,
    cluster: target.name,
    destination: d.key,
    association: { id, mount: mount.path, accessor: mount.accessor, secretName, ...naming },
  };
  return { events: [event], reply: (after) => reply.data(associationsView(after.clusters[target.name].sync.destinations[d.key])) };
}

function removeAssociation(type: DestinationType, ctx: RequestContext<typeof removeFields>): Outcome {
  const mountGiven = ctx.fields.mount;
  // The spec lists the secret's parameter of remove as `name`; the service's API takes `secret_name`. Both are accepted.
  const secretName = ctx.fields.secret_name || ctx.fields.name;
  if (mountGiven === '') return syncErrors.missingField('mount');
  if (secretName === '') return syncErrors.missingField('secret_name');
  const target = landing(ctx);
  if ('kind' in target) return target;
  const d = destinationOf(ctx, type, target);
  if (!d) return syncErrors.noDestination(type, ctx.params.name);
  const mount = mountNamed(ctx, mountGiven, target);
  const a = mount ? d.associations[associationId(mount.accessor, secretName)] : undefined;
  // Rule 3: success when the association does not exist (or is already removed): nothing to do.
  if (!mount || !a || !isLinked(a.value)) return reply.data(associationsView(d));
  const event: SyncAssociationRemoved = { type: 'sync-association-removed', at: ctx.now, cluster: target.name, destination: d.key, id: associationId(mount.accessor, secretName) };
  return { events: [event], reply: (after) => reply.data(associationsView(after.clusters[target.name].sync.destinations[d.key])) };
}

// ---------------------------------------------------------------------------------------------------
// Routes

function destinationRoutes(type: DestinationType): Route[] {
  const base = `sys/sync/destinations/${type}/:name`;
  const exists = (ctx: RequestContext) => (destinationOf(ctx, type) ? ('update' as const) : ('create' as const));
  const configureEndpoint: Endpoint<Record<string, FieldSpec>> = endpoint({
    summary: `create or update a ${type} sync destination`,
    auth: syncAuth(exists),
    fields: configureFields(type),
    handle: (ctx) => configure(type, ctx),
  });
  return [
    {
      pattern: base,
      methods: {
        POST: configureEndpoint,
        GET: endpoint({
          summary: `read a ${type} sync destination`,
          auth: syncAuth(),
          handle: (ctx) => {
            const d = destinationOf(ctx, type);
            return d ? reply.data(destinationView(d)) : errors.notFound();
          },
        }),
        DELETE: endpoint({
          summary: `delete a ${type} sync destination`,
          auth: syncAuth(),
          fields: { purge: { type: 'bool' }, force_delete: { type: 'bool' } },
          handle: (ctx) => remove(type, ctx),
        }),
      },
    },
    {
      pattern: `${base}/associations`,
      methods: {
        GET: endpoint({
          summary: `read the associations of a ${type} sync destination`,
          auth: syncAuth(),
          handle: (ctx) => {
            const d = destinationOf(ctx, type);
            return d ? reply.data(associationsView(d)) : errors.notFound();
          },
        }),
      },
    },
    {
      pattern: `${base}/associations/set`,
      methods: {
        POST: endpoint({
          summary: `associate a secret with a ${type} sync destination (triggers a sync)`,
          auth: syncAuth('update'),
          fields: setFields,
          handle: (ctx) => setAssociation(type, ctx),
        }),
      },
    },
    {
      pattern: `${base}/associations/remove`,
      methods: {
        POST: endpoint({
          summary: `remove a secret's association with a ${type} sync destination (triggers an unsync)`,
          auth: syncAuth('update'),
          fields: removeFields,
          handle: (ctx) => removeAssociation(type, ctx),
        }),
      },
    },
  ];
}

const listDestinations: Route = {
  pattern: 'sys/sync/destinations',
  methods: {
    LIST: endpoint({
      summary: 'list sync destinations by type',
      auth: syncAuth(),
      handle: (ctx) => {
        const all = destinationsIn(ctx.cluster, ctx.namespace);
        if (all.length === 0) return errors.notFound();
        const key_info: Record<string, string[]> = {};
        for (const d of all) (key_info[`${d.type}/`] ??= []).push(d.name);
        for (const names of Object.values(key_info)) names.sort();
        return reply.data({ key_info, keys: Object.keys(key_info).sort(), total_destinations: all.length });
      },
    }),
  },
};

const listDestinationsOfType: Route = {
  pattern: 'sys/sync/destinations/:type',
  methods: {
    LIST: endpoint({
      summary: 'list sync destinations of one type',
      auth: syncAuth(),
      handle: (ctx) => {
        if (!isDestinationType(ctx.params.type)) return syncRefusals.unknownType();
        const names = destinationsIn(ctx.cluster, ctx.namespace)
          .filter((d) => d.type === ctx.params.type)
          .map((d) => d.name)
          .sort();
        return names.length ? reply.data({ keys: names, total_destinations: names.length }) : errors.notFound();
      },
    }),
  },
};

const listAssociations: Route = {
  pattern: 'sys/sync/associations',
  methods: {
    LIST: endpoint({
      summary: 'list the secrets that have at least one sync association',
      auth: syncAuth(),
      handle: (ctx) => {
        const key_info: Record<string, { mount: string; secret_path: string }[]> = {};
        let total = 0;
        for (const d of destinationsIn(ctx.cluster, ctx.namespace)) {
          for (const a of Object.values(d.associations)) {
            if (!isLinked(a.value)) continue;
            total += 1;
            const mount = a.mount.slice(ctx.namespace.length);
            key_info[mount + a.secretName] ??= [{ mount, secret_path: a.secretName }];
          }
        }
        const keys = Object.keys(key_info).sort();
        if (keys.length === 0) return errors.notFound();
        return reply.data({ key_info, keys, total_associations: total, total_secrets: keys.length });
      },
    }),
  },
};

const destinationsBySecretQuery: Route = {
  pattern: 'sys/sync/associations/destinations',
  methods: {
    GET: endpoint({
      summary: "read a secret's sync destinations (mount and secret_name in the query)",
      auth: syncAuth(),
      handle: (ctx) => {
        const given = ctx.query.mount ?? '';
        const secretName = ctx.query.secret_name ?? '';
        if (given === '') return syncErrors.missingField('mount');
        if (secretName === '') return syncErrors.missingField('secret_name');
        const mount = mountNamed(ctx, given);
        return mount ? destinationsOfSecret(ctx, mount, secretName) : syncErrors.noMount(given);
      },
    }),
  },
};

const destinationsBySecretPath: Route = {
  pattern: 'sys/sync/associations/*rest',
  methods: {
    GET: endpoint({
      summary: "read a secret's sync destinations",
      auth: syncAuth(),
      handle: (ctx) => {
        // `<mount>/<secret>`: the longest mount of the namespace that prefixes the path.
        const rest = ctx.params.rest;
        let best: MountEntry | null = null;
        for (const m of Object.values(ctx.cluster.storage.mounts)) {
          const rel = m.path.slice(ctx.namespace.length);
          if (m.namespace === ctx.namespace && rest.startsWith(rel) && rest.length > rel.length && (!best || m.path.length > best.path.length)) best = m;
        }
        if (!best) return syncErrors.noMount(rest.split('/')[0]);
        return destinationsOfSecret(ctx, best, rest.slice(best.path.length - ctx.namespace.length));
      },
    }),
  },
};

export const syncRoutes: Route[] = [
  listDestinations,
  ...DESTINATION_TYPES.flatMap(destinationRoutes),
  listDestinationsOfType,
  listAssociations,
  destinationsBySecretQuery,
  destinationsBySecretPath,
];
