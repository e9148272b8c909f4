// One test per row of area A's endpoint table (generation attempts, operation-token/delete, reindex
// and merkle-check are covered with their own modules), plus the authorisation every row declares.
import { describe, expect, it } from 'vitest';
import { decodeActivationClaims } from '../../../src/areas/core/crypto/activation-token.js';
import { World } from '../../../src/world.js';
import { epochSeconds, rfc3339 } from '../../../src/kernel/clock.js';
import {
  DR,
  bodyOf,
  dataOf,
  drOperationToken,
  drPair,
  drStatus,
  drWorld,
  enablePrimary,
  enableSecondary,
  expectOk,
  expectRefused,
  get,
  operationTokensBuilt,
  post,
  rootOf,
  secondaryToken,
  writeKv,
} from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ROLE_CHANGE_WARNING = /Vault will be unavailable for a brief period and will resume service shortly\.$/;

describe('GET sys/replication/dr/status', () => {
  it('is unauthenticated and answers the record of a disabled cluster', () => {
    const w = drWorld();
    const r = get(w, 'east', `${DR}/status`);
    expect(r.status).toBe(200);
    expect(dataOf(r)).toEqual({ mode: 'disabled' });
  });

  it('accepts a managed cluster and refuses one without an enterprise licence', () => {
    const w = World.create({ m: { license: 'managed' }, ce: { license: 'none' } });
    expect(dataOf(get(w, 'm', `${DR}/status`))).toEqual({ mode: 'disabled' });
    expectRefused(get(w, 'ce', `${DR}/status`), 404, 'enterprise-only feature');
  });

  it('stays open on a DR secondary', () => {
    const w = drWorld();
    drPair(w);
    expect(get(w, 'west', `${DR}/status`).status).toBe(200);
  });
});

describe('POST sys/replication/dr/primary/enable', () => {
  it('makes the cluster a primary with a new cluster id, answering the service warning', () => {
    const w = drWorld();
    const r = expectOk(post(w, 'east', `${DR}/primary/enable`));
    expect(bodyOf(r)).toMatchObject({ data: null, warnings: [expect.stringMatching(/^This cluster is being enabled as a primary for replication\./)] });
    const s = drStatus(w, 'east');
    expect(s).toMatchObject({ mode: 'primary', state: 'running', primary_cluster_addr: '' });
    expect(s.cluster_id).toMatch(UUID);
  });

  it('keeps primary_cluster_addr for its secondaries', () => {
    const w = drWorld();
    enablePrimary(w, 'east', { primary_cluster_addr: 'https://lb.example:8201' });
    expect(drStatus(w, 'east').primary_cluster_addr).toBe('https://lb.example:8201');
    enableSecondary(w, 'east', 'west');
    expect(drStatus(w, 'west')).toMatchObject({ primary_cluster_addr: 'https://lb.example:8201', known_primary_cluster_addrs: ['https://lb.example:8201'] });
  });
});

describe('POST sys/replication/dr/primary/demote', () => {
  it('makes the primary a secondary that keeps its cluster id and follows nobody', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    const id = drStatus(w, 'east').cluster_id;
    const r = expectOk(post(w, 'east', `${DR}/primary/demote`));
    expect(bodyOf(r).warnings[0]).toMatch(/^This cluster is being demoted to a replication secondary\./);
    expect(drStatus(w, 'east')).toMatchObject({ mode: 'secondary', cluster_id: id, state: 'idle', connection_state: 'idle', primaries: [] });
  });
});

describe('POST sys/replication/dr/primary/disable', () => {
  it('turns DR replication off on the primary', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    const r = expectOk(post(w, 'east', `${DR}/primary/disable`));
    expect(bodyOf(r).warnings[0]).toMatch(ROLE_CHANGE_WARNING);
    expect(drStatus(w, 'east')).toEqual({ mode: 'disabled' });
  });
});

