// sys/sync/config: the sync system's settings (GET, PATCH, DELETE), "restricted-admin" in the
// service's words (the root namespace). `disabled` stops sync jobs (the sync-config machine; the
// operations queued meanwhile stay PENDING and run once enabled again); `queue_capacity` bounds the
// operations queued (set-association.ts and remove-association.ts ask the machine). The settings are
// replicated configuration, like the destinations: a performance secondary forwards a change.
import { stepSyncConfig } from '../../../../models/sync-config.machine.js';
import type { Outcome, RequestContext } from '../../core/http/route.js';
import type { FieldSpec } from '../../../kernel/http/fields.js';
import { reply, type Reply } from '../../../kernel/http/http.js';
import { syncRefusals } from '../refusals.js';
import { SYNC_CONFIG_DEFAULTS, pendingOperations, syncConfigValue } from '../sync.js';
import type { SyncConfig, SyncConfigChanged, SyncState } from '../types.js';
import { forwarded, landing } from './common.js';

export const fields = {
  disabled: { type: 'bool' },
  queue_capacity: { type: 'int' },
} as const satisfies Record<string, FieldSpec>;

function view(c: SyncConfig | undefined) {
  const s = c ?? SYNC_CONFIG_DEFAULTS;
  return { disabled: s.disabled, queue_capacity: s.queueCapacity };
}

export function read(ctx: RequestContext): Reply {
  return reply.data(view(ctx.cluster.sync.config));
}

export function patch(ctx: RequestContext<typeof fields>): Outcome {
  const target = landing(ctx);
  if ('kind' in target) return target;
  const now = target.sync.config ?? SYNC_CONFIG_DEFAULTS;
  const given = ctx.fields.present;
  const capacity = given.has('queue_capacity') ? (ctx.fields.queue_capacity as number) : now.queueCapacity;
  if (capacity <= 0) return syncRefusals.badQueueCapacity(capacity);
  const value = stepSyncConfig(syncConfigValue(target.sync), given.has('disabled') ? { type: 'patch', disabled: ctx.fields.disabled as boolean } : { type: 'patch' });
  if (value === null) throw new Error('the sync-config machine refused a patch, which it takes in every state');
  const config: SyncConfig = { disabled: value === 'disabled', queueCapacity: capacity };
  const event: SyncConfigChanged = { type: 'sync-config-changed', at: ctx.now, cluster: target.name, config, ...forwarded(ctx, target) };
  return { events: [event], reply: (after) => reply.data(view(after.clusters.named(target.name).sync.config)) };
}

export function reset(ctx: RequestContext): Outcome {
  const target = landing(ctx);
  if ('kind' in target) return target;
  const event: SyncConfigChanged = { type: 'sync-config-changed', at: ctx.now, cluster: target.name, config: null, ...forwarded(ctx, target) };
  return { events: [event], reply: () => reply.data(view(undefined)) };
}

/** Whether one more operation may be queued on a cluster's sync system (the machine's `queue` row), else the refusal. */
export function queueRoom(sync: SyncState): Reply | null {
  const capacity = (sync.config ?? SYNC_CONFIG_DEFAULTS).queueCapacity;
  return stepSyncConfig(syncConfigValue(sync), { type: 'queue', pending: pendingOperations(sync), capacity }) === null ? syncRefusals.queueFull(capacity) : null;
}
