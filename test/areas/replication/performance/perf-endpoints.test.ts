// One test (or a few) per row of area B's endpoint table, driven through the API; data is checked by
// reading it on the clusters, as an operator would.
import { describe, expect, it } from 'vitest';
import { World } from '../../../../src/world.js';
import {
  PERF,
  bodyOf,
  dataOf,
  enablePerfPrimary,
  enablePerfSecondary,
  expectOk,
  expectRefused,
  get,
  kvValue,
  perfPair,
  perfStatus,
  perfToken,
  perfWorld,
  post,
  rootOf,
  rootTokenOn,
  setFilter,
  writeKv,
} from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('GET sys/replication/performance/status', () => {
  it('is unauthenticated and answers {mode: disabled} on a cluster that does not replicate', () => {
    const w = perfWorld();
    const r = get(w, 'east', `${PERF}/status`);
    expect(r.status).toBe(200);
    expect(dataOf(r)).toEqual({ mode: 'disabled' });
  });

  it('answers the primary and secondary records, with last_performance_wal on the primary', () => {
    const w = perfWorld();
    perfPair(w);
    const east = perfStatus(w, 'east');
    expect(east).toMatchObject({ mode: 'primary', state: 'running', known_secondaries: ['west'], secondaries: [{ node_id: 'west', connection_status: 'connected' }] });
    expect(east.last_performance_wal).toBe(east.last_wal);
    expect(perfStatus(w, 'west')).toMatchObject({ mode: 'secondary', cluster_id: east.cluster_id, secondary_id: 'west', state: 'stream-wals', connection_state: 'ready', last_remote_wal: east.last_wal });
  });

  it('accepts a managed cluster and refuses one without an enterprise licence', () => {
    const w = World.create({ m: { license: 'managed' }, ce: { license: 'none' } });
    expect(dataOf(get(w, 'm', `${PERF}/status`))).toEqual({ mode: 'disabled' });
    expectRefused(get(w, 'ce', `${PERF}/status`), 404, 'enterprise-only feature');
  });

  it('is also reported under sys/replication/status beside DR', () => {
    const w = perfWorld();
    perfPair(w);
    expect(dataOf(get(w, 'west', 'sys/replication/status'))).toEqual({ dr: { mode: 'disabled' }, performance: perfStatus(w, 'west') });
  });
});

describe('POST sys/replication/performance/primary/enable', () => {
  it('makes the cluster a performance primary with a new cluster id and the service warning', () => {
    const w = perfWorld();
    const r = expectOk(post(w, 'east', `${PERF}/primary/enable`));
    expect(bodyOf(r).warnings[0]).toMatch(/^This cluster is being enabled as a primary for replication\./);
    expect(perfStatus(w, 'east')).toMatchObject({ mode: 'primary', primary_cluster_addr: '' });
    expect(perfStatus(w, 'east').cluster_id).toMatch(UUID);
  });

  it('gives secondaries primary_cluster_addr, or its configured cluster address when unset', () => {
    const w = perfWorld();
    enablePerfPrimary(w, 'east', { primary_cluster_addr: 'https://perf-lb.example:8201' });
    enablePerfSecondary(w, 'east', 'west');
    expect(perfStatus(w, 'west')).toMatchObject({ primary_cluster_addr: 'https://perf-lb.example:8201', known_primary_cluster_addrs: ['https://perf-lb.example:8201'] });
    const v = perfWorld();
    enablePerfPrimary(v, 'east');
    enablePerfSecondary(v, 'east', 'west');
    expect(perfStatus(v, 'west').known_primary_cluster_addrs).toEqual([v.state.clusters.named('east').clusterAddr]);
  });

  it('refuses a cluster that is already a primary, and a secondary, which must be promoted instead', () => {
    const w = perfWorld();
    const westRoot = perfPair(w);
    expectRefused(post(w, 'east', `${PERF}/primary/enable`), 400, 'already a performance primary');
    expectRefused(post(w, 'west', `${PERF}/primary/enable`, {}, westRoot), 400, 'a secondary must be promoted (secondary/promote), not enabled as a primary');
  });

  it('needs an enterprise licence and the root namespace', () => {
    const w = World.create({ m: { license: 'managed' }, east: { namespaces: ['team-a'] } });
    expectRefused(post(w, 'm', `${PERF}/primary/enable`), 404, 'enterprise-only feature');
    const r = w.request('east', { method: 'POST', path: `${PERF}/primary/enable`, token: rootOf(w, 'east'), namespace: 'team-a' });
    expectRefused(r, 400, 'root namespace');
  });
});

