// Secret sync under replication (#13): DR carries destinations and associations with their
// statuses, so a failover keeps SYNCED and does not sync again; a performance secondary reads its
// primary's sync configuration and forwards writes to it; only the active primary's jobs touch a
// store; the store is the world's, reached over the network.
import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../../src/kernel/http/http.js';
import type { SyncAttempted } from '../../../src/areas/sync/sync.js';
import type { World } from '../../../src/world.js';
import { DR, drOperationToken, drPair, drWorld, expectOk, post } from '../replication/helpers.js';
import { PERF, enablePerfPrimary, perfPair, perfToken, perfWorld, rootTokenOn, setFilter } from '../replication/performance/helpers.js';
import { CONNECTIONS, DEST, storeOf } from './helpers.js';

const root = (w: World, c: string) => w.state.operators[c].rootToken;
const req = (w: World, c: string, method: string, path: string, body?: unknown, token = root(w, c)): ApiResponse => w.request(c, { method, path, body, token });
const data = (r: ApiResponse): any => (r.body as { data: unknown }).data;
const statusOn = (w: World, c: string, secret: string, token = root(w, c)): string | undefined =>
  data(req(w, c, 'GET', `sys/sync/associations/destinations?mount=secret&secret_name=${secret}`, undefined, token))?.associated_destinations?.['codehost/gh1']?.sync_status;
const attemptsBy = (w: World) => w.log.filter((e): e is SyncAttempted => e.type === 'sync-attempted').map((e) => `${e.cluster} ${e.operation} ${e.outcome}`);

/** east DR primary with west its DR secondary (link up), then a destination and an association made on east, synced. */
function drSynced(): World {
  const w = drWorld();
  drPair(w);
  expectOk(req(w, 'east', 'POST', 'secret/data/app/web', { data: { API_KEY: 'k1' } }));
  expectOk(req(w, 'east', 'POST', `${DEST}/codehost/gh1`, CONNECTIONS.codehost));
  expectOk(req(w, 'east', 'POST', `${DEST}/codehost/gh1/associations/set`, { mount: 'secret', secret_name: 'app/web' }));
  w.advance(5_000);
  return w;
}

/** Promotes west after east is lost (crash), with a DR operation token made from east's key shares. */
function failOver(w: World): void {
  const op = drOperationToken(w, 'west', 'east');
  w.crash('east');
  expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: op }, null));
}

