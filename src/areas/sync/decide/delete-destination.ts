// DELETE sys/sync/destinations/<type>/:name: a destination that still manages secrets is deleted only
// with `purge` (its associations unsynced first); `force_delete` ends a purge that cannot finish.
import type { Outcome, RequestContext } from '../../core/http/route.js';
import { isLinked, isManaged, type AssociationValue } from '../../../../models/sync-association.machine.js';
import { reply, type Reply } from '../../../kernel/http/http.js';
import type { DestinationType } from '../destinations.js';
import { syncRefusals } from '../refusals.js';
import { associationAfter, type SyncDestinationDeleted, type SyncPurgeStarted } from '../sync.js';
import { destinationOf, forwarded, landing } from './common.js';

export const fields = { purge: { type: 'bool' }, force_delete: { type: 'bool' } } as const;

const BOOL_WORDS: Record<string, boolean> = { true: true, t: true, '1': true, false: false, f: false, '0': false };

/** A flag of a DELETE: from the query string (`?purge=true`), or the body. */
function flag(ctx: RequestContext, name: string): boolean | Reply {
  const raw = ctx.query[name] ?? ctx.body[name];
  if (raw === undefined || raw === null || raw === '') return false;
  if (typeof raw === 'boolean') return raw;
  const b = BOOL_WORDS[String(raw).toLowerCase()];
  return b ?? syncRefusals.badFlag(JSON.stringify(raw), name);
}

export const decide =
  (type: DestinationType) =>
  (ctx: RequestContext<typeof fields>): Outcome => {
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
      const event: SyncDestinationDeleted = { type: 'sync-destination-deleted', at: ctx.now, cluster, destination: d.key, ...forwarded(ctx, target) };
      return { events: [event], reply: () => reply.empty() };
    }
    if (!purge) return syncRefusals.stillManages(type, d.name, managed);
    // A purge already under way goes on as it is.
    if (d.purge) return reply.empty();
    // Every linked association is unlinked, as a `remove` of it would (the association machine's row).
    const unlinked: Record<string, AssociationValue> = {};
    for (const [id, a] of Object.entries(d.associations)) if (isLinked(a.value)) unlinked[id] = associationAfter(a.value, { type: 'remove' }, `${d.key} ${id}`);
    const event: SyncPurgeStarted = { type: 'sync-destination-purge-started', at: ctx.now, cluster, destination: d.key, force, unlinked, ...forwarded(ctx, target) };
    return { events: [event], reply: () => reply.empty() };
  };