describe('POST sys/replication/performance/primary/demote', () => {
  it('makes the primary a secondary that keeps its cluster id; its secondaries lose their primary', () => {
    const w = perfWorld();
    perfPair(w);
    const id = perfStatus(w, 'east').cluster_id;
    const r = expectOk(post(w, 'east', `${PERF}/primary/demote`));
    expect(bodyOf(r).warnings[0]).toMatch(/^This cluster is being demoted to a replication secondary\./);
    expect(perfStatus(w, 'east')).toMatchObject({ mode: 'secondary', cluster_id: id, connection_state: 'idle', primaries: [] });
    w.advance(1000);
    expect(perfStatus(w, 'west').primaries).toMatchObject([{ connection_status: 'disconnected' }]);
  });
});

describe('POST sys/replication/performance/primary/disable', () => {
  it('turns replication off; re-enabling gives a new cluster id, so the old secondaries cannot connect', () => {
    const w = perfWorld();
    perfPair(w);
    const id = perfStatus(w, 'east').cluster_id;
    expect(bodyOf(expectOk(post(w, 'east', `${PERF}/primary/disable`))).warnings[0]).toMatch(/^This cluster is having replication disabled\./);
    expect(perfStatus(w, 'east')).toEqual({ mode: 'disabled' });
    enablePerfPrimary(w, 'east');
    expect(perfStatus(w, 'east').cluster_id).not.toBe(id);
    w.advance(1000);
    expect(perfStatus(w, 'west')).toMatchObject({ connection_state: 'transient_failure', primaries: [{ connection_status: 'disconnected' }] });
    expect(perfStatus(w, 'east').secondaries).toEqual([]);
  });
});

describe('POST sys/replication/performance/primary/secondary-token', () => {
  it('wraps a JWT for id, 30m by default, and lists the id in known_secondaries', () => {
    const w = perfWorld();
    enablePerfPrimary(w, 'east');
    const r = expectOk(post(w, 'east', `${PERF}/primary/secondary-token`, { id: 'west' }));
    expect(bodyOf(r)).toMatchObject({ data: null, wrap_info: { ttl: 1800, creation_path: `${PERF}/primary/secondary-token` } });
    expect(bodyOf(r).wrap_info.token.split('.')).toHaveLength(3);
    expect(perfStatus(w, 'east').known_secondaries).toEqual(['west']);
  });

  it('needs id, a unique one, and sudo', () => {
    const w = World.create({ east: { tokens: { ops: { policy: { 'sys/replication/*': ['create', 'read', 'update'] } } } } });
    enablePerfPrimary(w, 'east');
    expectRefused(post(w, 'east', `${PERF}/primary/secondary-token`, {}), 400, 'missing id');
    perfToken(w, 'east', 'west');
    expectRefused(post(w, 'east', `${PERF}/primary/secondary-token`, { id: 'west' }), 400, 'already exists');
    expectRefused(post(w, 'east', `${PERF}/primary/secondary-token`, { id: 'south' }, w.state.operators.east.tokens.ops), 403, 'permission denied');
  });
});

