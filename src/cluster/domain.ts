// Gathers the events, reducers and timed processes of every domain module into the world's tables.
import { merkleProcesses, merkleReducers, type MerkleEvent } from './merkle.js';
import { operationTokenReducers, type OperationTokenEvent } from './operation-token.js';
import { replicationProcesses, replicationReducers, type ReplicationEvent } from './replication/index.js';
import type { TimedProcess } from './timed.js';

export type DomainEvent = ReplicationEvent | OperationTokenEvent | MerkleEvent;
export const domainReducers = { ...replicationReducers, ...operationTokenReducers, ...merkleReducers };
export const domainProcesses: TimedProcess[] = [...replicationProcesses, ...merkleProcesses];
