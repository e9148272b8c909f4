// The refusals of the client endpoints a cluster serves beside the spec's tables (KV, sys/health,
// wrapping, token lookup), registered once (kernel/refusal.ts). These are the service's
// behaviour from the facts file, outside the spec's areas: their rule ids start with `facts.`.
import { defineRefusals } from '../../kernel/refusal.js';
import { multierror } from '../../kernel/http/http.js';

const rule = (id: string, words: string) => ({ id, words });

export const clusterRefusals = defineRefusals('cluster', {
  /** 2.x: a generation endpoint called without a token it takes (CVE-2026-5807); the text is the service's 403. */
  generationNeedsToken: {
    status: 403,
    wording: 'service',
    text: () => [multierror('permission denied')],
    rule: rule('v2.auth', 'from 2.0.0 (1.19.17) the generation endpoints need a valid Vault token as well as key shares, unless the server\'s enable_unauthenticated_access names the family (on a DR secondary: a batch token of its keyring, or its primary\'s root token)'),
  },
  uncleanedPath: {
    status: 400,
    wording: 'simulator',
    text: (path: string) => [`the path ${JSON.stringify(path)} is not clean (it holds /../, /./ or //)`],
    rule: rule('v2.paths', 'from 2.0.0 (1.21.5, 1.20.10, 1.19.16) paths holding /../, /./ or // are rejected; the service\'s status and text are not documented'),
  },
  tokenHeaderTooLarge: {
    status: 431,
    wording: 'simulator',
    text: (limit: number) => [`the token header is larger than max_token_header_size (${limit} bytes)`],
    rule: rule('v2.header', 'from 2.0.0 a token header over max_token_header_size (8192 bytes by default) gets 431 before token validation'),
  },
  // sys/mounts (the service's system backend).
  mountTypeMissing: { status: 400, wording: 'service', text: () => ['backend type must be specified as a string'], rule: rule('mounts.enable', 'a secrets engine is enabled with its type') },
  mountInUse: { status: 400, wording: 'service', text: (at: string) => [`path is already in use at ${at}`], rule: rule('mounts.enable', 'a mount path may not be, hold or lie under another mount') },
  noMountAt: { status: 400, wording: 'service', text: (path: string) => [`No secret engine mount at ${path}`], rule: rule('mounts.read', 'a mount is read at the path it was enabled at') },
  /** The service's text (vault/logical/framework) for a KV write with no data. */
  missingData: { status: 400, wording: 'service', text: () => ['missing data fields'], rule: rule('facts.kv', 'a KV write must carry at least one field of data') },
  // KV-v2 (hashicorp/vault-plugin-secrets-kv path_data.go, path_metadata.go): the service's texts.
  /** A metadata write to the mount's `metadata/` itself (no key). */
  missingPath: { status: 400, wording: 'service', text: () => ['missing path'], rule: rule('facts.kv-metadata', "a KV-v2 metadata write names the key whose metadata it sets: <mount>/metadata/<path>") },
  /** A data write without `options.cas` where the mount's config or the key's metadata sets cas_required. */
  casRequired: {
    status: 400,
    wording: 'service',
    text: () => ['check-and-set parameter required for this call'],
    rule: rule('facts.kv-cas', "where the mount's config or the key's metadata sets cas_required, every KV-v2 data write must carry options.cas"),
  },
  /** `options.cas` is not the key's current version (0: the key must not exist yet). */
  casMismatch: {
    status: 400,
    wording: 'service',
    text: () => ['check-and-set parameter did not match the current version'],
    rule: rule('facts.kv-cas', "a KV-v2 data write with options.cas is applied only when cas equals the key's current version (0 for a key with no versions)"),
  },
  /** `options.cas` that is not a number. */
  casUnparsable: {
    status: 400,
    wording: 'service',
    text: () => ['error parsing check-and-set parameter'],
    rule: rule('facts.kv-cas', 'options.cas of a KV-v2 data write is a version number'),
  },
  /** custom_metadata that breaks the service's bounds; the texts are the service's, listed as its multierror does. */
  customMetadataInvalid: {
    status: 400,
    wording: 'service',
    text: (problems: readonly string[]) => [problems.length === 1 ? `1 error occurred:\n\t* ${problems[0]}\n\n` : `${problems.length} errors occurred:\n${problems.map((p) => `\t* ${p}`).join('\n')}\n\n`],
    rule: rule('facts.kv-metadata', 'custom_metadata holds at most 64 keys, each key 1-128 and each value 1-512 printable characters'),
  },
  /** A custom_metadata value that is not a string, number or boolean (the service's weak decoding fails). */
  customMetadataType: {
    status: 400,
    wording: 'simulator',
    text: (key: string) => [`custom_metadata validation failed: value for key ${JSON.stringify(key)} must be a string, a number or a boolean`],
    rule: rule('facts.kv-metadata', 'custom_metadata maps keys to string values'),
  },
  /** sys/health's `?standbycode=abc`: the service's text. */
  badStatusCode: { status: 400, wording: 'service', text: (name: string, raw: string) => [`unable to parse ${name} code: ${raw}`], rule: rule('facts.health', "sys/health's status-code parameters are three-digit HTTP codes") },
  /** The service's text for a wrapping token it does not know (used, expired, or never issued). */
  invalidWrappingToken: {
    status: 400,
    wording: 'service',
    text: () => ['wrapping token is not valid or does not exist'],
    rule: rule('facts.wrapping', 'a wrapping token is unwrapped once, before it expires, on the cluster that issued it'),
  },
});
