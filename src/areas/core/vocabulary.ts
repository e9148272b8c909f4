// The spec's vocabularies, each defined once here and imported by the scenario schema (and so the
// generated scenarios/schema.json), the docs generators, the monitors and the areas. A leaf: it
// imports nothing, so anything may import it without an import cycle.

/** Invariant ids of invariants.md, which `expect: { violation: <id> }` may name (one monitor each). */
export const INVARIANT_IDS = [
  'wipe-on-enable',
  'cluster-id-rules',
  'one-generation-attempt',
  'operation-token-gate',
  'revoked-stays-barred',
  'filters-respected',
  'dr-secondary-closed',
  'otp-never-returned',
  'convergence',
] as const;
/** An invariant id of invariants.md. */
export type InvariantId = (typeof INVARIANT_IDS)[number];

/** Hazard ids of invariants.md, which `expect: { hazard: <id> }` may name (one monitor each). */
export const HAZARD_IDS = ['two-primaries', 'newer-primary', 'forced-promotion', 'lost-writes', 'unauthenticated-ceremony-open'] as const;
/** A hazard id of invariants.md. */
export type HazardId = (typeof HAZARD_IDS)[number];

/** Policy capabilities a token's policy may grant (the service's words). */
export const CAPABILITIES = ['create', 'read', 'update', 'delete', 'list', 'patch', 'sudo', 'deny'] as const;
/** A policy capability. */
export type Capability = (typeof CAPABILITIES)[number];

/** The two kinds of replication, as their paths spell them (`sys/replication/<kind>/…`). */
export const REPLICATION_KINDS = ['dr', 'performance'] as const;
/** A kind of replication. */
export type ReplicationKind = (typeof REPLICATION_KINDS)[number];
/** A kind in the service's (and the spec's) prose: "DR", "performance". */
export const KIND_WORD: Readonly<Record<ReplicationKind, string>> = { dr: 'DR', performance: 'performance' };

/**
 * Sync destination types of the spec (area D, "Endpoints"): the ones the simulator serves routes for,
 * each described in src/areas/sync/destinations.ts.
 */
export const DESTINATION_TYPES = ['cloudone-sm', 'cloudtwo-kv', 'cloudthree-sm', 'codehost', 'webhost-project'] as const;
/** A sync destination type of the spec. */
export type DestinationType = (typeof DESTINATION_TYPES)[number];
/**
 * Every destination type the service has: the spec's plus its in-memory test type, `in-mem`
 * (vault-api-facts.md §D). A scenario's store reference (`destination-fault`) may name any of them,
 * and the sync area serves all six (the service's API document lists `in-mem` beside the others).
 */
export const SERVICE_DESTINATION_TYPES = [...DESTINATION_TYPES, 'in-mem'] as const;
/** A destination type the service knows. */
export type ServiceDestinationType = (typeof SERVICE_DESTINATION_TYPES)[number];

/** Faults a simulated sync destination can be given (scenario step `destination-fault`); `none` clears the fault. */
export const DESTINATION_FAULTS = ['unreachable', 'unauthorized', 'none'] as const;
/** A fault of a sync destination. */
export type DestinationFault = (typeof DESTINATION_FAULTS)[number];
