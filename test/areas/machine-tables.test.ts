// The spec's tables ("States and transitions", admin-api.md), walked row by row through the API
// (#11): each row is a request sent in the row's From state; the state is read back through the
// API; a refused row is refused with its registered refusal (code from the registry) and leaves the
// state as it was. The machines (models/*.machine.ts) decide each row; this test holds the rows in
// the spec's words, independently of them.
import { describe, expect, it } from 'vitest';
import { refusalDef } from '../../src/kernel/refusal.js';
import type { ApiResponse } from '../../src/kernel/http/http.js';
import { World, type RequestResult } from '../../src/world.js';
import { drOperationToken, drPair, drWorld, enablePrimary, rootOf, secondaryToken } from './replication/helpers.js';
import { PERF, enablePerfPrimary, perfPair, perfToken, perfWorld } from './replication/performance/helpers.js';
import { CONNECTIONS, DEST, syncWorld, writeSecret } from './sync/helpers.js';

type Kind = 'dr' | 'performance';
const base = (kind: Kind) => (kind === 'dr' ? 'sys/replication/dr' : PERF);

function send(w: World, cluster: string, method: string, path: string, body?: unknown, token?: string): RequestResult {
  return w.send(cluster, { method, path, body, token });
}

/** The row was accepted (2xx). */
function accepted(r: RequestResult): void {
  expect(r.response.status, JSON.stringify(r.response.body)).toBeLessThan(300);
  expect(r.refusal).toBeUndefined();
}

/** The row was refused with this registered code, and nothing was appended. */
function refusedWith(w: World, r: RequestResult, code: string): void {
  expect(r.response.status, JSON.stringify(r.response.body)).toBeGreaterThanOrEqual(400);
  expect(r.refusal?.code).toBe(code);
  expect(refusalDef(code)).toBeDefined();
  expect(r.events).toEqual([]);
}

/** The role of `cluster` for `kind`, read back through the status endpoint. */
function modeOf(w: World, cluster: string, kind: Kind): string {
  const s = w.request(cluster, { method: 'GET', path: `${base(kind)}/status` });
  return (s.body as { data: { mode: string } }).data.mode;
}

const data = (r: ApiResponse): any => (r.body as { data: unknown }).data;

