// The rules that depend on the version a cluster runs, each with the versions the service's
// documentation gives for it (its important-changes pages and the Enterprise OpenAPI's history).
// A cluster's version is its scenario's `version` (default 1.16.0), so a file that pins none keeps
// the rules of 1.16.
import semver from 'semver';

const read = (v: string) => semver.parse(v, { loose: true }) ?? semver.coerce(v) ?? semver.parse('0.0.0')!;

/** Whether `version` is at least the first of `since` on its own minor line, or at least `from` (the next major). */
function fixedIn(version: string, from: string, backports: readonly string[]): boolean {
  const v = read(version);
  if (semver.gte(v, read(from))) return true;
  return backports.some((b) => {
    const f = read(b);
    return v.major === f.major && v.minor === f.minor && semver.gte(v, f);
  });
}

/**
 * The generation endpoints (`sys/replication/dr/secondary/generate-operation-token/*`,
 * `sys/generate-root/*`, `sys/rekey/*`) need a valid token as well as key shares (CVE-2026-5807):
 * from 2.0.0, and 1.19.17 on the 1.19 line. 1.20.x and 1.21.x are not listed and keep the old rule.
 */
export function generationNeedsToken(version: string): boolean {
  return fixedIn(version, '2.0.0', ['1.19.17']);
}

/** `enable_unauthenticated_access` exists from 2.0.0 (whether 1.19.17 has it is not documented: replsim says it does, since it has the rule it relaxes). */
export function hasUnauthenticatedAccessSetting(version: string): boolean {
  return generationNeedsToken(version);
}

/** A DR secondary accepts root tokens issued on its primary: from 2.0.0, and 1.19.17. */
export function drSecondaryTakesRootTokens(version: string): boolean {
  return fixedIn(version, '2.0.0', ['1.19.17']);
}

/** An attribute given twice in one block of a policy is an error from 2.1.0. */
export function strictPolicyAttributes(version: string): boolean {
  return fixedIn(version, '2.1.0', []);
}

/** Paths holding `/../`, `/./` or `//` are refused: 2.0.0, 1.21.5, 1.20.10, 1.19.16 and later. */
export function rejectsUncleanedPaths(version: string): boolean {
  return fixedIn(version, '2.0.0', ['1.21.5', '1.20.10', '1.19.16']);
}

/** A token header longer than this is refused with 431 before the token is looked at: from 2.0.0 (`max_token_header_size`). */
export function tokenHeaderLimit(version: string): number | null {
  return fixedIn(version, '2.0.0', []) ? 8192 : null;
}

/** The families `enable_unauthenticated_access` may name. */
export const UNAUTHENTICATED_FAMILIES = ['rekey', 'generate-root', 'generate-operation-token'] as const;
export type UnauthenticatedFamily = (typeof UNAUTHENTICATED_FAMILIES)[number];
