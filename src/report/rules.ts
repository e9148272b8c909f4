// Which rule of the spec explains a refusal, by the service's error text. Narration prints it under
// a refused request so that a trainee learns the rule, not just the status code.
interface RuleEntry {
  match: RegExp;
  rule: string;
}

const RULES: RuleEntry[] = [
  { match: /path disabled in replication DR secondary mode/, rule: 'a DR secondary serves no client request until it is promoted (only status and its DR endpoints stay open)' },
  { match: /enterprise-only feature/, rule: 'replication and sync endpoints need an enterprise licence (status and sync also accept a managed cluster)' },
  { match: /root namespace/, rule: 'replication endpoints are restricted to the root namespace (Authentication, rule 4)' },
  { match: /permission denied/, rule: "the token's policy lacks the capability for this path (and sudo where the endpoint needs it)" },
  { match: /dr_operation_token|DR operation token/i, rule: 'promote, disable, update-primary, operation-token/delete, reindex and merkle-check on a DR secondary need a valid DR operation token (Authentication, rule 2)' },
  { match: /both|not both|mutually exclusive/i, rule: 'update-primary takes a token or update_primary_addrs, never both (area A rule 1, area B rule 2)' },
  { match: /already in progress/, rule: 'only one generation attempt can exist at a time (area A rule 7)' },
  { match: /no root generation in progress/, rule: 'a key share needs an attempt started first (generation attempt table)' },
  { match: /incorrect nonce/, rule: 'each key share must carry the nonce of the current attempt (generation attempt table)' },
  { match: /already been provided/, rule: 'each key share counts once per attempt' },
  { match: /must be promoted/i, rule: 'a cluster that is already a secondary must be promoted, not enabled as a primary (role table note)' },
  { match: /newly demoted|demoted/i, rule: 'after a failover a newly demoted secondary must be updated with a token, not addresses (area A rule 3)' },
  { match: /another (DR|performance) replication set/, rule: 'update-primary never wipes, so a secondary joins another replication set only by secondary/enable (role table: re-enabling changes the cluster ID)' },
  { match: /cannot promote: replication is in an error state/, rule: 'without force, a promotion waits for the safety checks: initial sync finished, merkle tree not corrupted (role table)' },
  { match: /still manages/, rule: 'a sync destination that still manages associations cannot be deleted (area D errors)' },
  { match: /Registered plugins=/, rule: 'a plugin runtime referenced by a registered plugin cannot be removed (area C)' },
  { match: /cannot be negative/, rule: 'cpu_nanos and memory_bytes are limits, zero or more (area C)' },
  { match: /cannot write to readonly storage/, rule: 'a write to a replicated mount on a performance secondary goes to its primary; without a primary it is read only (area B)' },
  { match: /unsupported path/, rule: 'no endpoint of the spec has this path' },
  { match: /unsupported operation/, rule: 'the path exists but not with this method' },
  { match: /not running \(crashed\)/, rule: 'a crashed cluster answers nothing until it is restarted' },
  { match: /not implemented in replsim/, rule: 'this part of the spec is not simulated yet (see the README, Limits)' },
];

/** The rule that explains an error text, if replsim knows one. */
export function ruleFor(errors: readonly string[]): string | undefined {
  for (const e of errors) for (const r of RULES) if (r.match.test(e)) return r.rule;
  return undefined;
}
