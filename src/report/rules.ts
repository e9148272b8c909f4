// The numbered rules of the spec that the tutorials, the gallery and the refusal registry cite
// (`A.rule7`, `auth.2`, `versioning.2`), in the project's own words, with the files that enforce each.
// docs/rules.md is generated from this table and from the refusal registry (rules-doc.ts): a refusal
// names its rule by id, and a rule no refusal applies (a behaviour, not a refusal) is listed here.

export interface NumberedRule {
  id: string;
  /** How people cite it in prose: "area A rule 7", "Authentication rule 2". */
  cited: string;
  /** The rule, in the project's words. */
  words: string;
  /** Repository files that enforce or implement it. */
  where: string[];
}

export const NUMBERED_RULES: readonly NumberedRule[] = [
  { id: 'A.rule1', cited: 'area A rule 1', words: 'update-primary takes either an activation `token` or `update_primary_addrs`, never both.', where: ['models/replication-role.machine.ts', 'src/areas/replication/decide/update-primary.ts'] },
  {
    id: 'A.rule2',
    cited: 'area A rule 2',
    words: 'with `update_primary_addrs`, the addresses are tried one at a time; the first that answers as a primary taking the secondary\'s credentials becomes its primary. It is a lighter update than a new token.',
    where: ['src/areas/replication/decide/update-primary.ts', 'src/areas/replication/commands/update-primary.ts'],
  },
  { id: 'A.rule3', cited: 'area A rule 3', words: 'a DR secondary that was a primary until a failover (newly demoted) must be given a token to follow the new primary; addresses are refused.', where: ['models/replication-role.machine.ts', 'src/areas/replication/decide/update-primary.ts'] },
  { id: 'A.rule4', cited: 'area A rule 4', words: 'update-primary\'s schema keeps `token` required, but an empty string is allowed: it makes the secondary forget its primary.', where: ['src/areas/replication/decide/update-primary.ts'] },
  { id: 'A.rule5', cited: 'area A rule 5', words: 'update-primary does not wipe the secondary\'s data (enabling a secondary does).', where: ['src/areas/replication/decide/update-primary.ts'] },
  { id: 'A.rule6', cited: 'area A rule 6', words: 'a reindex walks every stored object, so it takes time in proportion to the data.', where: ['src/areas/merkle/decide/reindex.ts'] },
  { id: 'A.rule7', cited: 'area A rule 7', words: 'only one operation-token generation attempt exists at a time; a second start is refused until the first completes or is cancelled.', where: ['src/areas/operation-token/decide/start-attempt.ts', 'src/areas/operation-token/monitors/one-generation-attempt.ts'] },
  {
    id: 'B.rule1',
    cited: 'area B rule 1',
    words: 'a paths filter is keyed by the secondary\'s `cluster_id`; after a new activation token is used with update-primary, the filter must be created again.',
    where: ['src/areas/replication/decide/paths-filter.ts', 'src/areas/replication/filters.ts'],
  },
  {
    id: 'B.rule2',
    cited: 'area B rule 2',
    words: 'in performance update-primary, `token` and `update_primary_addrs` exclude each other, and addresses are tried as in area A rule 2; tokens suit DR secondaries, addresses suit performance secondaries.',
    where: ['models/replication-role.machine.ts', 'src/areas/replication/decide/update-primary.ts'],
  },
  { id: 'B.rule3', cited: 'area B rule 3', words: 'performance replication uses no DR operation token: its calls take an ordinary client token.', where: ['src/areas/replication/routes.ts'] },
  { id: 'D.rule1', cited: 'area D rule 1', words: 'a sync destination is named in the path of its create and update calls; the name is required.', where: ['src/areas/sync/decide/configure-destination.ts'] },
  { id: 'D.rule2', cited: 'area D rule 2', words: 'setting an association starts a sync of the secret; setting it again refreshes it.', where: ['src/areas/sync/decide/set-association.ts', 'src/areas/sync/jobs.ts'] },
  {
    id: 'D.rule3',
    cited: 'area D rule 3',
    words: 'removing an association unsyncs the secret (deletes it in the external store) and reports success when the association is gone, never existed, or the external secret was already deleted.',
    where: ['models/sync-association.machine.ts', 'src/areas/sync/decide/remove-association.ts'],
  },
  { id: 'auth.1', cited: 'Authentication rule 1', words: 'the two replication status reads (DR and performance) need no client token.', where: ['src/areas/replication/routes.ts', 'src/areas/core/http/route.ts'] },
  {
    id: 'auth.2',
    cited: 'Authentication rule 2',
    words: 'on a DR secondary, promote, disable, update-primary, operation-token delete, reindex and merkle-check need a valid DR operation token in `dr_operation_token`.',
    where: ['src/areas/core/http/route.ts', 'src/areas/operation-token/monitors/operation-token-gate.ts'],
  },
  { id: 'auth.3', cited: 'Authentication rule 3', words: 'a DR operation token is as powerful as a root token: generate it from key shares and the attempt\'s nonce when needed, and delete it soon after.', where: ['src/areas/operation-token/decide/give-key-share.ts', 'src/areas/operation-token/decide/delete-operation-token.ts'] },
  { id: 'auth.4', cited: 'Authentication rule 4', words: 'endpoints marked restricted answer only in the root namespace.', where: ['src/areas/core/http/route.ts'] },
  { id: 'auth.5', cited: 'Authentication rule 5', words: 'every endpoint of area C (the plugin runtime catalog) needs `sudo` on its path as well as the path\'s own capability.', where: ['src/areas/plugins/routes.ts', 'src/areas/core/policy.ts'] },
  { id: 'auth.6', cited: 'Authentication rule 6', words: 'replication endpoints need an enterprise licence; the status reads also answer on a managed dedicated cluster.', where: ['src/areas/core/http/route.ts'] },
  { id: 'versioning.1', cited: 'Versioning rule 1', words: 'the `secondary_public_key` parameter exists from version 1.3 on.', where: ['src/areas/replication/decide/secondary-token.ts'] },
  {
    id: 'versioning.2',
    cited: 'Versioning rule 2',
    words: 'when upgrading replicated clusters, upgrade secondaries first: a primary must not run a newer version than its secondaries (replsim reports the `newer-primary` hazard when one does).',
    where: ['src/areas/replication/monitors/newer-primary.ts'],
  },
];

