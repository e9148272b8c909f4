// Gathers the events, reducers and timed processes of every domain module into the world's tables.
import { merkleProcesses, merkleReducers } from './merkle/merkle.js';
import { operationTokenReducers } from './operation-token/operation-token.js';
import { pluginReducers } from './plugins/plugins.js';
import { filterReducers, replicatingPerformanceConfiguration, replicationProcesses, replicationReducers } from './replication/index.js';
import { syncProcesses, syncReducers } from './sync/sync.js';
import { withWalSnapshots } from './replication/shipping.js';
import type { TimedProcess } from './cluster/timed.js';
import { coreReducers } from './cluster/reducers.js';
import type { SimEvent } from './cluster/events.js';
import type { SimState } from './cluster/state.js';
import type { ReducerTable } from '../kernel/engine.js';
import { networkReducers } from '../kernel/network.js';

export type { DomainEvent } from './cluster/events.js';
export const domainReducers = { ...replicatingPerformanceConfiguration(replicationReducers), ...filterReducers, ...operationTokenReducers, ...merkleReducers, ...syncReducers, ...pluginReducers };
export const domainProcesses: TimedProcess[] = [...replicationProcesses, ...merkleProcesses, ...syncProcesses];

/** Every reducer of the world: the cluster's core, the network's and every area's (replay and the monitors' fold use the same). */
// Each followed by the upkeep of what a primary held as of the WALs still in flight (replication/shipping.ts).
export const reducers = withWalSnapshots({ ...coreReducers, ...networkReducers, ...domainReducers } as ReducerTable<SimState, SimEvent>);