describe('role table, DR: every row through the API', () => {
  it('disabled → primary/enable → primary; a primary cannot be enabled again', () => {
    const w = drWorld();
    expect(modeOf(w, 'east', 'dr')).toBe('disabled');
    accepted(send(w, 'east', 'POST', 'sys/replication/dr/primary/enable', {}, rootOf(w, 'east')));
    expect(modeOf(w, 'east', 'dr')).toBe('primary');
    refusedWith(w, send(w, 'east', 'POST', 'sys/replication/dr/primary/enable', {}, rootOf(w, 'east')), 'replication.alreadyPrimary');
  });

  it('primary → primary/demote → secondary (keeps its cluster id); primary → primary/disable → disabled', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    const id = data(w.request('east', { method: 'GET', path: 'sys/replication/dr/status' })).cluster_id;
    accepted(send(w, 'east', 'POST', 'sys/replication/dr/primary/demote', {}, rootOf(w, 'east')));
    expect(modeOf(w, 'east', 'dr')).toBe('secondary');
    expect(data(w.request('east', { method: 'GET', path: 'sys/replication/dr/status' })).cluster_id).toBe(id);

    enablePrimary(w, 'south');
    accepted(send(w, 'south', 'POST', 'sys/replication/dr/primary/disable', {}, rootOf(w, 'south')));
    expect(modeOf(w, 'south', 'dr')).toBe('disabled');
    // Not a primary any more: demote is refused.
    refusedWith(w, send(w, 'south', 'POST', 'sys/replication/dr/primary/demote', {}, rootOf(w, 'south')), 'replication.notPrimary');
  });

  it('disabled → secondary/enable with a valid activation token → secondary; an invalid token is refused', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    refusedWith(w, send(w, 'west', 'POST', 'sys/replication/dr/secondary/enable', { token: 'not.a.token' }, rootOf(w, 'west')), 'replication.tokenUndecodable');
    expect(modeOf(w, 'west', 'dr')).toBe('disabled');
    const token = secondaryToken(w, 'east', 'west');
    accepted(send(w, 'west', 'POST', 'sys/replication/dr/secondary/enable', { token }, rootOf(w, 'west')));
    expect(modeOf(w, 'west', 'dr')).toBe('secondary');
  });

  it('secondary → promote needs the DR operation token and, unless forced, the safety checks → primary', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    accepted(send(w, 'west', 'POST', 'sys/replication/dr/secondary/enable', { token: secondaryToken(w, 'east', 'west') }, rootOf(w, 'west')));
    // No operation token: refused by the authorisation step (Authentication, rule 2).
    refusedWith(w, send(w, 'west', 'POST', 'sys/replication/dr/secondary/promote', {}), 'http.missingOperationToken');
    refusedWith(w, send(w, 'west', 'POST', 'sys/replication/dr/secondary/promote', { dr_operation_token: 'hvs.wrong' }), 'http.invalidOperationToken');
    // Cut off before the initial sync: the safety checks fail, so an unforced promote is refused.
    w.partition(['east', 'west']);
    const op = drOperationToken(w, 'west', 'east');
    refusedWith(w, send(w, 'west', 'POST', 'sys/replication/dr/secondary/promote', { dr_operation_token: op }), 'replication.unsafePromotion');
    expect(modeOf(w, 'west', 'dr')).toBe('secondary');
    accepted(send(w, 'west', 'POST', 'sys/replication/dr/secondary/promote', { dr_operation_token: op, force: true }));
    expect(modeOf(w, 'west', 'dr')).toBe('primary');
  });

  it('secondary → secondary/disable needs the DR operation token → disabled', () => {
    const w = drWorld();
    drPair(w);
    refusedWith(w, send(w, 'west', 'POST', 'sys/replication/dr/secondary/disable', {}), 'http.missingOperationToken');
    const op = drOperationToken(w, 'west', 'east');
    accepted(send(w, 'west', 'POST', 'sys/replication/dr/secondary/disable', { dr_operation_token: op }));
    expect(modeOf(w, 'west', 'dr')).toBe('disabled');
  });

  it('secondary → update-primary: token or addresses, not both → secondary; a newly demoted one needs a token', () => {
    const w = drWorld();
    drPair(w);
    const op = drOperationToken(w, 'west', 'east');
    const token = secondaryToken(w, 'east', 'west2');
    refusedWith(w, send(w, 'west', 'POST', 'sys/replication/dr/secondary/update-primary', { dr_operation_token: op, token, update_primary_addrs: ['east:8201'] }), 'replication.tokenAndAddresses');
    accepted(send(w, 'west', 'POST', 'sys/replication/dr/secondary/update-primary', { dr_operation_token: op, token }));
    expect(modeOf(w, 'west', 'dr')).toBe('secondary');
    // A newly demoted primary (area A rule 3).
    accepted(send(w, 'east', 'POST', 'sys/replication/dr/primary/demote', {}, rootOf(w, 'east')));
    const eastOp = drOperationToken(w, 'east', 'east');
    refusedWith(w, send(w, 'east', 'POST', 'sys/replication/dr/secondary/update-primary', { dr_operation_token: eastOp, update_primary_addrs: ['west:8201'] }), 'replication.addressesAfterDemotion');
    expect(modeOf(w, 'east', 'dr')).toBe('secondary');
  });

  it('the note: a secondary must be promoted, not enabled as a primary', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    accepted(send(w, 'east', 'POST', 'sys/replication/dr/primary/demote', {}, rootOf(w, 'east')));
    // A DR secondary serves no client request: primary/enable is refused before the handler.
    refusedWith(w, send(w, 'east', 'POST', 'sys/replication/dr/primary/enable', {}, rootOf(w, 'east')), 'http.drSecondaryClosed');
  });

  it('(primary side) revoke-secondary by id: the secondary is barred until given a new token', () => {
    const w = drWorld();
    drPair(w);
    refusedWith(w, send(w, 'east', 'POST', 'sys/replication/dr/primary/revoke-secondary', { id: 'nobody' }, rootOf(w, 'east')), 'replication.unknownId');
    accepted(send(w, 'east', 'POST', 'sys/replication/dr/primary/revoke-secondary', { id: 'west' }, rootOf(w, 'east')));
    refusedWith(w, send(w, 'east', 'POST', 'sys/replication/dr/primary/revoke-secondary', { id: 'west' }, rootOf(w, 'east')), 'replication.alreadyRevoked');
  });
});

