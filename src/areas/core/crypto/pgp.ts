// PGP encryption of a generated token for the `pgp_key` option. OpenPGP session keys are random by
// design, so this is the one crypto step a replay cannot redo: the log keeps its ciphertext instead.
// openpgp.js only offers async functions, so these are async too.
import * as openpgp from 'openpgp';

const BASE64_STD = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const ARMOR_HEADER = '-----BEGIN PGP';

/** The token encrypted to the key, as base64 of the binary OpenPGP message (Vault's encoded_token). */
export async function encryptTokenWithPgp(token: string, pgpKey: string): Promise<string> {
  const key = await readPgpKey(pgpKey);
  const message = await openpgp.createMessage({ binary: new TextEncoder().encode(token) });
  try {
    const encrypted = await openpgp.encrypt({ message, encryptionKeys: key, format: 'binary' });
    return Buffer.from(encrypted).toString('base64');
  } catch (cause) {
    throw new Error(`error encrypting with PGP key: ${reason(cause)}`);
  }
}

/** The key's fingerprint in lowercase hex, as Vault reports it in pgp_fingerprint. */
export async function pgpFingerprint(pgpKey: string): Promise<string> {
  return (await readPgpKey(pgpKey)).getFingerprint();
}

async function readPgpKey(pgpKey: string): Promise<openpgp.Key> {
  const source = decodePgpKey(pgpKey);
  try {
    return 'armoredKey' in source ? await openpgp.readKey(source) : await openpgp.readKey(source);
  } catch (cause) {
    throw new Error(`error parsing PGP key: error parsing given PGP key: ${reason(cause)}`);
  }
}

/** A `pgp_key` value is base64 of a binary key, as Vault expects, or armored text for convenience. */
function decodePgpKey(pgpKey: string): { armoredKey: string } | { binaryKey: Uint8Array } {
  if (pgpKey.includes(ARMOR_HEADER)) return { armoredKey: pgpKey };
  const compact = pgpKey.replace(/[\r\n]/g, '');
  if (compact.length === 0 || !BASE64_STD.test(compact)) {
    throw new Error('error parsing PGP key: error decoding given PGP key: illegal base64 data');
  }
  const decoded = Buffer.from(compact, 'base64');
  // Some people base64 the armored file rather than the key itself.
  if (decoded.subarray(0, ARMOR_HEADER.length).toString('latin1') === ARMOR_HEADER) {
    return { armoredKey: decoded.toString('utf8') };
  }
  return { binaryKey: new Uint8Array(decoded) };
}

function reason(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