describe('POST sys/replication/performance/primary/revoke-secondary', () => {
  it('disconnects the secondary at once, and it receives nothing until given a new token', () => {
    const w = perfWorld();
    const westRoot = perfPair(w);
    expectOk(post(w, 'east', `${PERF}/primary/revoke-secondary`, { id: 'west' }));
    expect(perfStatus(w, 'east').known_secondaries).toEqual([]);
    writeKv(w, 'east', 'secret', 'after', { v: 1 }, rootOf(w, 'east'));
    w.advance(1000);
    expect(kvValue(w, 'west', 'secret', 'after', westRoot)).toBe(404);
    expectRefused(post(w, 'east', `${PERF}/primary/revoke-secondary`, { id: 'nobody' }), 400, 'no secondary with the id "nobody"');
    // A new token lets it back, with update-primary and no wipe.
    expectOk(post(w, 'west', `${PERF}/secondary/update-primary`, { token: perfToken(w, 'east', 'west') }, westRoot));
    w.advance(1000);
    expect(kvValue(w, 'west', 'secret', 'after', westRoot)).toEqual({ v: 1 });
  });
});

describe('POST sys/replication/performance/primary/paths-filter/:id', () => {
  it('sets a filter for a secondary id as soon as its token exists, answering 204', () => {
    const w = perfWorld();
    enablePerfPrimary(w, 'east');
    perfToken(w, 'east', 'west');
    const r = setFilter(w, 'east', 'west', { mode: 'deny', paths: ['billing', '/team-a/'] });
    expect(r).toEqual({ status: 204, body: null });
    expect(dataOf(get(w, 'east', `${PERF}/primary/paths-filter/west`, rootOf(w, 'east')))).toEqual({ mode: 'deny', paths: ['billing/', 'team-a/'] });
  });

  it('defaults to allow with no paths, and refuses an unknown mode or id and a non-primary', () => {
    const w = perfWorld();
    enablePerfPrimary(w, 'east');
    perfToken(w, 'east', 'west');
    expectOk(setFilter(w, 'east', 'west', {}));
    expect(dataOf(get(w, 'east', `${PERF}/primary/paths-filter/west`, rootOf(w, 'east')))).toEqual({ mode: 'allow', paths: [] });
    const hash = w.stateHash();
    expectRefused(setFilter(w, 'east', 'west', { mode: 'block', paths: ['secret/'] }), 400, 'invalid mode "block"');
    expectRefused(setFilter(w, 'east', 'nobody', { paths: ['secret/'] }), 400, 'no secondary with the id "nobody"');
    expectRefused(setFilter(w, 'west', 'west', { paths: ['secret/'] }, rootOf(w, 'west')), 400, 'not a performance primary');
    expect(w.stateHash()).toBe(hash);
  });
});

describe('GET sys/replication/performance/primary/paths-filter/:id', () => {
  it('answers data {mode, paths}, and 404 with no errors when the id has no filter', () => {
    const w = perfWorld();
    enablePerfPrimary(w, 'east');
    perfToken(w, 'east', 'west');
    const none = get(w, 'east', `${PERF}/primary/paths-filter/west`, rootOf(w, 'east'));
    expect(none).toEqual({ status: 404, body: { errors: [] } });
    expectOk(setFilter(w, 'east', 'west', { mode: 'allow', paths: 'secret/,billing/' }));
    expect(dataOf(get(w, 'east', `${PERF}/primary/paths-filter/west`, rootOf(w, 'east')))).toEqual({ mode: 'allow', paths: ['secret/', 'billing/'] });
  });
});

describe('DELETE sys/replication/performance/primary/paths-filter/:id', () => {
  it('removes the filter (204), and the secondary receives everything replicated again', () => {
    const w = perfWorld();
    writeKv(w, 'east', 'billing', 'invoice', { n: 1 }, rootOf(w, 'east'));
    enablePerfPrimary(w, 'east');
    const token = perfToken(w, 'east', 'west');
    expectOk(setFilter(w, 'east', 'west', { mode: 'allow', paths: ['secret/'] }));
    expectOk(post(w, 'west', `${PERF}/secondary/enable`, { token }));
    w.advance(1000);
    const westRoot = rootTokenOn(w, 'west', 'east');
    expect(kvValue(w, 'west', 'billing', 'invoice', westRoot)).toBe(404);
    const r = w.request('east', { method: 'DELETE', path: `${PERF}/primary/paths-filter/west`, token: rootOf(w, 'east') });
    expect(r).toEqual({ status: 204, body: null });
    expect(get(w, 'east', `${PERF}/primary/paths-filter/west`, rootOf(w, 'east')).status).toBe(404);
    w.advance(1000);
    expect(kvValue(w, 'west', 'billing', 'invoice', westRoot)).toEqual({ n: 1 });
  });
});

