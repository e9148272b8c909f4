// What the replication endpoints' decisions share (decide/<endpoint>.ts, one per endpoint, for both
// kinds: the kind is a parameter): the refusals with the kind's word filled in, the service's
// warnings on role changes, the DR operation token field, and the accepted outcome. Error texts are
// the service's where known (vault-api-facts.md, or confirmed by search as noted), otherwise
// simulator wording that names the cause and the fix (refusals.ts).
import { askRole, modeOf, NO_ROW, type RoleEvent, type RoleValue } from '../../../../models/replication-role.machine.js';
import { errors, type Reply } from '../../../kernel/http/http.js';
import type { Outcome } from '../../core/http/route.js';
import type { ClusterState, ReplicationKind } from '../../core/state.js';
import { reply } from '../../../kernel/http/http.js';
import { KIND_WORD } from '../../core/vocabulary.js';
import type { ReplicationEvent } from '../events.js';
import { replicationRefusals as R } from '../refusals.js';
import { SECONDARY_PUBLIC_KEY_SINCE } from '../versions.js';

/** The service's warnings on role changes (confirmed in HashiCorp's replication guides and API samples). */
export const WARNINGS = {
  primaryEnabled: 'This cluster is being enabled as a primary for replication. Vault will be unavailable for a brief period and will resume service shortly.',
  demoted: 'This cluster is being demoted to a replication secondary. Vault will be unavailable for a brief period and will resume service shortly.',
  disabled: 'This cluster is having replication disabled. Vault will be unavailable for a brief period and will resume service shortly.',
  promoted: 'This cluster is being promoted to a replication primary. Vault will be unavailable for a brief period and will resume service shortly.',
  secondaryFound: 'Vault has successfully found secondary information; it may take a while to perform setup tasks. Vault will be unavailable until these tasks and initial sync complete.',
};

/** The replication refusals (refusals.ts), with the kind's word filled in. */
export function replicationErrors(kind: ReplicationKind) {
  const K = KIND_WORD[kind];
  return {
    alreadyPrimary: () => R.alreadyPrimary(K),
    mustPromote: () => R.mustPromote(K),
    notPrimary: (c: ClusterState) => R.notPrimary(K, modeOf(c.replication[kind].role)),
    notSecondary: () => R.notSecondary(K),
    primaryCannotEnableSecondary: () => R.primaryCannotEnableSecondary(K),
    alreadySecondary: () => R.alreadySecondary(K),
    drSecondaryAlone: () => R.drSecondaryAlone(),
    missingId: () => R.missingId(),
    missingToken: () => R.missingToken(),
    duplicateId: (id: string) => R.duplicateId(id),
    unknownId: (id: string) => R.unknownId(id),
    alreadyRevoked: (id: string) => R.alreadyRevoked(id),
    badTtl: () => R.badTtl(),
    publicKeyTooOld: (version: string) => R.publicKeyTooOld(SECONDARY_PUBLIC_KEY_SINCE, version),
    badPublicKey: () => R.badPublicKey(),
    unsafePromotion: (reasons: string[]) => R.unsafePromotion(reasons),
    tokenAndAddresses: () => R.tokenAndAddresses(),
    neitherTokenNorAddresses: () => R.neitherTokenNorAddresses(),
    addressesAfterDemotion: () => R.addressesAfterDemotion(K),
    otherReplicationSet: (theirs: string, ours: string) => R.otherReplicationSet(K, theirs, ours),
    addressesWithoutPrimary: () => R.addressesWithoutPrimary(K),
    noAddressAnswered: (addrs: string[]) => R.noAddressAnswered(K, addrs),
  };
}

/**
 * DR's secondary-side calls declare `dr_operation_token` (checked by the authorisation step, never
 * read by a handler); performance's do not, so there it is an unrecognised parameter.
 */
export function operationTokenField(kind: ReplicationKind): { dr_operation_token: { type: 'string' } } {
  return (kind === 'dr' ? { dr_operation_token: { type: 'string' } } : {}) as { dr_operation_token: { type: 'string' } };
}

/** The paths of one kind: `sys/replication/dr`, `sys/replication/performance`. */
export const prefix = (kind: ReplicationKind) => `sys/replication/${kind}`;

/** An accepted request: its events, and the empty reply or the service's warning. */
export function accepted(events: ReplicationEvent[], warning?: string): Outcome {
  return { events, reply: () => (warning ? reply.data(null, { warnings: [warning] }) : reply.empty()) };
}

/**
 * How a request's refusals read, by the role machine's reason: `NO_ROW` (the role has no row for the
 * request; given the mode the cluster is in, which the service's text names) and each guard that can
 * fail. The DR operation token's guard reads as the authorisation step's refusal.
 */
export type RoleRefusals = { [NO_ROW]: (mode: 'disabled' | 'primary' | 'secondary') => Reply } & Record<string, (mode: 'disabled' | 'primary' | 'secondary') => Reply>;

/** Asks the role machine about the request with the facts given: the role it moves to, or the refusal registered for why not. */
export function askRoleOf(kind: ReplicationKind, c: ClusterState, event: RoleEvent, refusals: RoleRefusals): { next: RoleValue } | { refusal: Reply; refused: string } {
  const role = c.replication[kind].role;
  const answer = askRole(kind, role, event);
  if ('next' in answer) return { next: answer.next as RoleValue };
  const mode = modeOf(role);
  if (answer.refused === 'hasOperationTokenIfDr') return { refusal: errors.invalidOperationToken(), refused: answer.refused };
  const refusal = refusals[answer.refused];
  if (!refusal) throw new Error(`the role machine refused ${event.type} by "${answer.refused}", which has no refusal registered`);
  return { refusal: refusal(mode), refused: answer.refused };
}
