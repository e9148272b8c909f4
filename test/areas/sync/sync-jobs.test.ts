import { describe, expect, it } from 'vitest';
import { RETRY_BASE_MS, RETRY_MAX_MS, SYNC_DELAY_MS, retryDelayMs } from '../../../src/areas/sync/sync.js';
import { World } from '../../../src/world.js';
import { DEST, accessorOf, call, createDestination, dataOf, expectOk, removeAssociation, setAssociation, statusOf, storeOf, syncWorld, writeSecret } from './helpers.js';

function synced(type = 'codehost', name = 'gh1', extra: Record<string, unknown> = {}) {
  const w = syncWorld();
  writeSecret(w, 'app/web', { API_KEY: 'k1', DB_PASS: 'p1' });
  createDestination(w, type, name, extra);
  expectOk(setAssociation(w, type, name, 'secret', 'app/web'));
  return w;
}

/** The times of the sync jobs in the log, with their outcome. */
function attempts(w: World): string[] {
  return w.log.filter((e) => e.type === 'sync-attempted').map((e: any) => `${e.at} ${e.operation} ${e.outcome}${e.cause ? ' ' + e.cause : ''}`);
}

describe('sync jobs: delivery as time passes', () => {
  it('set → PENDING, then SYNCED once the external store holds the secret', () => {
    const w = synced();
    expect(statusOf(w, 'codehost', 'gh1', 'secret', 'app/web')).toBe('PENDING');
    expect(storeOf(w, 'codehost', 'gh1')).toEqual({});
    w.advance(SYNC_DELAY_MS - 1);
    expect(statusOf(w, 'codehost', 'gh1', 'secret', 'app/web')).toBe('PENDING');
    w.advance(1);
    expect(statusOf(w, 'codehost', 'gh1', 'secret', 'app/web')).toBe('SYNCED');
    const acc = accessorOf(w).toUpperCase();
    expect(storeOf(w, 'codehost', 'gh1')).toEqual({ [`VAULT_${acc}_APP_WEB_API_KEY`]: 'k1', [`VAULT_${acc}_APP_WEB_DB_PASS`]: 'p1' });
    expect(dataOf(call(w, 'GET', `${DEST}/codehost/gh1/associations`)).associated_secrets[`${accessorOf(w)}/app/web`].updated_at).toBe('2026-01-01T00:00:02Z');
  });

  it('secret-path granularity stores the whole secret as JSON under the default name, spelled as each store accepts', () => {
    const acc = (w: World) => accessorOf(w);
    const one = synced('cloudone-sm', 's1');
    one.advance(5_000);
    expect(storeOf(one, 'cloudone-sm', 's1')).toEqual({ [`vault/${acc(one)}/app/web`]: '{"API_KEY":"k1","DB_PASS":"p1"}' });
    const two = synced('cloudtwo-kv', 'k1');
    two.advance(5_000);
    expect(Object.keys(storeOf(two, 'cloudtwo-kv', 'k1'))).toEqual([`vault-${acc(two).replace('_', '-')}-app-web`]);
    const three = synced('cloudthree-sm', 'g1');
    three.advance(5_000);
    expect(Object.keys(storeOf(three, 'cloudthree-sm', 'g1'))).toEqual([`vault_${acc(three)}_app_web`]);
  });

  it("a custom secret_name_template names the new association's entries", () => {
    const w = synced('cloudone-sm', 's1', { secret_name_template: 'prod/{{ .MountPath }}/{{ .SecretBaseName }}' });
    w.advance(5_000);
    expect(Object.keys(storeOf(w, 'cloudone-sm', 's1'))).toEqual(['prod/secret/web']);
  });

  it('changing granularity later affects only new associations', () => {
    const w = synced();
    w.advance(5_000);
    expectOk(call(w, 'POST', `${DEST}/codehost/gh1`, { access_token: 't', repository_owner: 'o', repository_name: 'r', granularity: 'secret-path' }));
    writeSecret(w, 'other', { x: '1' });
    expectOk(setAssociation(w, 'codehost', 'gh1', 'secret', 'app/web'));
    expectOk(setAssociation(w, 'codehost', 'gh1', 'secret', 'other'));
    w.advance(5_000);
    const acc = accessorOf(w).toUpperCase();
    expect(Object.keys(storeOf(w, 'codehost', 'gh1')).sort()).toEqual([`VAULT_${acc}_APP_WEB_API_KEY`, `VAULT_${acc}_APP_WEB_DB_PASS`, `VAULT_${acc}_OTHER`]);
  });

  it('a new version of an associated secret is re-synced by itself: one way, last write wins', () => {
    const w = synced();
    w.advance(5_000);
    writeSecret(w, 'app/web', { API_KEY: 'k2' });
    writeSecret(w, 'app/web', { API_KEY: 'k3' });
    w.advance(SYNC_DELAY_MS);
    const acc = accessorOf(w).toUpperCase();
    expect(storeOf(w, 'codehost', 'gh1')).toEqual({ [`VAULT_${acc}_APP_WEB_API_KEY`]: 'k3' });
    expect(statusOf(w, 'codehost', 'gh1', 'secret', 'app/web')).toBe('SYNCED');
    expect(attempts(w)).toEqual(['2000 sync succeeded', '7000 sync succeeded']);
  });

  it('deleting the secret deletes it from the destination too', () => {
    const w = synced('cloudone-sm', 's1');
    w.advance(5_000);
    expect(call(w, 'DELETE', 'secret/data/app/web').status).toBe(204);
    w.advance(5_000);
    expect(storeOf(w, 'cloudone-sm', 's1')).toEqual({});
    expect(statusOf(w, 'cloudone-sm', 's1', 'secret', 'app/web')).toBe('SYNCED');
  });

  it('remove → PENDING, then UNSYNCED once the external store deleted the secret', () => {
    const w = synced();
    w.advance(5_000);
    expectOk(removeAssociation(w, 'codehost', 'gh1', 'secret', 'app/web'));
    expect(statusOf(w, 'codehost', 'gh1', 'secret', 'app/web')).toBe('PENDING');
    expect(Object.keys(storeOf(w, 'codehost', 'gh1'))).toHaveLength(2);
    w.advance(SYNC_DELAY_MS);
    expect(statusOf(w, 'codehost', 'gh1', 'secret', 'app/web')).toBe('UNSYNCED');
    expect(storeOf(w, 'codehost', 'gh1')).toEqual({});
    // The association is gone: the destination can be deleted, and a later write is not synced.
    writeSecret(w, 'app/web', { API_KEY: 'k9' });
    w.advance(10_000);
    expect(storeOf(w, 'codehost', 'gh1')).toEqual({});
    expect(call(w, 'DELETE', `${DEST}/codehost/gh1`).status).toBe(204);
  });

  it('set again after a remove links it anew and syncs it', () => {
    const w = synced();
    w.advance(5_000);
    expectOk(removeAssociation(w, 'codehost', 'gh1', 'secret', 'app/web'));
    w.advance(5_000);
    expectOk(setAssociation(w, 'codehost', 'gh1', 'secret', 'app/web'));
    w.advance(5_000);
    expect(statusOf(w, 'codehost', 'gh1', 'secret', 'app/web')).toBe('SYNCED');
    expect(Object.keys(storeOf(w, 'codehost', 'gh1'))).toHaveLength(2);
  });
});