describe('GET sys/replication/performance/primary/dynamic-filter/:id', () => {
  it('lists the primary’s mounts and namespaces filtered for that secondary', () => {
    const w = perfWorld();
    enablePerfPrimary(w, 'east');
    perfToken(w, 'east', 'west');
    const read = () => dataOf(get(w, 'east', `${PERF}/primary/dynamic-filter/west`, rootOf(w, 'east')));
    expect(read()).toEqual({ dynamic_filtered_mounts: [], dynamic_filtered_namespaces: [] });
    expectOk(setFilter(w, 'east', 'west', { mode: 'deny', paths: ['team-a/'] }));
    expect(read()).toEqual({ dynamic_filtered_mounts: ['team-a/apps/'], dynamic_filtered_namespaces: ['team-a/'] });
    expectOk(setFilter(w, 'east', 'west', { mode: 'allow', paths: ['secret/'] }));
    // The local cache/ is never replicated, so it is not "filtered": only replicated mounts are listed.
    expect(read()).toEqual({ dynamic_filtered_mounts: ['billing/', 'team-a/apps/'], dynamic_filtered_namespaces: ['team-a/'] });
    expectRefused(get(w, 'east', `${PERF}/primary/dynamic-filter/nobody`, rootOf(w, 'east')), 400, 'no secondary with the id "nobody"');
  });
});

describe('GET sys/replication/performance/secondary/dynamic-filter/:id', () => {
  it('lists on the secondary what its primary filters from it, by its own id', () => {
    const w = perfWorld();
    enablePerfPrimary(w, 'east');
    perfToken(w, 'east', 'west');
    expectOk(setFilter(w, 'east', 'west', { mode: 'deny', paths: ['billing/'] }));
    expectOk(post(w, 'west', `${PERF}/secondary/enable`, { token: perfToken(w, 'east', 'west-b') }));
    // Enabled under another id: west-b has no filter.
    w.advance(1000);
    const westRoot = rootTokenOn(w, 'west', 'east');
    const read = (id: string) => get(w, 'west', `${PERF}/secondary/dynamic-filter/${id}`, westRoot);
    expect(dataOf(read('west-b'))).toEqual({ dynamic_filtered_mounts: [], dynamic_filtered_namespaces: [] });
    expectOk(setFilter(w, 'east', 'west-b', { mode: 'deny', paths: ['billing/', 'team-a/'] }));
    expect(dataOf(read('west-b'))).toEqual({ dynamic_filtered_mounts: ['billing/', 'team-a/apps/'], dynamic_filtered_namespaces: ['team-a/'] });
    expectRefused(read('west'), 400, 'this performance secondary\'s id is "west-b"');
    expectRefused(get(w, 'east', `${PERF}/secondary/dynamic-filter/west-b`, rootOf(w, 'east')), 400, 'Not a performance secondary.');
  });
});

describe('POST sys/replication/performance/secondary/generate-public-key', () => {
  it('answers a public key; a token sealed to it activates the secondary without unwrapping at the primary', () => {
    const w = perfWorld();
    enablePerfPrimary(w, 'east');
    const key = dataOf(expectOk(post(w, 'west', `${PERF}/secondary/generate-public-key`))).secondary_public_key;
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
    const sealed = dataOf(expectOk(post(w, 'east', `${PERF}/primary/secondary-token`, { id: 'west', secondary_public_key: key })));
    expect(sealed).toMatchObject({ id: 'west', ttl: 1800 });
    // The primary is unreachable: a wrapped token could not be redeemed, a sealed one can.
    w.partition(['east', 'west']);
    expectOk(post(w, 'west', `${PERF}/secondary/enable`, { token: sealed.token }));
    w.heal('all');
    w.advance(1000);
    expect(perfStatus(w, 'west')).toMatchObject({ mode: 'secondary', state: 'stream-wals', secondary_id: 'west' });
  });
});

