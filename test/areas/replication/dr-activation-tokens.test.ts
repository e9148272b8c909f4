// Secondary activation tokens: the wrapped JWT (redeemed by calling the primary, so the primary must
// be reachable), the sealed form for a `secondary_public_key` (no call needed), single use,
// expiry, revocation and the id's uniqueness.
import { describe, expect, it } from 'vitest';
import { verifyActivationTokenSync } from '../../../src/areas/core/crypto/activation-token.js';
import { signingKeyOf } from '../../../src/areas/replication/index.js';
import { World } from '../../../src/world.js';
import { epochSeconds } from '../../../src/kernel/clock.js';
import { DR, bodyOf, dataOf, drStatus, drWorld, enablePrimary, expectOk, expectRefused, post, rootOf, secondaryToken } from './helpers.js';

const UNWRAP_REFUSED = '1 error occurred:\n\t* error response unwrapping secondary token; status code is 400, message is "400 Bad Request"\n\n';
const enable = (w: World, cluster: string, body: Record<string, unknown>) => post(w, cluster, `${DR}/secondary/enable`, body);

describe('wrapped activation tokens', () => {
  it('are signed by the primary, deterministically from the seed', () => {
    const tokenOf = () => {
      const w = drWorld({ seed: 9 });
      enablePrimary(w, 'east');
      return { w, token: secondaryToken(w, 'east', 'west') };
    };
    const { w, token } = tokenOf();
    expect(tokenOf().token).toBe(token);
    const check = verifyActivationTokenSync(signingKeyOf(w.state.clusters.named('east')).publicKey, token, epochSeconds(w.now));
    expect(check.ok).toBe(true);
  });

  it('are single use', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    const token = secondaryToken(w, 'east', 'west');
    expectOk(enable(w, 'west', { token }));
    const r = enable(w, 'south', { token });
    expect(r).toEqual({ status: 500, body: { errors: [UNWRAP_REFUSED] } });
    expect(w.state.clusters.named('south').replication.dr.role).toBe('disabled');
  });

  it('expire after their ttl', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    const token = secondaryToken(w, 'east', 'west', { ttl: '10m' });
    w.advance(10 * 60_000);
    expect(enable(w, 'west', { token })).toEqual({ status: 500, body: { errors: [UNWRAP_REFUSED] } });
    expect(w.state.clusters.named('west').replication.dr.role).toBe('disabled');
  });

  it('need the primary reachable when redeemed: the unwrap call fails over a partition or to a crashed primary, and nothing is wiped', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    const token = secondaryToken(w, 'east', 'west');
    const mounts = w.state.clusters.named('west').storage.mounts;
    const failed = '1 error occurred:\n\t* error unwrapping secondary token: Post "https://east.replsim.test:8200/v1/sys/wrapping/unwrap": dial tcp east.replsim.test:8200: i/o timeout\n\n';
    w.partition(['east', 'west']);
    expect(enable(w, 'west', { token })).toEqual({ status: 500, body: { errors: [failed] } });
    w.heal('all');
    w.crash('east');
    expect(enable(w, 'west', { token })).toEqual({ status: 500, body: { errors: [failed] } });
    expect(w.state.clusters.named('west').storage.mounts).toBe(mounts);
    w.restart('east');
    expectOk(enable(w, 'west', { token }));
  });

  it('are unwrapped at primary_api_addr when it is given', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    const token = secondaryToken(w, 'east', 'west');
    expectRefused(enable(w, 'west', { token, primary_api_addr: 'https://lb.example:8200' }), 500, 'Post "https://lb.example:8200/v1/sys/wrapping/unwrap": dial tcp lb.example:8200');
    // Another cluster cannot unwrap a token it did not sign.
    enablePrimary(w, 'south');
    expectRefused(enable(w, 'west', { token, primary_api_addr: w.state.clusters.named('south').apiAddr }), 500, 'error response unwrapping secondary token');
    expectOk(enable(w, 'west', { token, primary_api_addr: w.state.clusters.named('east').clusterAddr }));
  });

  it('cannot be redeemed once their id is revoked', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    const token = secondaryToken(w, 'east', 'west');
    expect(post(w, 'east', `${DR}/primary/revoke-secondary`, { id: 'west' }).status).toBe(204);
    expectRefused(enable(w, 'west', { token }), 500, 'error response unwrapping secondary token');
    // A new token for the same id may be issued after revocation, and works.
    expectOk(enable(w, 'west', { token: secondaryToken(w, 'east', 'west') }));
  });

  it('are refused when malformed', () => {
    const w = drWorld();
    expectRefused(enable(w, 'west', { token: 'a.b.c' }), 400, 'error decoding secondary activation token');
    expectRefused(enable(w, 'west', { token: '   ' }), 400, 'missing token');
  });
});

