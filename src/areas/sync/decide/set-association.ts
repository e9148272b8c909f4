// POST sys/sync/destinations/<type>/:name/associations/set: associates a KV-v2 secret the caller may
// read with the destination (the sync-association machine links it; a sync follows as time passes).
import { isLinked, operationOf } from '../../../../models/sync-association.machine.js';
import type { Outcome, RequestContext } from '../../core/http/route.js';
import { recordAt } from '../../core/keymap.js';
import { capabilitiesOf } from '../../core/policy.js';
import { liveVersion } from '../../core/versions.js';
import type { FieldSpec } from '../../../kernel/http/fields.js';
import { reply } from '../../../kernel/http/http.js';
import { own } from '../../../kernel/own.js';
import type { DestinationType } from '../destinations.js';
import { syncRefusals } from '../refusals.js';
import { associationAfter, associationId, type SyncAssociationSet } from '../sync.js';
import { associationsView, associationTarget, forwarded, mountNamed } from './common.js';
import { queueRoom } from './sync-config.js';

export const fields = { mount: { type: 'string', default: '' }, secret_name: { type: 'string', default: '' } } as const satisfies Record<string, FieldSpec>;

export const decide =
  (type: DestinationType) =>
  (ctx: RequestContext<typeof fields>): Outcome => {
    const mountGiven = ctx.fields.mount;
    const secretName = ctx.fields.secret_name;
    const found = associationTarget(ctx, type, mountGiven, secretName);
    if ('kind' in found) return found;
    const { target, destination: d } = found;
    if (d.purge) return syncRefusals.purging(type, d.name);
    const mount = mountNamed(ctx, mountGiven, target);
    if (!mount) return syncRefusals.noMount(mountGiven);
    if (mount.type !== 'kv-v2') return syncRefusals.notKvV2(mountGiven);
    // Read access to the secret itself, beyond the capability on the sync path.
    if (!ctx.token || !capabilitiesOf(ctx.token, `${mount.path}data/${secretName}`).has('read')) return syncRefusals.cannotRead(secretName, mountGiven);
    if (secretName.endsWith('/') || !liveVersion(recordAt(own(target.storage.kv, mount.path), secretName))) return syncRefusals.noSecret();

    const id = associationId(mount.accessor, secretName);
    const prev = d.associations[id];
    // The association machine links it (or refreshes a link); its table takes `set` in every state.
    const value = associationAfter(prev?.value ?? 'unlinked.none', { type: 'set' }, `${d.key} ${id}`);
    // A new operation takes a place in the sync queue; one already queued is replaced in its place.
    const full = prev && operationOf(prev.value) !== null ? null : queueRoom(target.sync);
    if (full) return full;
    // A refresh keeps the naming the association was created with; a new link takes the destination's.
    const naming = prev && isLinked(prev.value) ? { granularity: prev.granularity, template: prev.template } : { granularity: d.granularity, template: d.secretNameTemplate };
    const event: SyncAssociationSet = {
      type: 'sync-association-set',
      at: ctx.now,
      cluster: target.name,
      destination: d.key,
      association: { id, mount: mount.path, accessor: mount.accessor, secretName, ...naming },
      value,
      ...forwarded(ctx, target),
    };
    return { events: [event], reply: (after) => reply.data(associationsView(after.clusters.named(target.name).sync.destinations[d.key])) };
  };