describe('POST sys/replication/performance/secondary/enable', () => {
  it('wipes the secondary at once: its own data, local mounts and tokens are gone, the primary’s replicated data arrives', () => {
    const w = perfWorld();
    const [eastRoot, westRootBefore] = [rootOf(w, 'east'), rootOf(w, 'west')];
    writeKv(w, 'west', 'secret', 'old', { v: 'west' }, westRootBefore);
    writeKv(w, 'west', 'mine', 'old', { v: 'west' }, westRootBefore);
    writeKv(w, 'east', 'secret', 'app', { v: 'east' }, eastRoot);
    enablePerfPrimary(w, 'east');
    const r = expectOk(post(w, 'west', `${PERF}/secondary/enable`, { token: perfToken(w, 'east', 'west') }, westRootBefore));
    expect(bodyOf(r).warnings[0]).toMatch(/^Vault has successfully found secondary information/);
    // Its mounts are gone at once (the path no longer exists), before it even connects.
    expectRefused(get(w, 'west', 'secret/data/old', westRootBefore), 404, 'unsupported path');
    w.advance(1000);
    // Its old root token was wiped with the rest, and the primary's tokens are not valid there.
    expectRefused(get(w, 'west', 'secret/data/app', westRootBefore), 403, 'permission denied');
    expectRefused(get(w, 'west', 'secret/data/app', eastRoot), 403, 'permission denied');
    const westRoot = rootTokenOn(w, 'west', 'east');
    expect(kvValue(w, 'west', 'secret', 'old', westRoot)).toBe(404);
    expect(kvValue(w, 'west', 'mine', 'old', westRoot)).toBe(404);
    expect(kvValue(w, 'west', 'secret', 'app', westRoot)).toEqual({ v: 'east' });
  });

  it('needs a token, and refuses a primary and an existing secondary', () => {
    const w = perfWorld();
    perfPair(w);
    expectRefused(post(w, 'south', `${PERF}/secondary/enable`, {}), 400, 'missing token');
    expectRefused(post(w, 'east', `${PERF}/secondary/enable`, { token: perfToken(w, 'east', 'x') }), 400, 'disable performance replication on it before enabling it as a performance secondary');
    const westRoot = rootTokenOn(w, 'west', 'east');
    expectRefused(post(w, 'west', `${PERF}/secondary/enable`, { token: perfToken(w, 'east', 'y') }, westRoot), 400, 'already a performance secondary');
  });

  it('takes primary_api_addr over the address in the token', () => {
    const w = perfWorld();
    enablePerfPrimary(w, 'east');
    const token = perfToken(w, 'east', 'west');
    const r = post(w, 'west', `${PERF}/secondary/enable`, { token, primary_api_addr: 'https://nowhere.example:8200' });
    expectRefused(r, 500, 'dial tcp nowhere.example:8200');
    expectOk(post(w, 'west', `${PERF}/secondary/enable`, { token, primary_api_addr: w.state.clusters.named('east').apiAddr }));
  });
});

describe('POST sys/replication/performance/secondary/promote', () => {
  it('promotes with an ordinary client token (no DR operation token), keeping the set’s cluster id', () => {
    const w = perfWorld();
    const westRoot = perfPair(w);
    const id = perfStatus(w, 'east').cluster_id;
    expectRefused(post(w, 'west', `${PERF}/secondary/promote`, {}, null), 403, 'permission denied');
    const r = expectOk(post(w, 'west', `${PERF}/secondary/promote`, { primary_cluster_addr: 'https://west-lb.example:8201' }, westRoot));
    expect(bodyOf(r).warnings[0]).toMatch(/^This cluster is being promoted to a replication primary\./);
    expect(perfStatus(w, 'west')).toMatchObject({ mode: 'primary', cluster_id: id, primary_cluster_addr: 'https://west-lb.example:8201' });
  });

  it('refuses before the initial sync unless forced', () => {
    const w = perfWorld();
    enablePerfPrimary(w, 'east');
    enablePerfSecondary(w, 'east', 'west');
    const westRoot = rootTokenOn(w, 'west', 'east');
    w.partition(['east', 'west']);
    expectRefused(post(w, 'west', `${PERF}/secondary/promote`, {}, westRoot), 400, 'initial sync from the primary has not completed');
    expectOk(post(w, 'west', `${PERF}/secondary/promote`, { force: true }, westRoot));
  });
});