const AREA_ID: Record<string, string> = { a: 'A', b: 'B', c: 'C', d: 'D' };

/**
 * The rule ids a text cites in prose or by id: "area A rule 7", "area A, rule 3", "rule 7 of area A",
 * "Authentication, rule 2", "Versioning rule 2", and the ids themselves (`A.rule3`, `auth.2`).
 */
export function citedRuleIds(text: string): string[] {
  const ids = new Set<string>();
  for (const m of text.matchAll(/\barea ([A-D]),? rule (\d+)/gi)) ids.add(`${AREA_ID[m[1].toLowerCase()]}.rule${m[2]}`);
  for (const m of text.matchAll(/\brule (\d+) of area ([A-D])\b/gi)) ids.add(`${AREA_ID[m[2].toLowerCase()]}.rule${m[1]}`);
  for (const m of text.matchAll(/\bAuthentication,? rule (\d+)/gi)) ids.add(`auth.${m[1]}`);
  for (const m of text.matchAll(/\bVersioning,? rule (\d+)/gi)) ids.add(`versioning.${m[1]}`);
  for (const m of text.matchAll(/`((?:[A-D]\.rule\d+)|(?:auth\.\d+)|(?:versioning\.\d+)|(?:role-table|generation-table|runtime-table)\.[a-z-]+)`/g)) ids.add(m[1]);
  return [...ids].sort();
}
