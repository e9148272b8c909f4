// Gathers the events, reducers and timed processes of every domain module into the world's tables.
import { merkleProcesses, merkleReducers } from './merkle/merkle.js';
import { operationTokenReducers } from './operation-token/operation-token.js';
import { pluginReducers } from './plugins/plugins.js';
import { filterReducers, replicatingPerformanceConfiguration, replicationProcesses, replicationReducers } from './replication/index.js';
import { syncProcesses, syncReducers } from './sync/sync.js';
import type { TimedProcess } from './cluster/timed.js';

export type { DomainEvent } from './cluster/events.js';
export const domainReducers = { ...replicatingPerformanceConfiguration(replicationReducers), ...filterReducers, ...operationTokenReducers, ...merkleReducers, ...syncReducers, ...pluginReducers };
export const domainProcesses: TimedProcess[] = [...replicationProcesses, ...merkleProcesses, ...syncProcesses];