describe('POST sys/replication/performance/secondary/disable', () => {
  it('turns replication off on the secondary with a client token; its data stays, served as its own', () => {
    const w = perfWorld();
    writeKv(w, 'east', 'secret', 'app', { v: 1 }, rootOf(w, 'east'));
    const westRoot = perfPair(w);
    expectOk(post(w, 'west', `${PERF}/secondary/disable`, {}, westRoot));
    expect(perfStatus(w, 'west')).toEqual({ mode: 'disabled' });
    expect(kvValue(w, 'west', 'secret', 'app', westRoot)).toEqual({ v: 1 });
    // No longer a secondary: its writes land on itself.
    expectOk(writeKv(w, 'west', 'secret', 'own', { v: 2 }, westRoot));
    expect(kvValue(w, 'west', 'secret', 'own', westRoot)).toEqual({ v: 2 });
    expect(kvValue(w, 'east', 'secret', 'own', rootOf(w, 'east'))).toBe(404);
    expectRefused(post(w, 'east', `${PERF}/secondary/disable`, {}), 400, 'Not a performance secondary.');
  });
});

describe('POST sys/replication/performance/secondary/update-primary', () => {
  it('follows another primary with a new token, without a wipe', () => {
    const w = perfWorld();
    writeKv(w, 'east', 'secret', 'app', { v: 1 }, rootOf(w, 'east'));
    const westRoot = perfPair(w);
    const r = expectOk(post(w, 'west', `${PERF}/secondary/update-primary`, { token: perfToken(w, 'east', 'west-2') }, westRoot));
    expect(bodyOf(r).warnings[0]).toMatch(/^Vault has successfully found secondary information/);
    // Nothing wiped: its token and data are still there.
    expect(kvValue(w, 'west', 'secret', 'app', westRoot)).toEqual({ v: 1 });
    w.advance(1000);
    expect(perfStatus(w, 'west')).toMatchObject({ secondary_id: 'west-2', state: 'stream-wals', connection_state: 'ready' });
  });

  it('with an empty token forgets its primary and stays a secondary', () => {
    const w = perfWorld();
    const westRoot = perfPair(w);
    expect(post(w, 'west', `${PERF}/secondary/update-primary`, { token: '' }, westRoot).status).toBe(204);
    expect(perfStatus(w, 'west')).toMatchObject({ mode: 'secondary', primaries: [], known_primary_cluster_addrs: [], state: 'idle', connection_state: 'shutdown' });
    expect(perfStatus(w, 'east').secondaries).toEqual([]);
  });
});

describe('area B authorisation', () => {
  it('the performance endpoints are closed on a DR secondary', () => {
    const w = perfWorld();
    expectOk(post(w, 'east', `${'sys/replication/dr'}/primary/enable`));
    const token = bodyOf(expectOk(post(w, 'east', 'sys/replication/dr/primary/secondary-token', { id: 'west' }))).wrap_info.token;
    expectOk(post(w, 'west', 'sys/replication/dr/secondary/enable', { token }));
    expectRefused(post(w, 'west', `${PERF}/secondary/generate-public-key`, {}, rootOf(w, 'east')), 400, 'path disabled in replication DR secondary mode');
    expectRefused(post(w, 'west', `${PERF}/primary/enable`, {}, rootOf(w, 'east')), 400, 'path disabled in replication DR secondary mode');
    // Status stays open.
    expect(dataOf(get(w, 'west', `${PERF}/status`))).toEqual({ mode: 'disabled' });
  });
});