describe('activation tokens sealed to a secondary_public_key', () => {
  function sealedFor(w: World, secondary: string, id = secondary, body: Record<string, unknown> = {}) {
    const key = dataOf(expectOk(post(w, secondary, `${DR}/secondary/generate-public-key`))).secondary_public_key;
    return bodyOf(expectOk(post(w, 'east', `${DR}/primary/secondary-token`, { id, secondary_public_key: key, ...body })));
  }

  it('answer the credentials in data instead of wrap_info (simulator field names: id, token, ttl)', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    const body = sealedFor(w, 'west');
    expect(body.wrap_info).toBeNull();
    expect(body.data).toEqual({ id: 'west', token: expect.any(String), ttl: 1800 });
    expect(body.data.token).not.toContain('.');
  });

  it('activate without calling the primary: it may be unreachable, the secondary connects when it can', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    const { data } = sealedFor(w, 'west');
    w.partition(['east', 'west']);
    expectOk(enable(w, 'west', { token: data.token }));
    w.advance(5000);
    expect(drStatus(w, 'west')).toMatchObject({ mode: 'secondary', connection_state: 'transient_failure', cluster_id: drStatus(w, 'east').cluster_id });
    w.heal('all');
    w.advance(1000);
    expect(drStatus(w, 'west')).toMatchObject({ connection_state: 'ready', state: 'stream-wals' });
  });

  it('open only with the key pair they were sealed to', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    const { data } = sealedFor(w, 'west');
    expectRefused(enable(w, 'south', { token: data.token }), 400, 'invalid secondary activation token');
    expectOk(post(w, 'south', `${DR}/secondary/generate-public-key`));
    expectRefused(enable(w, 'south', { token: data.token }), 400, 'invalid secondary activation token');
  });

  it('are single use and expire', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    const { data } = sealedFor(w, 'west', 'west', { ttl: '1m' });
    w.advance(61_000);
    expectRefused(enable(w, 'west', { token: data.token }), 400, 'expired');
    const fresh = sealedFor(w, 'west', 'west-2').data.token;
    expectOk(enable(w, 'west', { token: fresh }));
    expect(w.state.clusters.named('east').replication.dr.issued['west-2'].usedBy).toBe('west');
  });

  it('need version 1.3.0 or later on the primary, and a valid key', () => {
    const w = World.create({ old: { version: '1.2.4' }, east: {}, west: {} });
    enablePrimary(w, 'old');
    enablePrimary(w, 'east');
    const key = dataOf(post(w, 'west', `${DR}/secondary/generate-public-key`)).secondary_public_key;
    expectRefused(post(w, 'old', `${DR}/primary/secondary-token`, { id: 'west', secondary_public_key: key }), 400, 'needs version 1.3.0 or later');
    expectRefused(post(w, 'east', `${DR}/primary/secondary-token`, { id: 'west', secondary_public_key: 'not-a-key' }), 400, 'secondary_public_key is not a valid public key');
    expect(Object.keys(w.state.clusters.named('old').replication.dr.issued)).toEqual([]);
  });
});

describe('secondary ids', () => {
  it('are required and unique among unrevoked tokens', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    expectRefused(post(w, 'east', `${DR}/primary/secondary-token`, {}), 400, 'missing id');
    secondaryToken(w, 'east', 'west');
    expectRefused(post(w, 'east', `${DR}/primary/secondary-token`, { id: 'west' }), 400, 'a secondary with the id "west" already exists');
    expect(post(w, 'east', `${DR}/primary/revoke-secondary`, { id: 'west' }).status).toBe(204);
    secondaryToken(w, 'east', 'west');
    expect(drStatus(w, 'east').known_secondaries).toEqual(['west']);
  });

  it('must be known to be revoked, and are revoked once', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    expectRefused(post(w, 'east', `${DR}/primary/revoke-secondary`, { id: 'ghost' }), 400, 'no secondary with the id "ghost"');
    secondaryToken(w, 'east', 'west');
    post(w, 'east', `${DR}/primary/revoke-secondary`, { id: 'west' });
    expectRefused(post(w, 'east', `${DR}/primary/revoke-secondary`, { id: 'west' }), 400, 'already revoked');
    expectRefused(post(w, 'east', `${DR}/primary/revoke-secondary`, {}), 400, 'missing id');
  });

  it('are issued and revoked only on a primary', () => {
    const w = drWorld();
    expectRefused(post(w, 'east', `${DR}/primary/secondary-token`, { id: 'west' }), 400, 'this cluster is not a DR primary (its DR mode is disabled)');
    expectRefused(post(w, 'east', `${DR}/primary/revoke-secondary`, { id: 'west' }), 400, 'not a DR primary');
    expectRefused(post(w, 'east', `${DR}/primary/demote`, {}, rootOf(w, 'east')), 400, 'not a DR primary');
    expectRefused(post(w, 'east', `${DR}/primary/disable`), 400, 'not a DR primary');
    expectRefused(post(w, 'east', `${DR}/primary/secondary-token`, { id: 'x', ttl: '0s' }), 400, 'not a DR primary');
    enablePrimary(w, 'east');
    expectRefused(post(w, 'east', `${DR}/primary/secondary-token`, { id: 'x', ttl: '0s' }), 400, 'ttl must be a duration');
  });
});
