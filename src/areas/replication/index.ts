// Replication, DR and performance alike: the events, their reducers, the streaming process, the
// status record, activation tokens, what a secondary receives (with performance's paths filters),
// and how DR carries performance replication. Everything here takes the kind as a parameter; the
// API modules of each kind (replication-dr, replication-performance) wire it.
export * from './events.js';
export { replicationReducers } from './evolve.js';
export { replicationStatus, secondaryProgress } from './status.js';
export { replicatedStorage, replicationScopes, wipedStorage, type ReplicationScope } from './scope.js';
export { acceptsCredentials, advertisedClusterAddr, clusterAt, credentialsRevoked, followersOf, isConnected, linkDown } from './link.js';
export { redeemActivationToken, sealedActivationToken, signingKeyOf, wrappedActivationToken, type Redeemed, type SealedCredentials } from './activation.js';
export { checkLink } from './streaming.js';
export {
  dynamicFilterOf,
  excludedFor,
  filterFor,
  filterIncludesMount,
  filterIncludesNamespace,
  filterReducers,
  namespaceExcludedFor,
  normaliseFilterPath,
} from './filters.js';
export { replicatingPerformanceConfiguration } from './interplay.js';