describe('role table, performance: every row through the API (no DR operation token)', () => {
  it('disabled → enable → primary → demote → secondary; disable → disabled', () => {
    const w = perfWorld();
    enablePerfPrimary(w, 'east');
    expect(modeOf(w, 'east', 'performance')).toBe('primary');
    refusedWith(w, send(w, 'east', 'POST', `${PERF}/primary/enable`, {}, rootOf(w, 'east')), 'replication.alreadyPrimary');
    accepted(send(w, 'east', 'POST', `${PERF}/primary/demote`, {}, rootOf(w, 'east')));
    expect(modeOf(w, 'east', 'performance')).toBe('secondary');
    refusedWith(w, send(w, 'east', 'POST', `${PERF}/primary/enable`, {}, rootOf(w, 'east')), 'replication.mustPromote');
    accepted(send(w, 'south', 'POST', `${PERF}/primary/enable`, {}, rootOf(w, 'south')));
    accepted(send(w, 'south', 'POST', `${PERF}/primary/disable`, {}, rootOf(w, 'south')));
    expect(modeOf(w, 'south', 'performance')).toBe('disabled');
  });

  it('secondary/enable with a valid token → secondary; promote → primary; update-primary; secondary/disable → disabled', () => {
    const w = perfWorld();
    const root = perfPair(w);
    expect(modeOf(w, 'west', 'performance')).toBe('secondary');
    refusedWith(w, send(w, 'west', 'POST', `${PERF}/secondary/enable`, { token: perfToken(w, 'east', 'again') }, root), 'replication.alreadySecondary');
    const token = perfToken(w, 'east', 'west2');
    refusedWith(w, send(w, 'west', 'POST', `${PERF}/secondary/update-primary`, { token, update_primary_addrs: ['east:8201'] }, root), 'replication.tokenAndAddresses');
    accepted(send(w, 'west', 'POST', `${PERF}/secondary/update-primary`, { token }, root));
    expect(modeOf(w, 'west', 'performance')).toBe('secondary');
    w.advance(1000);
    accepted(send(w, 'west', 'POST', `${PERF}/secondary/promote`, {}, root));
    expect(modeOf(w, 'west', 'performance')).toBe('primary');
    refusedWith(w, send(w, 'west', 'POST', `${PERF}/secondary/disable`, {}, root), 'replication.notSecondary');
    accepted(send(w, 'west', 'POST', `${PERF}/primary/demote`, {}, root));
    accepted(send(w, 'west', 'POST', `${PERF}/secondary/disable`, {}, root));
    expect(modeOf(w, 'west', 'performance')).toBe('disabled');
  });
});

describe('operation token generation attempt table: every row through the API', () => {
  const ATTEMPT = 'sys/replication/dr/secondary/generate-operation-token/attempt';
  const UPDATE = 'sys/replication/dr/secondary/generate-operation-token/update';
  it('none → start → in progress (one at a time) → shares → complete; cancel → none; wrong nonce and repeated share refused', () => {
    const w = drWorld();
    drPair(w);
    const status = () => w.request('west', { method: 'GET', path: ATTEMPT }).body as { started: boolean; progress: number; required: number; nonce: string };
    expect(status().started).toBe(false);
    // Update without an attempt: refused.
    refusedWith(w, send(w, 'west', 'POST', UPDATE, { key: w.state.operators.east.keys[0], nonce: 'x' }), 'operation-token.noAttempt');
    accepted(send(w, 'west', 'POST', ATTEMPT, {}));
    const s = status();
    expect(s.started).toBe(true);
    refusedWith(w, send(w, 'west', 'POST', ATTEMPT, {}), 'operation-token.attemptInProgress');
    // Cancel → none, progress cleared.
    accepted(send(w, 'west', 'DELETE', ATTEMPT));
    expect(status().started).toBe(false);
    accepted(send(w, 'west', 'POST', ATTEMPT, {}));
    const { nonce, required } = status();
    const keys = w.state.operators.east.keys;
    refusedWith(w, send(w, 'west', 'POST', UPDATE, { key: keys[0], nonce: 'wrong' }), 'operation-token.wrongNonce');
    accepted(send(w, 'west', 'POST', UPDATE, { key: keys[0], nonce }));
    expect(status().progress).toBe(1);
    refusedWith(w, send(w, 'west', 'POST', UPDATE, { key: keys[0], nonce }), 'operation-token.shareRepeated');
    let last: RequestResult | undefined;
    for (const key of keys.slice(1, required)) last = send(w, 'west', 'POST', UPDATE, { key, nonce });
    accepted(last!);
    expect((last!.response.body as { complete: boolean }).complete).toBe(true);
    expect(status().started).toBe(false);
  });
});

