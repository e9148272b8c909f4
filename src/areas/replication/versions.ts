// Versions the replication rules compare (spec, Versioning): semantic-version order, and the
// version from which a primary accepts `secondary_public_key`.
import semver from 'semver';

/** The version from which a primary accepts `secondary_public_key` (spec, Versioning 1). */
export const SECONDARY_PUBLIC_KEY_SINCE = '1.3.0';

/**
 * Semantic-version order, by the `semver` package npm uses: a pre-release comes before its release
 * (1.16.0-rc1 < 1.16.0), build metadata such as "+ent" is ignored. A version that is not semver
 * (scenario files are checked, so only a hand-built world has one) is read as its leading numbers.
 */
export function versionAtLeast(version: string, minimum: string): boolean {
  const read = (v: string) => semver.parse(v, { loose: true }) ?? semver.coerce(v) ?? semver.parse('0.0.0')!;
  return semver.gte(read(version), read(minimum));
}
