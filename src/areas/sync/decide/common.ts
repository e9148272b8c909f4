// What the sync decisions share: where a write lands, the destinations and mounts a request names,
// and how destinations and associations read back (vault-api-facts.md §D shapes).
//
// Under performance replication, destinations and associations are the primary's replicated
// configuration: a performance secondary answers reads from its copy, and a write sent to it is
// applied on its primary (`configurationLanding`, as a KV write to a replicated mount), whose state
// the write is checked against and whose answer is returned.
import { syncStatusOf } from '../../../../models/sync-association.machine.js';
import { forwardedFrom, type RequestContext } from '../../core/http/route.js';
import type { ClusterState, MountEntry } from '../../core/state.js';
import { rfc3339 } from '../../../kernel/clock.js';
import { reply, type Reply } from '../../../kernel/http/http.js';
import { destinationTypes, obfuscated, type DestinationType } from '../destinations.js';
import { syncRefusals } from '../refusals.js';
import { associationId, destinationKey, type SyncDestination } from '../sync.js';

/** The cluster a write lands on (the primary, for a performance secondary), or why it cannot be forwarded. */
export function landing(ctx: RequestContext): ClusterState | Reply {
  const l = ctx.landing.configuration(ctx.state, ctx.cluster);
  return 'refuse' in l ? l.refuse : ctx.state.clusters.named(l.cluster);
}

/** `forwardedBy` for the event of a write that landed on `target` (the bus carries the forwarding: replication/messages.ts). */
export function forwarded(ctx: RequestContext, target: ClusterState): { forwardedBy?: string } {
  return forwardedFrom(ctx.cluster.name, target.name);
}

export function destinationsIn(c: ClusterState, namespace: string): SyncDestination[] {
  return Object.values(c.sync.destinations)
    .filter((d) => d.namespace === namespace)
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The destination the request's URL names, on `c` (the receiving cluster by default, or where a write lands). */
export function destinationOf(ctx: RequestContext, type: DestinationType, c: ClusterState = ctx.cluster): SyncDestination | undefined {
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
    options: { granularity_level: d.granularity, secret_name_template: d.secretNameTemplate, custom_tags: d.customTags, ...d.settings },
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
export function mountNamed(ctx: RequestContext, given: string, c: ClusterState = ctx.cluster): MountEntry | null {
  const rel = given.replace(/^\/+|\/+$/g, '');
  if (rel === '') return null;
  const m = c.storage.mounts[ctx.namespace + rel + '/'];
  return m && m.namespace === ctx.namespace ? m : null;
}

/** Every destination of the namespace that has handled this secret, with its latest status. */
export function destinationsOfSecret(ctx: RequestContext, mount: MountEntry, secretName: string) {
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

/**
 * What set and remove of an association check first, in the service's order: both parameters given,
 * where the write lands (a performance secondary forwards it), and the destination there.
 */
export function associationTarget(ctx: RequestContext, type: DestinationType, mount: string, secretName: string): { target: ClusterState; destination: SyncDestination } | Reply {
  if (mount === '') return syncRefusals.missingField('mount');
  if (secretName === '') return syncRefusals.missingField('secret_name');
  const target = landing(ctx);
  if ('kind' in target) return target;
  const destination = destinationOf(ctx, type, target);
  if (!destination) return syncRefusals.noDestination(type, ctx.params.name);
  return { target, destination };
}
