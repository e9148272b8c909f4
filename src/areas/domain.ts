// Gathers the events, reducers and timed processes of every domain module into the world's tables.
import { merkleProcesses, merkleReducers, type MerkleEvent } from './merkle/merkle.js';
import { operationTokenReducers, type OperationTokenEvent } from './operation-token/operation-token.js';
import { pluginReducers, type PluginEvent } from './plugins/plugins.js';
import { filterReducers, replicatingPerformanceConfiguration, replicationProcesses, replicationReducers, type FilterEvent, type ReplicationEvent } from './replication/index.js';
import { syncProcesses, syncReducers, type SyncEvent } from './sync/sync.js';
import type { TimedProcess } from './cluster/timed.js';

export type DomainEvent = ReplicationEvent | FilterEvent | OperationTokenEvent | MerkleEvent | SyncEvent | PluginEvent;
export const domainReducers = { ...replicatingPerformanceConfiguration(replicationReducers), ...filterReducers, ...operationTokenReducers, ...merkleReducers, ...syncReducers, ...pluginReducers };
export const domainProcesses: TimedProcess[] = [...replicationProcesses, ...merkleProcesses, ...syncProcesses];
