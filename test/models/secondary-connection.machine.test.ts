// The secondary-connection machine's table (models/secondary-connection.machine.ts), row by row,
// through the API: each row is brought about by what an operator does (enable, partition, heal,
// crash, revoke, demote, update-primary, disable) and read back from the status record's `state`
// and `connection_state`, and, for a dropped link, from the reason the log records.
import { describe, expect, it } from 'vitest';
import { linkDownReason, stepConnection, type LinkFacts } from '../../models/secondary-connection.machine.js';
import type { World } from '../../src/world.js';
import {
  DR,
  drOperationToken,
  drStatus,
  drWorld,
  enablePrimary,
  enableSecondary,
  expectOk,
  post,
  rootOf,
  secondaryToken,
} from '../areas/replication/helpers.js';

const LATENCY = 50;
const UP: LinkFacts = { reachable: true, primaryIsPrimary: true, sameReplicationSet: true, credentialsAccepted: true };

/** West's connection as its status record reports it. */
const connection = (w: World) => {
  const s = drStatus(w, 'west');
  return s.mode === 'secondary' ? `${s.connection_state}/${s.state}` : `mode ${s.mode}`;
};

/** The reason of the last dropped link the log records for west. */
const lastDrop = (w: World) => [...w.log].reverse().find((e) => e.type === 'replication-secondary-disconnected' && e.cluster === 'west') as { reason?: string } | undefined;

/** East primary, west enabled as its secondary, streaming. */
function streaming(): World {
  const w = drWorld({ latencyMs: LATENCY });
  enablePrimary(w, 'east');
  enableSecondary(w, 'east', 'west');
  w.advance(1000);
  expect(connection(w)).toBe('ready/stream-wals');
  return w;
}