describe('POST sys/replication/dr/primary/secondary-token', () => {
  it('answers data null and a wrap_info whose token is a signed JWT for the primary', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    w.advance(5000);
    const r = expectOk(post(w, 'east', `${DR}/primary/secondary-token`, { id: 'west' }));
    const body = bodyOf(r);
    expect(body.data).toBeNull();
    expect(body.wrap_info).toEqual({
      token: expect.any(String),
      accessor: expect.stringMatching(UUID),
      ttl: 1800,
      creation_time: rfc3339(5000),
      creation_path: 'sys/replication/dr/primary/secondary-token',
    });
    const claims = decodeActivationClaims(body.wrap_info.token);
    expect(claims).toEqual({ addr: w.state.clusters.named('east').apiAddr, iat: epochSeconds(5000), exp: epochSeconds(5000) + 1800, jti: expect.stringMatching(UUID), type: 'wrapping' });
    expect(drStatus(w, 'east').known_secondaries).toEqual(['west']);
  });

  it('takes a ttl', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    const body = bodyOf(post(w, 'east', `${DR}/primary/secondary-token`, { id: 'west', ttl: '5m' }));
    expect(body.wrap_info.ttl).toBe(300);
    const claims = decodeActivationClaims(body.wrap_info.token)!;
    expect(claims.exp - claims.iat).toBe(300);
  });

  it('needs sudo', () => {
    const w = World.create({
      east: {
        tokens: {
          ops: { policy: { 'sys/replication/*': ['create', 'read', 'update', 'delete', 'list'] } },
          admin: { policy: { 'sys/replication/*': ['create', 'read', 'update', 'delete', 'list', 'sudo'] } },
        },
      },
    });
    enablePrimary(w, 'east');
    expectRefused(post(w, 'east', `${DR}/primary/secondary-token`, { id: 'a' }, w.tokenNamed('east', 'ops')), 403, 'permission denied');
    expectOk(post(w, 'east', `${DR}/primary/secondary-token`, { id: 'a' }, w.tokenNamed('east', 'admin')));
  });
});

describe('POST sys/replication/dr/primary/revoke-secondary', () => {
  it('revokes by id: the id leaves known_secondaries and its secondary disconnects', () => {
    const w = drWorld();
    drPair(w);
    const r = post(w, 'east', `${DR}/primary/revoke-secondary`, { id: 'west' });
    expect(r.status).toBe(204);
    expect(drStatus(w, 'east').known_secondaries).toEqual([]);
    expect(drStatus(w, 'west').connection_state).toBe('transient_failure');
  });
});

describe('POST sys/replication/dr/secondary/generate-public-key', () => {
  it('answers a fresh X25519 public key and keeps the key pair on the cluster', () => {
    const w = drWorld();
    const r = expectOk(post(w, 'west', `${DR}/secondary/generate-public-key`));
    const key = dataOf(r).secondary_public_key;
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
    expect(w.state.clusters.named('west').secondaryKeys.dr?.publicKey).toBe(key);
  });
});

describe('POST sys/replication/dr/secondary/enable', () => {
  it('needs a token', () => {
    const w = drWorld();
    expectRefused(post(w, 'west', `${DR}/secondary/enable`, {}), 400, 'missing token');
  });

  it('makes the cluster a secondary of the token’s primary, answering the service warning', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    const r = expectOk(post(w, 'west', `${DR}/secondary/enable`, { token: secondaryToken(w, 'east', 'west') }));
    expect(bodyOf(r).warnings).toEqual([
      'Vault has successfully found secondary information; it may take a while to perform setup tasks. Vault will be unavailable until these tasks and initial sync complete.',
    ]);
    expect(drStatus(w, 'west')).toMatchObject({ mode: 'secondary', cluster_id: drStatus(w, 'east').cluster_id, secondary_id: 'west' });
  });

  it('accepts primary_api_addr, ca_file and ca_path without a warning', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    const body = { token: secondaryToken(w, 'east', 'west'), primary_api_addr: w.state.clusters.named('east').apiAddr, ca_file: '/etc/ca.pem', ca_path: '/etc/ca' };
    const r = expectOk(post(w, 'west', `${DR}/secondary/enable`, body));
    expect(bodyOf(r).warnings).toHaveLength(1);
  });
});

