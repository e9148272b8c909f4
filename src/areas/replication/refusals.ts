// Every refusal of the replication endpoints (spec areas A and B, the role table), registered once:
// code, status, text, and the spec rule it applies. Texts take the kind's word (`DR`,
// `performance`) as their first parameter. Simulator wording unless marked `service`: the facts
// file has no text for most of these (its gap 2); each names the cause and the fix.
import { defineRefusals } from '../../kernel/refusal.js';
import { multierror } from '../../kernel/http/http.js';

const rule = (id: string, words: string) => ({ id, words });
const sim = 'simulator' as const;

export const replicationRefusals = defineRefusals('replication', {
  nothingToRecover: {
    status: 400,
    wording: sim,
    text: () => ['replication is not enabled on this cluster: there is nothing to recover'],
    rule: rule('recover', 'recover attempts recovery of replication in an adverse state: a cluster with replication enabled'),
  },
  alreadyPrimary: { status: 400, wording: sim, text: (K: string) => [`this cluster is already a ${K} primary`], rule: rule('role-table.primary-enable', 'primary/enable needs replication currently disabled (role table)') },
  mustPromote: {
    status: 400,
    wording: sim,
    text: (K: string) => [`this cluster is a ${K} secondary: a secondary must be promoted (secondary/promote), not enabled as a primary`],
    rule: rule('role-table.note', 'a cluster that is already a secondary must be promoted, not enabled as a primary (role table note)'),
  },
  notPrimary: {
    status: 400,
    wording: sim,
    text: (K: string, mode: string) => [`this cluster is not a ${K} primary (its ${K} mode is ${mode}): run this on the ${K} primary`],
    rule: rule('role-table.primary', 'demote, disable, secondary tokens and revocation are calls of a primary (role table: their From state is primary)'),
  },
  /** The service's text for DR (facts file, gap 2; seen on a primary's dr/secondary/disable in hashicorp/vault#19603). */
  notSecondary: { status: 400, wording: 'service', text: (K: string) => [`Not a ${K} secondary.`], rule: rule('role-table.secondary', 'promote, secondary/disable and update-primary are calls of a secondary (role table: their From state is secondary)') },
  primaryCannotEnableSecondary: {
    status: 400,
    wording: sim,
    text: (K: string) => [`this cluster is a ${K} primary: disable ${K} replication on it before enabling it as a ${K} secondary`],
    rule: rule('role-table.secondary-enable', 'secondary/enable starts from disabled (role table)'),
  },
  alreadySecondary: {
    status: 400,
    wording: sim,
    text: (K: string) => [`this cluster is already a ${K} secondary: use secondary/update-primary to give it another primary`],
    rule: rule('role-table.secondary-enable', 'secondary/enable starts from disabled; a secondary changes primary by update-primary (role table)'),
  },
  drSecondaryAlone: {
    status: 400,
    wording: sim,
    text: () => ['a DR secondary is read only, so no other replication may run beside it: disable performance replication on this cluster first'],
    rule: rule('role-table.secondary-enable', 'enabling a DR secondary clears all data in the cluster, so no performance replication may run beside it (role table)'),
  },
  missingId: { status: 400, wording: 'service', text: () => ['missing id'], rule: rule('A.secondary-token', 'secondary-token and revoke-secondary name the secondary by id (required)') },
  missingToken: { status: 400, wording: 'service', text: () => ['missing token'], rule: rule('role-table.secondary-enable', 'secondary/enable needs a valid activation token (role table)') },
  duplicateId: {
    status: 400,
    wording: sim,
    text: (id: string) => [`a secondary with the id "${id}" already exists: revoke it first, or use another id`],
    rule: rule('A.secondary-token', 'each secondary of a primary has its own id'),
  },
  unknownId: { status: 400, wording: sim, text: (id: string) => [`no secondary with the id "${id}" is known to this primary`], rule: rule('role-table.revoke-secondary', 'revoke-secondary names a secondary the primary knows, by id (role table)') },
  alreadyRevoked: {
    status: 400,
    wording: sim,
    text: (id: string) => [`the secondary "${id}" is already revoked: issue it a new token to let it back`],
    rule: rule('role-table.revoke-secondary', 'a revoked secondary stays barred until given a new activation token (role table)'),
  },
  badTtl: { status: 400, wording: sim, text: () => ['ttl must be a duration of at least one second, such as "30m"'], rule: rule('limits.ttl', 'an activation token\'s ttl is a duration (default 30m)') },
  publicKeyTooOld: {
    status: 400,
    wording: sim,
    text: (since: string, version: string) => [`secondary_public_key needs version ${since} or later on the primary; this cluster runs ${version}`],
    rule: rule('versioning.1', 'the secondary_public_key parameter is available from version 1.3 on (Versioning, rule 1)'),
  },
  badPublicKey: {
    status: 400,
    wording: sim,
    text: () => ['secondary_public_key is not a valid public key: give the base64 value that secondary/generate-public-key returned'],
    rule: rule('A.secondary-token', 'secondary_public_key is the key secondary/generate-public-key returned'),
  },
  unsafePromotion: {
    status: 400,
    wording: sim,
    text: (reasons: readonly string[]) => [
      `cannot promote: replication is in an error state (${reasons.join('; ')}); set force=true to promote anyway, which loses whatever the primary had not yet replicated`,
    ],
    rule: rule('role-table.promote', 'without force, a promotion waits for the safety checks: initial sync finished, merkle tree not corrupted (role table)'),
  },
  tokenAndAddresses: {
    status: 400,
    wording: sim,
    text: () => ['update-primary takes a token or update_primary_addrs, not both'],
    rule: rule('A.rule1', 'update-primary takes a token or update_primary_addrs, never both (area A rule 1, area B rule 2)'),
  },
  neitherTokenNorAddresses: {
    status: 400,
    wording: sim,
    text: () => ['update-primary needs a token or update_primary_addrs (an empty token makes the cluster forget its primary)'],
    rule: rule('A.rule4', 'update-primary needs a token (an empty one is allowed) or update_primary_addrs (area A rule 4)'),
  },
  addressesAfterDemotion: {
    status: 400,
    wording: sim,
    text: (K: string) => [`a newly demoted ${K} secondary must be updated with a token; update_primary_addrs is not allowed until it has followed a primary`],
    rule: rule('A.rule3', 'after a failover a newly demoted secondary must be updated with a token, not addresses (area A rule 3)'),
  },
  otherReplicationSet: {
    status: 400,
    wording: sim,
    text: (K: string, theirs: string, ours: string) => [
      `the primary that issued this token belongs to another ${K} replication set (cluster_id ${theirs}; this secondary's is ${ours}): update-primary does not wipe, so join that set with secondary/disable then secondary/enable, which wipes this cluster`,
    ],
    rule: rule('role-table.update-primary', 'update-primary never wipes, so a secondary joins another replication set only by secondary/enable (role table: re-enabling changes the cluster ID)'),
  },
  addressesWithoutPrimary: {
    status: 400,
    wording: sim,
    text: (K: string) => [
      `this ${K} secondary has forgotten its primary (update-primary with an empty token), and with it the credentials an address update reuses: update it with a token`,
    ],
    rule: rule('A.rule2', 'update_primary_addrs reuses the credentials of the current primary: a secondary that forgot its primary needs a token (area A rule 2)'),
  },
  noAddressAnswered: {
    status: 400,
    wording: sim,
    text: (K: string, addrs: readonly string[]) => [`none of update_primary_addrs answered as the ${K} primary of this replication set: ${addrs.join(', ')}`],
    rule: rule('A.rule2', 'the addresses of update_primary_addrs are pinged; one must answer as the primary of this set (area A rule 2)'),
  },

  // Redeeming an activation token (secondary/enable, update-primary with a token): role table, "valid activation token".
  tokenUndecodable: {
    status: 400,
    wording: sim,
    text: () => ['error decoding secondary activation token: the token is not a valid activation token'],
    rule: rule('role-table.secondary-enable', 'secondary/enable needs a valid activation token (role table)'),
  },
  unwrapUnreachable: {
    status: 500,
    wording: 'service',
    text: (address: string, hostPort: string) => [multierror(`error unwrapping secondary token: Post "${address}/v1/sys/wrapping/unwrap": dial tcp ${hostPort}: i/o timeout`)],
    rule: rule('role-table.secondary-enable', 'a wrapped activation token is redeemed by calling its primary to unwrap it: the primary must be reachable'),
  },
  unwrapRefused: {
    status: 500,
    wording: 'service',
    text: () => [multierror('error response unwrapping secondary token; status code is 400, message is "400 Bad Request"')],
    rule: rule('role-table.secondary-enable', 'the primary unwraps only a token it issued, unexpired, unused and not revoked (role table: valid activation token)'),
  },
  issuerNotPrimary: {
    status: (_K: string, _address: string, sealed: string) => (sealed === 'sealed' ? 400 : 500),
    wording: sim,
    text: (K: string, address: string, sealed: string) => {
      const message = `error activating secondary: the cluster that issued this token (${address}) is no longer a ${K} primary; ask the set's current primary for a new token`;
      return [sealed === 'sealed' ? message : multierror(message)];
    },
    rule: rule('role-table.secondary-enable', "an activation token is valid only while its issuer is still the primary of its replication set (role table: valid activation token)"),
  },
  tokenNotForUs: {
    status: 400,
    wording: sim,
    text: (K: string, kind: string) => [
      `invalid secondary activation token: it is neither a wrapped token nor credentials encrypted to this cluster's ${K} public key (call ${kind}/secondary/generate-public-key before the primary issues the token)`,
    ],
    rule: rule('role-table.secondary-enable', 'secondary/enable needs a valid activation token: a sealed one is encrypted to this cluster\'s public key (role table)'),
  },
  tokenOtherKind: {
    status: 400,
    wording: sim,
    text: (tokenK: string, K: string) => [`invalid secondary activation token: it was issued for ${tokenK} replication, not ${K}`],
    rule: rule('role-table.secondary-enable', 'an activation token activates a secondary of the kind it was issued for (role table: valid activation token)'),
  },
  tokenExpired: {
    status: 400,
    wording: sim,
    text: () => ['secondary activation token has expired: ask the primary for a new one'],
    rule: rule('limits.ttl', 'an activation token expires after its ttl (default 30m)'),
  },
  tokenRevoked: {
    status: 400,
    wording: sim,
    text: (id: string) => [`secondary activation token was revoked on the primary (secondary id "${id}")`],
    rule: rule('role-table.revoke-secondary', 'a revoked secondary stays barred until given a new activation token (role table)'),
  },
  tokenUsed: {
    status: 400,
    wording: sim,
    text: () => ['secondary activation token has already been used: each token activates one secondary once'],
    rule: rule('role-table.secondary-enable', 'an activation token activates one secondary, once (role table: valid activation token)'),
  },

  // Writes to a performance secondary (area B: writes go to the primary).
  readOnly: {
    status: 500,
    wording: 'service',
    text: () => [multierror('cannot write to readonly storage')],
    rule: rule('B.writes', 'a write to a replicated mount on a performance secondary goes to its primary; without a primary it is read only (area B)'),
  },
  /** Simulator wording: the service's text for a forwarding failure is not public. */
  forwardingFailed: {
    status: 500,
    wording: sim,
    text: (primaryApiAddr: string, down: string) => [
      multierror(`error forwarding the write to the performance primary at ${primaryApiAddr}: it cannot be reached as this secondary's primary (${down})`),
    ],
    rule: rule('B.writes', 'a write to a replicated mount on a performance secondary is forwarded to its primary, which must be reachable (area B)'),
  },

  // Paths filters and dynamic filters (area B). Simulator wording: the service's texts are not public.
  badFilterMode: { status: 400, wording: sim, text: (mode: string) => [`invalid mode "${mode}": a paths filter's mode is "allow" or "deny"`], rule: rule('B.paths-filter', "a paths filter's mode is allow or deny (Resources: paths filter)") },
  emptyFilterPath: {
    status: 400,
    wording: sim,
    text: () => ['paths must be mount or namespace paths such as "secret/" or "team-a/"; an empty path was given'],
    rule: rule('B.paths-filter', 'a paths filter lists mount or namespace paths (Resources: paths filter)'),
  },
  filterRevoked: {
    status: 400,
    wording: sim,
    text: (id: string) => [`the secondary "${id}" is revoked: issue it a new token, then set its filter`],
    rule: rule('B.rule1', 'after a new secondary token is used, the filters must be created again (area B rule 1)'),
  },
  noPrimaryToFilter: {
    status: 400,
    wording: sim,
    text: () => ['this performance secondary follows no primary, so nothing is filtered for it: give it a primary with secondary/update-primary'],
    rule: rule('B.dynamic-filter', 'a secondary reads the dynamic filter its primary applies to it'),
  },
  notThisSecondary: {
    status: 400,
    wording: sim,
    text: (own: string, id: string) => [`this performance secondary's id is "${own}", not "${id}": read its dynamic filter by its own id, or read any secondary's on the primary`],
    rule: rule('B.rule1', 'in the filter calls :id is the secondary cluster ID; a secondary reads only its own (area B rule 1)'),
  },
});