describe('secondary connection machine, walked through the API', () => {
  it('idle → connecting → ready.merkle-sync → ready.stream-wals on activation', () => {
    const w = drWorld({ latencyMs: LATENCY });
    enablePrimary(w, 'east');
    expect(connection(w)).toBe('mode disabled');
    enableSecondary(w, 'east', 'west');
    expect(connection(w)).toBe('connecting/idle');
    w.advance(LATENCY - 1);
    expect(connection(w)).toBe('connecting/idle');
    w.advance(1);
    expect(connection(w)).toBe('ready/merkle-sync');
    w.advance(LATENCY);
    expect(connection(w)).toBe('ready/stream-wals');
  });

  it('ready → transient_failure on a partition (unreachable), → connecting on heal, → ready.stream-wals (resumes streaming)', () => {
    const w = streaming();
    w.partition(['east', 'west']);
    expect(connection(w)).toBe('transient_failure/idle');
    w.advance(10);
    expect(lastDrop(w)?.reason).toBe('unreachable');
    w.heal(['east', 'west']);
    expect(connection(w)).toBe('connecting/idle');
    w.advance(LATENCY);
    expect(connection(w)).toBe('ready/stream-wals');
  });

  it('ready → transient_failure when the primary crashes (the crash ends the connection), back once a redial after the restart gets through', () => {
    const w = streaming();
    w.crash('east');
    expect(connection(w)).toBe('transient_failure/idle');
    // The crash itself recorded the loss (the machine's `lost`): no later disconnection event.
    w.advance(500);
    expect(lastDrop(w)).toBeUndefined();
    expect(w.state.clusters.named('west').replication.dr.connected).toBe(false);
    w.restart('east');
    expect(connection(w)).toBe('connecting/idle');
    // West dialled at the crash; that dial found east down (at 20 ms), so the next one waits its
    // backoff: it starts 1 s after that failure, and gets through one latency later.
    w.advance(LATENCY);
    expect(connection(w)).toBe('connecting/idle');
    w.advance(1000 + 2 * LATENCY - 500 - LATENCY);
    expect(connection(w)).toBe('ready/stream-wals');
  });

  it('ready → connecting when the primary crashes and restarts in the same instant: the connection is gone all the same', () => {
    const w = streaming();
    w.crash('east');
    w.restart('east');
    expect(connection(w)).toBe('connecting/idle');
    w.advance(LATENCY);
    expect(connection(w)).toBe('ready/stream-wals');
  });

  it('ready → transient_failure when its credentials are revoked (revoked), and stays there', () => {
    const w = streaming();
    expect(post(w, 'east', `${DR}/primary/revoke-secondary`, { id: 'west' }).status).toBe(204);
    expect(connection(w)).toBe('transient_failure/idle');
    w.advance(1000);
    expect(lastDrop(w)?.reason).toBe('revoked');
    expect(connection(w)).toBe('transient_failure/idle');
  });

  it('ready → transient_failure when the primary is demoted (not-a-primary)', () => {
    const w = streaming();
    expectOk(post(w, 'east', `${DR}/primary/demote`));
    expect(connection(w)).toBe('transient_failure/idle');
    w.advance(10);
    expect(lastDrop(w)?.reason).toBe('not-a-primary');
  });

  it('ready → transient_failure when the primary starts another replication set (other-replication-set)', () => {
    const w = streaming();
    expectOk(post(w, 'east', `${DR}/primary/disable`));
    enablePrimary(w, 'east');
    expect(connection(w)).toBe('transient_failure/idle');
    w.advance(10);
    expect(lastDrop(w)?.reason).toBe('other-replication-set');
  });

  it('any → connecting → ready.merkle-diff → ready.stream-wals on update-primary with a new token', () => {
    const w = streaming();
    const token = secondaryToken(w, 'east', 'west-again');
    expectOk(post(w, 'west', `${DR}/secondary/update-primary`, { dr_operation_token: drOperationToken(w, 'west', 'east'), token }));
    expect(connection(w)).toBe('connecting/idle');
    w.advance(LATENCY);
    expect(connection(w)).toBe('ready/merkle-diff');
    w.advance(LATENCY);
    expect(connection(w)).toBe('ready/stream-wals');
  });

  it('ready → shutdown on update-primary with an empty token (it closes its connection), and stays there', () => {
    const w = streaming();
    expectOk(post(w, 'west', `${DR}/secondary/update-primary`, { dr_operation_token: drOperationToken(w, 'west', 'east'), token: '' }));
    expect(connection(w)).toBe('shutdown/idle');
    w.advance(1000);
    expect(connection(w)).toBe('shutdown/idle');
  });

  it('shutdown → connecting → ready.merkle-diff when pointed at a primary again', () => {
    const w = streaming();
    expectOk(post(w, 'west', `${DR}/secondary/update-primary`, { dr_operation_token: drOperationToken(w, 'west', 'east'), token: '' }));
    expectOk(post(w, 'west', `${DR}/secondary/update-primary`, { dr_operation_token: drOperationToken(w, 'west', 'east'), token: secondaryToken(w, 'east', 'west-again') }));
    expect(connection(w)).toBe('connecting/idle');
    w.advance(1000);
    expect(connection(w)).toBe('ready/stream-wals');
  });

  it('a secondary that never had a connection (a demoted primary following nobody) is idle, not shutdown', () => {
    const w = streaming();
    expectOk(post(w, 'east', `${DR}/primary/demote`));
    expect(drStatus(w, 'east')).toMatchObject({ mode: 'secondary', connection_state: 'idle' });
  });

  it('a promoted secondary reports no connection (mode primary)', () => {
    const w = streaming();
    expectOk(post(w, 'east', `${DR}/primary/demote`));
    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: drOperationToken(w, 'west', 'east') }, rootOf(w, 'west')));
    expect(drStatus(w, 'west').mode).toBe('primary');
  });
});

describe('secondary connection machine, its guards', () => {
  it('names the first fact that keeps a link down, in the status reasons order', () => {
    expect(linkDownReason(UP)).toBeNull();
    expect(linkDownReason({ ...UP, reachable: false, credentialsAccepted: false })).toBe('unreachable');
    expect(linkDownReason({ ...UP, primaryIsPrimary: false, sameReplicationSet: false })).toBe('not-a-primary');
    expect(linkDownReason({ ...UP, sameReplicationSet: false })).toBe('other-replication-set');
    expect(linkDownReason({ ...UP, credentialsAccepted: false })).toBe('revoked');
  });

  it('connects only over a link that is up, and only from connecting', () => {
    const connecting = { state: 'connecting', phase: 'merkle-sync', reason: null } as const;
    expect(stepConnection(connecting, { type: 'connect', link: UP })).toEqual({ state: 'ready', phase: 'merkle-sync', reason: null });
    expect(stepConnection(connecting, { type: 'connect', link: { ...UP, credentialsAccepted: false } })).toBeNull();
    expect(stepConnection({ state: 'idle', phase: 'stream-wals', reason: null }, { type: 'connect', link: UP })).toBeNull();
    expect(stepConnection({ state: 'ready', phase: 'stream-wals', reason: null }, { type: 'sync-done' })).toBeNull();
  });
});