describe.skipIf(!operationTokensBuilt)('the DR secondary calls that take a DR operation token', () => {
  it('secondary/promote needs dr_operation_token and promotes', () => {
    const w = drWorld();
    drPair(w);
    expectRefused(post(w, 'west', `${DR}/secondary/promote`, {}), 400, /DR operation token was not provided/);
    expectRefused(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: 'hvs.wrong' }), 400, 'invalid DR operation token');
    const r = expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: drOperationToken(w, 'west', 'east'), primary_cluster_addr: 'https://west-lb:8201' }));
    expect(bodyOf(r).warnings[0]).toMatch(/^This cluster is being promoted to a replication primary\./);
    expect(drStatus(w, 'west')).toMatchObject({ mode: 'primary', primary_cluster_addr: 'https://west-lb:8201' });
  });

  it('secondary/disable needs dr_operation_token and disables', () => {
    const w = drWorld();
    drPair(w);
    expectRefused(post(w, 'west', `${DR}/secondary/disable`, {}), 400, /DR operation token was not provided/);
    const r = expectOk(post(w, 'west', `${DR}/secondary/disable`, { dr_operation_token: drOperationToken(w, 'west', 'east') }));
    expect(bodyOf(r).warnings[0]).toMatch(/^This cluster is having replication disabled\./);
    expect(drStatus(w, 'west')).toEqual({ mode: 'disabled' });
  });

  it('secondary/update-primary needs dr_operation_token and re-points the secondary', () => {
    const w = drWorld();
    drPair(w);
    expectRefused(post(w, 'west', `${DR}/secondary/update-primary`, { token: '' }), 400, /DR operation token was not provided/);
    const op = drOperationToken(w, 'west', 'east');
    const token = secondaryToken(w, 'east', 'west-2');
    const r = expectOk(post(w, 'west', `${DR}/secondary/update-primary`, { dr_operation_token: op, token, primary_api_addr: '', ca_file: '', ca_path: '' }));
    expect(bodyOf(r).warnings).toHaveLength(1);
    expect(drStatus(w, 'west')).toMatchObject({ mode: 'secondary', secondary_id: 'west-2', state: 'idle', connection_state: 'connecting' });
  });
});

describe('restricted-root and enterprise-only: every DR endpoint but status', () => {
  const paths = [
    'primary/enable',
    'primary/demote',
    'primary/disable',
    'primary/secondary-token',
    'primary/revoke-secondary',
    'secondary/generate-public-key',
    'secondary/enable',
    'secondary/promote',
    'secondary/disable',
    'secondary/update-primary',
  ];

  it.each(paths)('%s is refused from a namespace', (p) => {
    const w = World.create({ east: { namespaces: ['team-a'] } });
    const r = w.request('east', { method: 'POST', path: `${DR}/${p}`, body: {}, token: w.tokenNamed('east', 'root'), namespace: 'team-a' });
    expectRefused(r, 400, 'root namespace');
  });

  it.each(paths)('%s needs an enterprise licence (a managed cluster is not enough)', (p) => {
    const w = World.create({ m: { license: 'managed' } });
    expectRefused(post(w, 'm', `${DR}/${p}`, {}), 404, 'enterprise-only feature');
  });

  it('the client-token calls refuse a request without a token', () => {
    const w = drWorld();
    expectRefused(post(w, 'east', `${DR}/primary/enable`, {}, null), 403, 'permission denied');
  });

  it('a refused request changes nothing and draws nothing', () => {
    const w = drWorld();
    const [hash, length] = [w.stateHash(), w.log.length];
    post(w, 'east', `${DR}/primary/demote`);
    post(w, 'east', `${DR}/primary/secondary-token`, { id: 'x' });
    post(w, 'west', `${DR}/secondary/enable`, { token: 'nonsense' });
    expect([w.stateHash(), w.log.length]).toEqual([hash, length]);
    // The generator did not move: the next draw is the one an untouched twin makes.
    const twin = drWorld();
    enablePrimary(w, 'east');
    enablePrimary(twin, 'east');
    expect(drStatus(w, 'east').cluster_id).toBe(drStatus(twin, 'east').cluster_id);
  });
});

describe('a DR secondary serves no client request', () => {
  it('refuses a KV read and a KV write with the service error', () => {
    const w = drWorld();
    drPair(w);
    writeKv(w, 'east', 'app', { v: 1 });
    w.advance(1000);
    const root = rootOf(w, 'east');
    expectRefused(get(w, 'west', 'secret/data/app', root), 400, 'path disabled in replication DR secondary mode');
    expectRefused(writeKv(w, 'west', 'app', { v: 2 }, root), 400, 'path disabled in replication DR secondary mode');
    expectRefused(post(w, 'west', `${DR}/primary/enable`, {}, root), 400, 'path disabled in replication DR secondary mode');
  });
});