describe('sync jobs: destination faults, statuses and retries', () => {
  it('unreachable → EXTERNAL_SERVICE_ERROR; unauthorized → CLIENT_SIDE_ERROR; nothing reaches the store', () => {
    const w = synced();
    w.areaStep({ kind: 'destination-fault', on: 'east', destinationType: 'codehost', destination: 'gh1', fault: 'unreachable' });
    w.advance(SYNC_DELAY_MS);
    expect(statusOf(w, 'codehost', 'gh1', 'secret', 'app/web')).toBe('EXTERNAL_SERVICE_ERROR');
    w.areaStep({ kind: 'destination-fault', on: 'east', destinationType: 'codehost', destination: 'gh1', fault: 'unauthorized' });
    w.advance(RETRY_BASE_MS);
    expect(statusOf(w, 'codehost', 'gh1', 'secret', 'app/web')).toBe('CLIENT_SIDE_ERROR');
    expect(storeOf(w, 'codehost', 'gh1')).toEqual({});
  });

  it('failed jobs are retried with a deterministic exponential backoff, capped', () => {
    expect([1, 2, 3, 4, 20].map(retryDelayMs)).toEqual([RETRY_BASE_MS, 2 * RETRY_BASE_MS, 4 * RETRY_BASE_MS, 8 * RETRY_BASE_MS, RETRY_MAX_MS]);
    const w = synced();
    w.areaStep({ kind: 'destination-fault', on: 'east', destinationType: 'codehost', destination: 'gh1', fault: 'unreachable' });
    w.advance(40_000);
    expect(attempts(w)).toEqual(['2000 sync failed external', '7000 sync failed external', '17000 sync failed external', '37000 sync failed external']);
  });

  it('after destination-fault none, the next scheduled retry succeeds → SYNCED', () => {
    const w = synced();
    w.areaStep({ kind: 'destination-fault', on: 'east', destinationType: 'codehost', destination: 'gh1', fault: 'unreachable' });
    w.advance(10_000);
    w.areaStep({ kind: 'destination-fault', on: 'east', destinationType: 'codehost', destination: 'gh1', fault: 'none' });
    expect(statusOf(w, 'codehost', 'gh1', 'secret', 'app/web')).toBe('EXTERNAL_SERVICE_ERROR');
    w.advance(7_000);
    expect(statusOf(w, 'codehost', 'gh1', 'secret', 'app/web')).toBe('SYNCED');
    expect(attempts(w).at(-1)).toBe('17000 sync succeeded');
    expect(Object.keys(storeOf(w, 'codehost', 'gh1'))).toHaveLength(2);
  });

  it('set on a failed association refreshes it: the retry comes at once rather than after the backoff', () => {
    const w = synced();
    w.areaStep({ kind: 'destination-fault', on: 'east', destinationType: 'codehost', destination: 'gh1', fault: 'unreachable' });
    w.advance(30_000);
    w.areaStep({ kind: 'destination-fault', on: 'east', destinationType: 'codehost', destination: 'gh1', fault: 'none' });
    expectOk(setAssociation(w, 'codehost', 'gh1', 'secret', 'app/web'));
    expect(statusOf(w, 'codehost', 'gh1', 'secret', 'app/web')).toBe('PENDING');
    w.advance(SYNC_DELAY_MS);
    expect(statusOf(w, 'codehost', 'gh1', 'secret', 'app/web')).toBe('SYNCED');
  });

  it('an unsync against a failing store reports the failure, keeps the secret there, and retries', () => {
    const w = synced();
    w.advance(5_000);
    w.areaStep({ kind: 'destination-fault', on: 'east', destinationType: 'codehost', destination: 'gh1', fault: 'unauthorized' });
    expectOk(removeAssociation(w, 'codehost', 'gh1', 'secret', 'app/web'));
    w.advance(SYNC_DELAY_MS);
    expect(statusOf(w, 'codehost', 'gh1', 'secret', 'app/web')).toBe('CLIENT_SIDE_ERROR');
    expect(Object.keys(storeOf(w, 'codehost', 'gh1'))).toHaveLength(2);
    // Still managed: the destination cannot be deleted without a purge.
    expect(call(w, 'DELETE', `${DEST}/codehost/gh1`).status).toBe(400);
    w.areaStep({ kind: 'destination-fault', on: 'east', destinationType: 'codehost', destination: 'gh1', fault: 'none' });
    w.advance(RETRY_BASE_MS);
    expect(statusOf(w, 'codehost', 'gh1', 'secret', 'app/web')).toBe('UNSYNCED');
    expect(storeOf(w, 'codehost', 'gh1')).toEqual({});
  });

  it('a fault on one destination leaves the others alone', () => {
    const w = synced();
    createDestination(w, 'cloudone-sm', 's1');
    expectOk(setAssociation(w, 'cloudone-sm', 's1', 'secret', 'app/web'));
    w.areaStep({ kind: 'destination-fault', on: 'east', destinationType: 'codehost', destination: 'gh1', fault: 'unreachable' });
    w.advance(5_000);
    expect(statusOf(w, 'codehost', 'gh1', 'secret', 'app/web')).toBe('EXTERNAL_SERVICE_ERROR');
    expect(statusOf(w, 'cloudone-sm', 's1', 'secret', 'app/web')).toBe('SYNCED');
  });

  it('a crashed cluster runs no sync job until it is restarted', () => {
    const w = synced();
    w.crash('east');
    w.advance(10_000);
    expect(attempts(w)).toEqual([]);
    w.restart('east');
    w.advance(0);
    expect(attempts(w)).toEqual(['10000 sync succeeded']);
  });
});