describe('DR carries secret sync', () => {
  it('sync and association events advance the WAL, so the DR secondary holds them without a later KV write', () => {
    const w = drSynced();
    const east = w.state.clusters.named('east');
    const west = w.state.clusters.named('west');
    expect(west.replication.dr.lastRemoteWal).toBe(east.wal.last);
    expect(west.sync).toBe(east.sync);
    expect(west.sync.destinations['codehost/gh1'].associations[`${east.storage.mounts['secret/'].accessor}/app/web`].value).toBe('linked.synced');
  });

  it('a destination and an association created after the link came up survive a failover: SYNCED stays SYNCED, no second sync to the store', () => {
    const w = drSynced();
    expect(w.state.stores['codehost/gh1']).toMatchObject({ operations: 1, writers: ['east'] });
    failOver(w);
    w.advance(60_000);
    // The old primary's token is valid on the promoted secondary: DR mirrors tokens.
    expect(statusOn(w, 'west', 'app/web', root(w, 'east'))).toBe('SYNCED');
    expect(data(req(w, 'west', 'GET', `${DEST}/codehost/gh1`, undefined, root(w, 'east'))).connection_details.access_token).toBe('*****');
    expect(attemptsBy(w)).toEqual(['east sync succeeded']);
    expect(w.state.stores['codehost/gh1']).toMatchObject({ operations: 1, writers: ['east'] });
  });

  it('after the failover the new primary syncs to the same store and sees what the old one wrote there', () => {
    const w = drSynced();
    const written = storeOf(w, 'codehost', 'gh1');
    expect(Object.values(written)).toEqual(['k1']);
    failOver(w);
    expectOk(req(w, 'west', 'POST', 'secret/data/app/web', { data: { API_KEY: 'k2' } }, root(w, 'east')));
    w.advance(5_000);
    // Same external names, new value: west overwrote what east had written.
    expect(Object.keys(storeOf(w, 'codehost', 'gh1'))).toEqual(Object.keys(written));
    expect(Object.values(storeOf(w, 'codehost', 'gh1'))).toEqual(['k2']);
    expect(w.state.stores['codehost/gh1']).toMatchObject({ operations: 2, writers: ['east', 'west'] });
    // An unsync by west deletes the entry east wrote.
    expectOk(req(w, 'west', 'POST', `${DEST}/codehost/gh1/associations/remove`, { mount: 'secret', secret_name: 'app/web' }, root(w, 'east')));
    w.advance(5_000);
    expect(storeOf(w, 'codehost', 'gh1')).toEqual({});
  });

  it('a demoted primary runs no sync jobs: only the active primary touches the store', () => {
    const w = drSynced();
    const op = drOperationToken(w, 'west', 'east');
    expectOk(post(w, 'east', `${DR}/primary/demote`));
    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: op }, null));
    // Both hold the association; a change of the secret on the new primary is synced by it alone.
    expectOk(req(w, 'west', 'POST', 'secret/data/app/web', { data: { API_KEY: 'k3' } }, root(w, 'east')));
    w.advance(30_000);
    expect(attemptsBy(w)).toEqual(['east sync succeeded', 'west sync succeeded']);
    expect(w.state.stores['codehost/gh1'].writers).toEqual(['east', 'west']);
  });

  it('a status the secondary never received is lost with the primary: a sync in flight at the failover runs again on the new primary', () => {
    const w = drWorld();
    drPair(w);
    expectOk(req(w, 'east', 'POST', 'secret/data/app/web', { data: { API_KEY: 'k1' } }));
    expectOk(req(w, 'east', 'POST', `${DEST}/codehost/gh1`, CONNECTIONS.codehost));
    expectOk(req(w, 'east', 'POST', `${DEST}/codehost/gh1/associations/set`, { mount: 'secret', secret_name: 'app/web' }));
    const op = drOperationToken(w, 'west', 'east');
    // The job runs at +2 s on east; east is lost 10 ms later, before its WAL reaches west (20 ms).
    const due = w.now + 2_000;
    w.advance(due - w.now + 10);
    w.crash('east');
    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: op }, null));
    expect(statusOn(w, 'west', 'app/web', root(w, 'east'))).toBe('PENDING');
    w.advance(5_000);
    expect(statusOn(w, 'west', 'app/web', root(w, 'east'))).toBe('SYNCED');
    expect(w.state.stores['codehost/gh1']).toMatchObject({ operations: 2, writers: ['east', 'west'] });
  });
});

