// The simulated external secret store behind one sync destination: the secrets it holds, by their
// external name, and the fault it is given (the scenario's `destination-fault`). A store answers a
// sync job the way its real service would: it accepts the writes and deletes, or it is down
// (`unreachable`: the service failed, EXTERNAL_SERVICE_ERROR) or refuses the credentials
// (`unauthorized`: the client's configuration, CLIENT_SIDE_ERROR). Plain data, changed only by the
// world's reducers, so replay rebuilds it.

/** A fault a store can be given; `none` clears it. */
export type DestinationFault = 'unreachable' | 'unauthorized' | 'none';
export const DESTINATION_FAULTS: readonly DestinationFault[] = ['unreachable', 'unauthorized', 'none'];

export interface ExternalStore {
  fault: DestinationFault;
  /** External name → value, as the store holds them. */
  secrets: Record<string, string>;
}

export function newExternalStore(): ExternalStore {
  return { fault: 'none', secrets: {} };
}

/** How a store answers a request: accepted, or refused with the side at fault and its message. */
export type StoreAnswer = { ok: true } | { ok: false; cause: 'external' | 'client'; message: string };

/**
 * The store's answer to a sync job, given its fault. The messages are the simulator's: the
 * service's error codes for failed entries are not public.
 */
export function storeAnswer(store: ExternalStore | undefined, destination: string): StoreAnswer {
  switch (store?.fault ?? 'none') {
    case 'unreachable':
      return { ok: false, cause: 'external', message: `the external service of destination ${destination} did not answer (unreachable)` };
    case 'unauthorized':
      return { ok: false, cause: 'client', message: `the external service of destination ${destination} refused the configured credentials (unauthorized)` };
    default:
      return { ok: true };
  }
}

/**
 * Applies an accepted job to a store (an immer draft): deletes the names no longer wanted, then
 * writes the wanted entries (last write wins). Deleting a name the store does not hold succeeds.
 */
export function applyToStore(store: ExternalStore, remove: readonly string[], put: Record<string, string>): void {
  for (const name of remove) if (!(name in put)) delete store.secrets[name];
  for (const [name, value] of Object.entries(put)) store.secrets[name] = value;
}
