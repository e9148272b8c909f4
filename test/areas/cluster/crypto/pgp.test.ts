import * as openpgp from 'openpgp';
import { beforeAll, describe, expect, it } from 'vitest';
import { encryptTokenWithPgp, pgpFingerprint } from '../../../../src/areas/core/crypto/pgp.js';

const TOKEN = 'hvs.ABCDEFGHIJKLMNOPQRSTUVWX';

// Key generation is random: the one crypto step ARCHITECTURE.md exempts from the seed.
let publicKeyB64: string;
let armoredPublicKey: string;
let privateKey: openpgp.PrivateKey;

beforeAll(async () => {
  const generated = await openpgp.generateKey({ type: 'ecc', userIDs: [{ name: 'operator' }], format: 'object' });
  privateKey = generated.privateKey;
  publicKeyB64 = Buffer.from(generated.publicKey.write()).toString('base64');
  armoredPublicKey = generated.publicKey.armor();
});

async function decrypt(encodedToken: string): Promise<string> {
  const message = await openpgp.readMessage({ binaryMessage: Buffer.from(encodedToken, 'base64') });
  const { data } = await openpgp.decrypt({ message, decryptionKeys: privateKey, format: 'binary' });
  return Buffer.from(data).toString('utf8');
}

describe('pgp', () => {
  it('encrypts the token to a base64 binary key; the private key decrypts it back', async () => {
    const encoded = await encryptTokenWithPgp(TOKEN, publicKeyB64);
    expect(encoded).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(await decrypt(encoded)).toBe(TOKEN);
  });

  it('accepts an armored key, and base64 of an armored key, too', async () => {
    expect(await decrypt(await encryptTokenWithPgp(TOKEN, armoredPublicKey))).toBe(TOKEN);
    const b64Armored = Buffer.from(armoredPublicKey).toString('base64');
    expect(await decrypt(await encryptTokenWithPgp(TOKEN, b64Armored))).toBe(TOKEN);
  });

  it('reports the key fingerprint as lowercase hex, the same for every form of the key', async () => {
    const fingerprint = await pgpFingerprint(publicKeyB64);
    expect(fingerprint).toMatch(/^[0-9a-f]{40}$/);
    expect(fingerprint).toBe(privateKey.getFingerprint());
    expect(await pgpFingerprint(armoredPublicKey)).toBe(fingerprint);
  });

  it('names a value that is not base64 as a decoding error', async () => {
    await expect(pgpFingerprint('not base64!')).rejects.toThrow(
      'error parsing PGP key: error decoding given PGP key: illegal base64 data',
    );
  });

  it('names base64 that is not a key as a parsing error', async () => {
    await expect(pgpFingerprint(Buffer.from('hello world').toString('base64'))).rejects.toThrow(
      /^error parsing PGP key: error parsing given PGP key: /,
    );
    await expect(encryptTokenWithPgp(TOKEN, 'aGVsbG8=')).rejects.toThrow(/^error parsing PGP key: /);
  });
});