describe('a performance secondary and its primary’s sync configuration', () => {
  it('lists the primary’s destinations; a destination written on it lands on the primary; its association is synced by the primary alone', () => {
    const w = perfWorld();
    const westRoot = perfPair(w);
    expectOk(req(w, 'east', 'POST', 'secret/data/app/web', { data: { API_KEY: 'k1' } }));
    expectOk(req(w, 'east', 'POST', `${DEST}/codehost/gh1`, CONNECTIONS.codehost));
    w.advance(1_000);
    expect(data(req(w, 'west', 'LIST', DEST, undefined, westRoot))).toEqual({ key_info: { 'codehost/': ['gh1'] }, keys: ['codehost/'], total_destinations: 1 });

    // Written on west, applied on east: east's answer, east's state, east's WAL.
    const walBefore = w.state.clusters.named('east').wal.last;
    const r = expectOk(req(w, 'west', 'POST', `${DEST}/codehost/gh2`, CONNECTIONS.codehost, westRoot));
    expect(data(r).name).toBe('gh2');
    expect(w.log.at(-1)).toMatchObject({ type: 'sync-destination-configured', cluster: 'east' });
    expect(Object.keys(w.state.clusters.named('east').sync.destinations)).toEqual(['codehost/gh1', 'codehost/gh2']);
    expect(w.state.clusters.named('east').wal.last).toBe(walBefore + 1);
    // West reads it once the WAL has come back.
    expect(Object.keys(w.state.clusters.named('west').sync.destinations)).toEqual(['codehost/gh1']);
    w.advance(1_000);
    expect(data(req(w, 'west', 'LIST', `${DEST}/codehost`, undefined, westRoot)).keys).toEqual(['gh1', 'gh2']);

    // An association set on west lands on east; only east's jobs run.
    expectOk(req(w, 'west', 'POST', `${DEST}/codehost/gh1/associations/set`, { mount: 'secret', secret_name: 'app/web' }, westRoot));
    expect(w.log.at(-1)).toMatchObject({ type: 'sync-association-set', cluster: 'east' });
    w.advance(5_000);
    expect(statusOn(w, 'west', 'app/web', westRoot)).toBe('SYNCED');
    expect(attemptsBy(w)).toEqual(['east sync succeeded']);
    expect(w.state.stores['codehost/gh1']).toMatchObject({ operations: 1, writers: ['east'] });

    // A removal on west lands on east too.
    expectOk(req(w, 'west', 'POST', `${DEST}/codehost/gh1/associations/remove`, { mount: 'secret', secret_name: 'app/web' }, westRoot));
    expect(w.log.at(-1)).toMatchObject({ type: 'sync-association-removed', cluster: 'east' });
  });

  it('a write it cannot forward (link cut) is refused and changes nothing', () => {
    const w = perfWorld();
    const westRoot = perfPair(w);
    w.partition(['east', 'west']);
    const logged = w.log.length;
    const hash = w.stateHash();
    const r = req(w, 'west', 'POST', `${DEST}/codehost/gh1`, CONNECTIONS.codehost, westRoot);
    expect(r.status).toBe(500);
    expect((r.body as { errors: string[] }).errors[0]).toContain('error forwarding the write to the performance primary');
    expect(w.log.length).toBe(logged);
    expect(w.stateHash()).toBe(hash);
  });

  it('a mount its paths filter kept out fails the job of a promoted performance secondary: INTERNAL_VAULT_ERROR, with last_error', () => {
    const w = perfWorld();
    enablePerfPrimary(w, 'east');
    const token = perfToken(w, 'east', 'west');
    expectOk(setFilter(w, 'east', 'west', { mode: 'deny', paths: ['billing/'] }));
    expectOk(post(w, 'west', `${PERF}/secondary/enable`, { token }));
    w.advance(1_000);
    const westRoot = rootTokenOn(w, 'west', 'east');
    expectOk(req(w, 'east', 'POST', 'billing/data/stripe', { data: { key: 'sk' } }));
    expectOk(req(w, 'east', 'POST', `${DEST}/codehost/gh1`, CONNECTIONS.codehost));
    expectOk(req(w, 'east', 'POST', `${DEST}/codehost/gh1/associations/set`, { mount: 'billing', secret_name: 'stripe' }));
    w.advance(100);
    // Performance failover while the sync is still queued.
    expectOk(post(w, 'east', `${PERF}/primary/demote`));
    expectOk(post(w, 'west', `${PERF}/secondary/promote`, {}, westRoot));
    w.advance(3_000);
    const assoc = data(req(w, 'west', 'GET', `${DEST}/codehost/gh1/associations`, undefined, westRoot)).associated_secrets;
    const [entry] = Object.values(assoc) as any[];
    expect(entry.sync_status).toBe('INTERNAL_VAULT_ERROR');
    expect(entry.last_error).toContain('mount billing/');
    expect(attemptsBy(w)).toEqual(['west sync failed']);
    expect(storeOf(w, 'codehost', 'gh1')).toEqual({});
    // The job failed inside west, before anything was sent: no push on the bus (sync/messages.ts).
    expect(w.messages.filter((m) => m.kind === 'sync-job')).toEqual([]);
  });
});

