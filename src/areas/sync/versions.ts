// The destination body parameters that came with a later version of the service (vault-2x-facts.md
// §1 rows 8a–8d, dated by the Enterprise API document's history): a cluster on an older version
// does not know them, so it ignores them as the service ignores any unknown parameter, with its
// "Endpoint ignored these unrecognized parameters" warning, and stores nothing of them.
import semver from 'semver';
import type { DestinationType } from './destinations.js';

const CLOUDS: readonly DestinationType[] = ['cloudone-sm', 'cloudtwo-kv', 'cloudthree-sm'];
const ALL: 'all' = 'all';

/** Parameter → the first version that takes it, and the types that take it then. */
export const SYNC_FIELDS_SINCE: Record<string, { since: string; types: readonly DestinationType[] | typeof ALL }> = {
  // 2.0.0: force delete on every type, workload identity federation on the cloud stores.
  force_delete: { since: '2.0.0', types: ALL },
  identity_token_audience: { since: '2.0.0', types: CLOUDS },
  identity_token_key: { since: '2.0.0', types: CLOUDS },
  identity_token_ttl: { since: '2.0.0', types: CLOUDS },
  service_account_email: { since: '2.0.0', types: ['cloudthree-sm'] },
  // 2.1.0: customer-managed keys and replica regions.
  kms_key_id: { since: '2.1.0', types: ['cloudone-sm', 'cloudthree-sm'] },
  replica_regions: { since: '2.1.0', types: ['cloudone-sm', 'cloudthree-sm'] },
  // The 1.21 line: a code host on GitHub Enterprise Server.
  enterprise_url: { since: '1.21.0', types: ['codehost'] },
};

const parse = (v: string) => semver.coerce(v) ?? semver.parse('0.0.0')!;

/** The parameters of `given` a cluster on `version` does not know for a destination of `type`, sorted. */
export function unknownToVersion(version: string, type: DestinationType, given: Iterable<string>): string[] {
  const v = parse(version);
  const out: string[] = [];
  for (const k of given) {
    const rule = Object.prototype.hasOwnProperty.call(SYNC_FIELDS_SINCE, k) ? SYNC_FIELDS_SINCE[k] : undefined;
    if (!rule || (rule.types !== ALL && !rule.types.includes(type))) continue;
    if (semver.lt(v, parse(rule.since))) out.push(k);
  }
  return out.sort();
}
