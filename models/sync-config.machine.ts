// The secret sync system of one cluster as a whole (`sys/sync/config`): enabled or disabled, and
// whether its queue of pending operations has room for one more.
//
// "While disabled, actions performed in Vault which trigger a sync operation will instead get
// queued to be processed once syncing is reactivated. Queued operations will have a status of
// PENDING" (the service's sync API page); `queue_capacity` is the "maximum number of pending sync
// operations allowed on the internal queue". DELETE of the configuration gives back the defaults.
//
// The world stores the settings (absent = the defaults) and uses this machine as a pure transition
// function (`stepSyncConfig`): whether jobs run, and whether an operation may be queued.
import { setup } from 'xstate';
import { ask } from './ask.js';

export type SyncConfigValue = 'enabled' | 'disabled';

export type SyncConfigEvent =
  /** PATCH sys/sync/config; `disabled` absent keeps the current value. */
  | { type: 'patch'; disabled?: boolean }
  /** DELETE sys/sync/config: the defaults again (enabled). */
  | { type: 'reset' }
  /** A set or remove of an association queues an operation: only while the queue has room. */
  | { type: 'queue'; pending: number; capacity: number };

export const syncConfigMachine = setup({
  types: { events: {} as SyncConfigEvent },
  guards: {
    disables: ({ event }) => event.type === 'patch' && event.disabled === true,
    enables: ({ event }) => event.type === 'patch' && event.disabled === false,
    room: ({ event }) => event.type === 'queue' && event.pending < event.capacity,
  },
}).createMachine({
  id: 'syncConfig',
  initial: 'enabled',
  states: {
    enabled: {
      on: {
        patch: [{ guard: 'disables', target: 'disabled' }, { target: 'enabled' }],
        reset: { target: 'enabled' },
        queue: { guard: 'room', target: 'enabled' },
      },
    },
    disabled: {
      on: {
        patch: [{ guard: 'enables', target: 'enabled' }, { target: 'disabled' }],
        reset: { target: 'enabled' },
        queue: { guard: 'room', target: 'disabled' },
      },
    },
  },
});

/** The value after `event`, or null when the machine refuses it (a full queue). */
export function stepSyncConfig(value: SyncConfigValue, event: SyncConfigEvent): SyncConfigValue | null {
  const answer = ask(syncConfigMachine, value, undefined, event);
  return 'next' in answer ? (answer.next as SyncConfigValue) : null;
}

/** Whether a cluster whose sync system is in `value` runs its sync jobs. */
export function syncRuns(value: SyncConfigValue): boolean {
  return value === 'enabled';
}
