// The simulated external secret store behind a sync destination. It is outside every cluster: the
// world holds one store per destination (by the destination's key, `<namespace><type>/<name>`),
// whichever cluster's sync jobs write to it, so a promoted DR secondary syncs to the very store its
// former primary wrote, and sees what is there. A cluster reaches a store over the simulated
// network: the store is a node named by that key, so a `partition` can cut the path between a
// cluster and a store. A store holds the secrets, by their external name, the fault it is given (the
// scenario's `destination-fault`), and who touched it: how many operations it accepted and from
// which clusters (what `inspect` shows, so that a scenario can check that only the active primary
// writes there). It answers a sync job the way its real service would: it accepts the writes and
// deletes, or it is down (`unreachable`: the service failed, EXTERNAL_SERVICE_ERROR) or refuses the
// credentials (`unauthorized`: the client's configuration, CLIENT_SIDE_ERROR). Plain data, changed
// only by the world's reducers, so replay rebuilds it.

/** A fault a store can be given; `none` clears it. */
import { DESTINATION_FAULTS, SERVICE_DESTINATION_TYPES, type DestinationFault } from '../core/vocabulary.js';
export { DESTINATION_FAULTS, type DestinationFault };

export interface ExternalStore {
  fault: DestinationFault;
  /** External name → value, as the store holds them. */
  secrets: Record<string, string>;
  /** Sync and unsync operations the store accepted (a job that failed never reached it, or was refused). */
  operations: number;
  /** The clusters whose jobs it accepted, in name order. */
  writers: string[];
}

export function newExternalStore(): ExternalStore {
  return { fault: 'none', secrets: {}, operations: 0, writers: [] };
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
 * Applies an accepted job from `cluster` to a store (an immer draft): deletes the names no longer
 * wanted, then writes the wanted entries (last write wins). Deleting a name the store does not
 * hold succeeds.
 */
export function applyToStore(store: ExternalStore, remove: readonly string[], put: Record<string, string>, cluster: string): void {
  for (const name of remove) if (!(name in put)) delete store.secrets[name];
  for (const [name, value] of Object.entries(put)) store.secrets[name] = value;
  store.operations += 1;
  if (!store.writers.includes(cluster)) store.writers = [...store.writers, cluster].sort();
}

/**
 * A store named in a scenario (`inspect: { store: codehost/gh1 }`, a `partition` with a store):
 * `<type>/<name>`, or `<namespace>/<type>/<name>` for a destination made in a namespace. The name
 * is the store's key, which is also its node on the simulated network. Returns null when the text
 * is not of that form; `types` are the destination types a store can be of.
 */
export function parseStoreRef(ref: string, types: readonly string[]): { key: string } | null {
  const parts = ref.split('/');
  if (parts.length < 2 || parts.some((p) => p === '')) return null;
  const type = parts[parts.length - 2];
  if (!types.includes(type)) return null;
  return { key: parts.join('/') };
}

/** Whether a network node name is a store's (it holds a `/`; cluster names never do). */
export function isStoreNode(node: string): boolean {
  return node.includes('/');
}

/** Why a scenario cannot name `name` as a store: there is none by that name (null when there is). */
export function missingStore(stores: Readonly<Record<string, ExternalStore>>, name: string): string | null {
  if (Object.hasOwn(stores, name)) return null;
  const known = Object.keys(stores).sort();
  return `no external store "${name}" (${known.length ? `stores: ${known.join(', ')}` : 'none yet: a store appears when a sync destination is created, POST sys/sync/destinations/<type>/<name>'})`;
}

/** How a scenario names a store, for its errors. */
export const STORE_REF_HELP = `a store is named <type>/<name> (or <namespace>/<type>/<name>), the type one of ${SERVICE_DESTINATION_TYPES.join(', ')}, like codehost/gh1`;

/** Whether a scenario's text names a store, of any destination type the service has. */
export function isStoreRef(ref: string): boolean {
  return parseStoreRef(ref, SERVICE_DESTINATION_TYPES) !== null;
}