describe('sync: deleting a destination with purge', () => {
  it('purge=true unsyncs every association, shows purge_initiated_at meanwhile, then removes the destination', () => {
    const w = synced();
    w.advance(5_000);
    expect(call(w, 'DELETE', `${DEST}/codehost/gh1?purge=true`).status).toBe(204);
    expect(dataOf(call(w, 'GET', `${DEST}/codehost/gh1`)).purge_initiated_at).toBe('2026-01-01T00:00:05Z');
    expect(call(w, 'POST', `${DEST}/codehost/gh1/associations/set`, { mount: 'secret', secret_name: 'app/web' }).status).toBe(400);
    w.advance(SYNC_DELAY_MS);
    expect(storeOf(w, 'codehost', 'gh1')).toEqual({});
    expect(call(w, 'GET', `${DEST}/codehost/gh1`).status).toBe(404);
  });

  it('a failing unsync during a purge is shown as purge_error and retried; force_delete drops the association anyway', () => {
    const w = synced();
    w.advance(5_000);
    w.areaStep({ kind: 'destination-fault', on: 'east', destinationType: 'codehost', destination: 'gh1', fault: 'unreachable' });
    expect(call(w, 'DELETE', `${DEST}/codehost/gh1`, { purge: true }).status).toBe(204);
    w.advance(SYNC_DELAY_MS);
    expect(dataOf(call(w, 'GET', `${DEST}/codehost/gh1`)).purge_error).toMatch(/failed to unsync app\/web/);

    const f = synced();
    f.advance(5_000);
    f.areaStep({ kind: 'destination-fault', on: 'east', destinationType: 'codehost', destination: 'gh1', fault: 'unreachable' });
    expect(call(f, 'DELETE', `${DEST}/codehost/gh1?purge=true&force_delete=true`).status).toBe(204);
    f.advance(SYNC_DELAY_MS);
    expect(call(f, 'GET', `${DEST}/codehost/gh1`).status).toBe(404);
    expect(Object.keys(storeOf(f, 'codehost', 'gh1'))).toHaveLength(2);
  });
});

describe('sync events replayed: evolve applies the association value each event records', () => {
  it('a replay folds the recorded values, and never asks the association machine again', () => {
    const w = synced();
    w.advance(5_000);
    expect(World.replay(w.log).stateHash()).toBe(w.stateHash());
    // The sync's outcome edited to a value the machine would not give on success: the replay applies it as recorded.
    const edited = w.log.map((e: any) => (e.type === 'sync-attempted' ? { ...e, value: 'linked.failedClient' } : e));
    const again = World.replay(edited);
    const id = Object.keys(again.state.clusters.named('east').sync.destinations['codehost/gh1'].associations)[0];
    expect(again.state.clusters.named('east').sync.destinations['codehost/gh1'].associations[id].value).toBe('linked.failedClient');
  });

  it('an event that records no value (a history of an older replsim) is refused, naming the association', () => {
    const w = synced();
    const edited = w.log.map((e: any) => {
      if (e.type !== 'sync-association-set') return e;
      const { value: _, ...rest } = e;
      return rest;
    });
    expect(() => World.replay(edited)).toThrow(/sync log is inconsistent: the event moving association codehost\/gh1 \S+ records no value/);
  });
});
