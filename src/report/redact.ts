// Secrets are shortened wherever replsim shows a value to people: tokens, OTPs, key shares,
// wrapped activation tokens. Enough stays to tell two apart, never enough to use.
import { shorten } from '../scenario/runner.js';

const SECRET_KEYS = new Set([
  'token', 'dr_operation_token', 'otp', 'key', 'keys', 'encoded_token', 'encoded_root_token', 'secondary_public_key', 'client_token',
  'accessor', 'wrapped_accessor', 'credentials', 'access_token', 'client_secret', 'secret_access_key', 'private_key', 'pgp_key',
]);
const SECRET_VALUE = /^(hvs\.|hvb\.|hvr\.|eyJ)[A-Za-z0-9._-]{8,}/;

/** A copy of a value with every secret-looking string shortened. */
export function redact(value: unknown, key?: string): unknown {
  if (typeof value === 'string') return (key !== undefined && SECRET_KEYS.has(key) && value.length > 6) || SECRET_VALUE.test(value) ? shorten(value) : value;
  if (Array.isArray(value)) return value.map((v) => redact(v, key));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, k)]));
  return value;
}
