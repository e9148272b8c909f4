// POST sys/sync/destinations/<type>/:name/associations/remove: unsyncs a secret from the destination;
// success when the association does not exist or is already removed (area D rule 3).
import { operationOf } from '../../../../models/sync-association.machine.js';
import type { Outcome, RequestContext } from '../../core/http/route.js';
import type { FieldSpec } from '../../../kernel/http/fields.js';
import { reply } from '../../../kernel/http/http.js';
import type { DestinationType } from '../destinations.js';
import { associationAfter, associationId, type SyncAssociationRemoved } from '../sync.js';
import { associationsView, associationTarget, forwarded, mountNamed } from './common.js';
import { queueRoom } from './sync-config.js';
import { fields as setFields } from './set-association.js';

export const fields = { ...setFields, name: { type: 'string', default: '' } } as const satisfies Record<string, FieldSpec>;

export const decide =
  (type: DestinationType) =>
  (ctx: RequestContext<typeof fields>): Outcome => {
    const mountGiven = ctx.fields.mount;
    // The spec lists the secret's parameter of remove as `name`; the service's API takes `secret_name`. Both are accepted.
    const secretName = ctx.fields.secret_name || ctx.fields.name;
    const found = associationTarget(ctx, type, mountGiven, secretName);
    if ('kind' in found) return found;
    const { target, destination: d } = found;
    const mount = mountNamed(ctx, mountGiven, target);
    const id = mount ? associationId(mount.accessor, secretName) : '';
    const a = mount ? d.associations[id] : undefined;
    // The association machine decides (rule 3): an association that does not exist is one never
    // linked, and removing an unlinked one succeeds with nothing to do (its row stays where it is).
    const value = a?.value ?? 'unlinked.none';
    const next = associationAfter(value, { type: 'remove' }, `${d.key} ${id}`);
    if (!mount || next === value) return reply.data(associationsView(d));
    const full = operationOf(value) !== null ? null : queueRoom(target.sync);
    if (full) return full;
    const event: SyncAssociationRemoved = { type: 'sync-association-removed', at: ctx.now, cluster: target.name, destination: d.key, id, value: next, ...forwarded(ctx, target) };
    return { events: [event], reply: (after) => reply.data(associationsView(after.clusters.named(target.name).sync.destinations[d.key])) };
  };
