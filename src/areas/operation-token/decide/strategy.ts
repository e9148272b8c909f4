// The two ways to reach the generation machinery (Vault's generate-root), which the decisions of
// the attempt endpoints take as a parameter: the DR operation token at
// sys/replication/dr/secondary/generate-operation-token (only on a DR secondary) and a new root token
// at sys/generate-root (closed on a DR secondary by the authorisation step).
import type { GenerationStrategy } from '../../../../models/generation-attempt.machine.js';
import { isDrSecondary } from '../../core/http/authorize.js';
import type { ClusterState } from '../../core/state.js';
import type { Reply } from '../../../kernel/http/http.js';
import { operationTokenRefusals as T } from '../refusals.js';

/** Simulator wording: Vault's text for a DR-secondary endpoint on another kind of cluster is not public (facts file, gap 2). */
export function notDrSecondary(path: string, hint = ''): Reply {
  return T.notDrSecondary(path, hint);
}

export interface Strategy {
  strategy: GenerationStrategy;
  attemptPath: string;
  updatePath: string;
  what: string;
  /** A refusal before anything else (the DR strategy exists only on a DR secondary). */
  precondition(cluster: ClusterState, path: string): Reply | null;
}

export const drStrategy: Strategy = {
  strategy: 'dr-operation-token',
  attemptPath: 'sys/replication/dr/secondary/generate-operation-token/attempt',
  updatePath: 'sys/replication/dr/secondary/generate-operation-token/update',
  what: 'DR operation token',
  precondition: (cluster, path) => (isDrSecondary(cluster) ? null : notDrSecondary(path, '; use sys/generate-root/attempt to generate a root token instead')),
};

export const rootStrategy: Strategy = {
  strategy: 'root',
  attemptPath: 'sys/generate-root/attempt',
  updatePath: 'sys/generate-root/update',
  what: 'root token',
  precondition: () => null,
};