describe('sync association table: every row through the API', () => {
  it('unlinked → set → linked; linked → set → linked (refresh); linked → remove → unlinked; remove when unlinked reports success', () => {
    const w = syncWorld();
    const root = rootOf(w, 'east');
    writeSecret(w, 'a', { k: 'v' });
    accepted(send(w, 'east', 'POST', `${DEST}/codehost/gh1`, CONNECTIONS.codehost, root));
    // Linked: listed with a status other than UNSYNCED (an unlinked association reads back UNSYNCED, or not at all).
    const linked = () =>
      Object.values<{ sync_status: string }>(data(w.request('east', { method: 'GET', path: `${DEST}/codehost/gh1/associations`, token: root })).associated_secrets).filter(
        (a) => a.sync_status !== 'UNSYNCED',
      ).length;
    expect(linked()).toBe(0);
    const set = () => send(w, 'east', 'POST', `${DEST}/codehost/gh1/associations/set`, { mount: 'secret', secret_name: 'a' }, root);
    const remove = () => send(w, 'east', 'POST', `${DEST}/codehost/gh1/associations/remove`, { mount: 'secret', secret_name: 'a' }, root);
    accepted(set());
    expect(linked()).toBe(1);
    const refresh = set();
    accepted(refresh);
    expect(refresh.events.some((e) => e.type.startsWith('sync-'))).toBe(true);
    expect(linked()).toBe(1);
    // The unsync deletes the secret in the external system; the association goes when it is done.
    accepted(remove());
    w.advance(10_000);
    expect(linked()).toBe(0);
    accepted(remove());
    w.advance(10_000);
    expect(linked()).toBe(0);
    // Not a row of the table: an association with a secret that does not exist is refused with its registered refusal.
    refusedWith(w, send(w, 'east', 'POST', `${DEST}/codehost/gh1/associations/set`, { mount: 'old', secret_name: 'a' }, root), 'sync.notKvV2');
  });
});

describe('plugin runtime: registered by POST, removed by DELETE, not while a plugin references it', () => {
  it('absent → POST → registered (create, then update) → DELETE refused while referenced → DELETE → absent', () => {
    const w = syncWorld();
    const root = rootOf(w, 'east');
    const RT = 'sys/plugins/runtimes/catalog/container/gvisor';
    const read = () => w.send('east', { method: 'GET', path: RT, token: root });
    refusedWith(w, read(), 'plugins.runtimeUnknown');
    accepted(send(w, 'east', 'POST', RT, { oci_runtime: 'runsc' }, root));
    expect(data(read().response).oci_runtime).toBe('runsc');
    accepted(send(w, 'east', 'POST', RT, { oci_runtime: 'runsc', cpu_nanos: 1000 }, root));
    expect(data(read().response).cpu_nanos).toBe(1000);
    accepted(send(w, 'east', 'POST', 'sys/plugins/catalog/secret/my-plugin', { sha256: 'ab'.repeat(32), oci_image: 'example/plugin', runtime: 'gvisor' }, root));
    refusedWith(w, send(w, 'east', 'DELETE', RT, undefined, root), 'plugins.referenced');
    expect(read().response.status).toBe(200);
    accepted(send(w, 'east', 'DELETE', 'sys/plugins/catalog/secret/my-plugin', undefined, root));
    accepted(send(w, 'east', 'DELETE', RT, undefined, root));
    refusedWith(w, read(), 'plugins.runtimeUnknown');
    refusedWith(w, send(w, 'east', 'DELETE', RT, undefined, root), 'plugins.runtimeAbsent');
  });
});