describe('the external store over the network', () => {
  it('a cut path between the cluster and the store: UNKNOWN with last_error, nothing reaches the store; once healed the retry delivers', () => {
    const w = drWorld({ clusters: { east: {} } });
    expectOk(req(w, 'east', 'POST', 'secret/data/a', { data: { k: 'v' } }));
    expectOk(req(w, 'east', 'POST', `${DEST}/codehost/gh1`, CONNECTIONS.codehost));
    w.partition(['east', 'codehost/gh1']);
    expectOk(req(w, 'east', 'POST', `${DEST}/codehost/gh1/associations/set`, { mount: 'secret', secret_name: 'a' }));
    w.advance(3_000);
    const entry = data(req(w, 'east', 'GET', 'sys/sync/associations/secret/a')).associated_destinations['codehost/gh1'];
    expect(entry.sync_status).toBe('UNKNOWN');
    expect(entry.last_error).toBe('no answer from the external service of destination codehost/gh1: the network path from east is cut');
    expect(w.state.stores['codehost/gh1']).toMatchObject({ secrets: {}, operations: 0, writers: [] });
    w.heal(['east', 'codehost/gh1']);
    w.advance(10_000);
    const after = data(req(w, 'east', 'GET', 'sys/sync/associations/secret/a')).associated_destinations['codehost/gh1'];
    expect(after.sync_status).toBe('SYNCED');
    expect(after).not.toHaveProperty('last_error');
    expect(w.state.stores['codehost/gh1'].operations).toBe(1);
    // On the bus (sync/messages.ts): each push is a message from east to the store, decided by the
    // network at the job's instant: dropped while the path was cut (not held, as a WAL would be),
    // delivered by the retry after the heal.
    const pushes = w.messages.filter((m) => m.kind === 'sync-job');
    const jobs = w.log.filter((e) => e.type === 'sync-attempted');
    expect(pushes.map((m) => [m.from, m.to, m.sentBy])).toEqual(jobs.map((e) => ['east', 'codehost/gh1', e.seq]));
    const healed = w.log.find((e) => e.type === 'links-healed')!;
    for (const m of pushes) {
      if (m.sentBy < healed.seq!) expect(m).toMatchObject({ deliveredAt: null, droppedAt: m.sentAt, dropReason: 'link east–codehost/gh1 cut' });
      else expect(m).toMatchObject({ deliveredAt: m.sentAt, droppedAt: null, label: expect.stringContaining('succeeded') });
    }
    expect(pushes.filter((m) => m.sentBy < healed.seq!).length).toBeGreaterThan(0);
    expect(pushes.at(-1)!.deliveredAt).not.toBeNull();
    expect(w.inFlight).toEqual([]);
  });

  it('a partition or inspect naming a store that does not exist is a usage error that changes nothing', () => {
    const w = drWorld({ clusters: { east: {} } });
    expect(() => w.partition(['east', 'codehost/gh1'])).toThrow(/no external store "codehost\/gh1" \(none yet/);
    expect(() => w.areaStep({ kind: 'inspect', store: 'codehost' })).toThrow(/does not name a store/);
    expectOk(req(w, 'east', 'POST', `${DEST}/codehost/gh1`, CONNECTIONS.codehost));
    expect(() => w.areaStep({ kind: 'inspect', store: 'codehost/gh2' })).toThrow(/stores: codehost\/gh1/);
    expect(w.areaStep({ kind: 'inspect', store: 'codehost/gh1' })).toEqual({ store: 'codehost/gh1', contents: { fault: 'none', secrets: {}, operations: 0, writers: [] } });
  });
});
