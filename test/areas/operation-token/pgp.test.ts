import * as openpgp from 'openpgp';
import { beforeAll, describe, expect, it } from 'vitest';
import { WorldUsageError, World } from '../../../src/world.js';
import { DR_ATTEMPT, DR_UPDATE, ROOT_ATTEMPT, ROOT_UPDATE, bodyOf, drSecondaryWorld, errorsOf, get, keysOf, plainWorld, post } from './worlds.js';

// Key generation is random: the one crypto step ARCHITECTURE.md exempts from the seed.
let publicKeyB64: string;
let fingerprint: string;
let privateKey: openpgp.PrivateKey;

beforeAll(async () => {
  const generated = await openpgp.generateKey({ type: 'ecc', userIDs: [{ name: 'operator' }], format: 'object' });
  privateKey = generated.privateKey;
  publicKeyB64 = Buffer.from(generated.publicKey.write()).toString('base64');
  fingerprint = privateKey.getFingerprint();
});

async function decrypt(encodedToken: string): Promise<string> {
  const message = await openpgp.readMessage({ binaryMessage: Buffer.from(encodedToken, 'base64') });
  const { data } = await openpgp.decrypt({ message, decryptionKeys: privateKey, format: 'binary' });
  return Buffer.from(data).toString('utf8');
}

/** Starts a PGP attempt and gives shares up to the threshold; only the start and last share need sendAsync. */
async function generateWithPgp(w: World, cluster: string, attempt: string, update: string) {
  const start = bodyOf((await w.sendAsync(cluster, post(attempt, { pgp_key: publicKeyB64 }))).response);
  const keys = keysOf(w, cluster).slice(0, start.required);
  for (const key of keys.slice(0, -1)) w.request(cluster, post(update, { key, nonce: start.nonce }));
  const final = await w.sendAsync(cluster, post(update, { key: keys.at(-1), nonce: start.nonce }));
  return { start, final: bodyOf(final.response), events: final.events };
}

describe('generation attempts with a PGP key', () => {
  it('the attempt shows the key fingerprint and no OTP', async () => {
    const w = drSecondaryWorld();
    const start = bodyOf((await w.sendAsync('west', post(DR_ATTEMPT, { pgp_key: publicKeyB64 }))).response);
    expect(start).toMatchObject({ started: true, pgp_fingerprint: fingerprint, otp: '', otp_length: 28 });
    expect(bodyOf(w.request('west', get(DR_ATTEMPT)))).toMatchObject({ started: true, pgp_fingerprint: fingerprint, otp: '' });
  });

  it('the DR operation token comes encrypted to the key: the private key decrypts it', async () => {
    const w = drSecondaryWorld();
    const { final } = await generateWithPgp(w, 'west', DR_ATTEMPT, DR_UPDATE);
    expect(final).toMatchObject({ complete: true, pgp_fingerprint: fingerprint, encoded_root_token: '' });
    expect(await decrypt(final.encoded_token)).toBe(w.state.clusters.named('west').drOperationToken);
  });

  it('a root token generated with a PGP key decrypts to a working root token', async () => {
    const w = plainWorld();
    const { final } = await generateWithPgp(w, 'east', ROOT_ATTEMPT, ROOT_UPDATE);
    const token = await decrypt(final.encoded_root_token);
    expect(w.state.clusters.named('east').storage.tokens[token]?.policy).toBe('root');
  });

  it('the ciphertext is in the log, so a replay rebuilds the same world', async () => {
    const w = drSecondaryWorld();
    const { final, events } = await generateWithPgp(w, 'west', DR_ATTEMPT, DR_UPDATE);
    expect(events).toMatchObject([{ type: 'generation-completed', encodedToken: final.encoded_token }]);
    expect(World.replay(w.log).stateHash()).toBe(w.stateHash());
  });

  it('World.send refuses the asynchronous requests with a clear error and changes nothing', () => {
    const w = drSecondaryWorld();
    const hash = w.stateHash();
    expect(() => w.send('west', post(DR_ATTEMPT, { pgp_key: publicKeyB64 }))).toThrow(WorldUsageError);
    expect(() => w.send('west', post(DR_ATTEMPT, { pgp_key: publicKeyB64 }))).toThrow(/use sendAsync/);
    expect(w.stateHash()).toBe(hash);
  });

  it('a key that is not a PGP key is refused with error parsing PGP key', async () => {
    const w = drSecondaryWorld();
    const hash = w.stateHash();
    const r = (await w.sendAsync('west', post(DR_ATTEMPT, { pgp_key: Buffer.from('hello world').toString('base64') }))).response;
    expect(r.status).toBe(400);
    expect(errorsOf(r)[0]).toMatch(/^error parsing PGP key: /);
    expect(w.stateHash()).toBe(hash);
  });

  it('a PGP start while an attempt is open is refused as already in progress', async () => {
    const w = drSecondaryWorld();
    w.request('west', post(DR_ATTEMPT));
    const r = (await w.sendAsync('west', post(DR_ATTEMPT, { pgp_key: publicKeyB64 }))).response;
    expect(errorsOf(r)).toEqual(['root generation already in progress']);
  });
});
