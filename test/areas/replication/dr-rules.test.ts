// Area A's rules 1–5 (update-primary), each pinned on its own. Rule 8 (response shapes) is in
// dr-status and dr-activation-tokens; rules 6–7 belong to reindex and generation attempts.
import { describe, expect, it } from 'vitest';
import type { World } from '../../../src/world.js';
import {
  DR,
  drOperationToken,
  drPair,
  drStatus,
  drWorld,
  enablePrimary,
  enableSecondary,
  expectOk,
  expectRefused,
  operationTokensBuilt,
  post,
  secondaryToken,
} from './helpers.js';

/** east and west both primaries of one set (west promoted while east was down), south following east. */
function twoPrimariesOfOneSet(): { w: World; op: string } {
  const w = drWorld();
  enablePrimary(w, 'east');
  enableSecondary(w, 'east', 'west');
  enableSecondary(w, 'east', 'south');
  w.advance(1000);
  w.crash('east');
  expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: drOperationToken(w, 'west', 'east') }));
  w.restart('east');
  return { w, op: drOperationToken(w, 'south', 'east') };
}

const updatePrimary = (w: World, cluster: string, body: Record<string, unknown>) => post(w, cluster, `${DR}/secondary/update-primary`, body);

describe.skipIf(!operationTokensBuilt)('area A rules for update-primary', () => {
  it('rule 1: a token or update_primary_addrs, never both', () => {
    const w = drWorld();
    drPair(w);
    const op = drOperationToken(w, 'west', 'east');
    const token = secondaryToken(w, 'east', 'x');
    const hash = w.stateHash();
    const r = updatePrimary(w, 'west', { dr_operation_token: op, token, update_primary_addrs: [w.state.clusters.named('east').apiAddr] });
    expectRefused(r, 400, 'not both');
    expect(r.body).toEqual({ errors: ['update-primary takes a token or update_primary_addrs, not both'] });
    expect(w.stateHash()).toBe(hash);
  });

  it('rule 2: addresses are pinged one at a time and the first to answer becomes the primary', () => {
    const { w, op } = twoPrimariesOfOneSet();
    const [east, west] = [w.state.clusters.named('east'), w.state.clusters.named('west')];
    // An address nobody answers at, then west: west wins.
    expectOk(updatePrimary(w, 'south', { dr_operation_token: op, update_primary_addrs: ['https://nowhere.example:8201', west.clusterAddr, east.clusterAddr] }));
    expect(w.state.clusters.named('south').replication.dr.primary).toBe('west');
    expect(drStatus(w, 'south').known_primary_cluster_addrs).toEqual(['https://nowhere.example:8201', west.clusterAddr, east.clusterAddr]);
    // Both answer: the first listed wins.
    expectOk(updatePrimary(w, 'south', { dr_operation_token: op, update_primary_addrs: [east.apiAddr, west.apiAddr] }));
    expect(w.state.clusters.named('south').replication.dr.primary).toBe('east');
    // A partitioned address does not answer: the next one is taken.
    w.partition(['south', 'east']);
    expectOk(updatePrimary(w, 'south', { dr_operation_token: op, update_primary_addrs: [east.apiAddr, west.apiAddr] }));
    expect(w.state.clusters.named('south').replication.dr.primary).toBe('west');
    // Nobody answers: refused, nothing changes.
    w.partition(['south', 'west']);
    expectRefused(updatePrimary(w, 'south', { dr_operation_token: op, update_primary_addrs: [east.apiAddr, west.apiAddr] }), 400, 'none of update_primary_addrs answered');
    expect(w.state.clusters.named('south').replication.dr.primary).toBe('west');
  });

  it('rule 2: update_primary_addrs takes host:port strings, as the service documents them', () => {
    const { w, op } = twoPrimariesOfOneSet();
    // "A comma separated list of host:port strings": west's cluster port, written without a scheme.
    expectOk(updatePrimary(w, 'south', { dr_operation_token: op, update_primary_addrs: ['nowhere.example:8201', 'west.replsim.test:8201'] }));
    expect(w.state.clusters.named('south').replication.dr.primary).toBe('west');
    expect(drStatus(w, 'south').known_primary_cluster_addrs).toEqual(['nowhere.example:8201', 'west.replsim.test:8201']);
    // Letter case and the API port name the same cluster; a host without its port names none.
    expectOk(updatePrimary(w, 'south', { dr_operation_token: op, update_primary_addrs: ['EAST.replsim.test:8200'] }));
    expect(w.state.clusters.named('south').replication.dr.primary).toBe('east');
    const hash = w.stateHash();
    expectRefused(updatePrimary(w, 'south', { dr_operation_token: op, update_primary_addrs: ['west.replsim.test', 'west.replsim.test:9999'] }), 400, 'none of update_primary_addrs answered');
    expect(w.stateHash()).toBe(hash);
  });

  it('rule 3: a newly demoted secondary must be updated with a token, not addresses', () => {
    const w = drWorld();
    drPair(w);
    expectOk(post(w, 'east', `${DR}/primary/demote`));
    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: drOperationToken(w, 'west', 'east') }));
    const op = drOperationToken(w, 'east', 'east');
    const r = updatePrimary(w, 'east', { dr_operation_token: op, update_primary_addrs: [w.state.clusters.named('west').clusterAddr] });
    expectRefused(r, 400, 'newly demoted');
    expect(w.state.clusters.named('east').replication.dr.role).toBe('secondary.demoted');
    // With a token it follows; after that, addresses are allowed.
    expectOk(updatePrimary(w, 'east', { dr_operation_token: op, token: secondaryToken(w, 'west', 'east', {}, w.state.operators.east.rootToken) }));
    expectOk(updatePrimary(w, 'east', { dr_operation_token: op, update_primary_addrs: [w.state.clusters.named('west').clusterAddr] }));
  });

  it('rule 4: token is required, yet an empty one is allowed and makes the secondary forget its primary', () => {
    const w = drWorld();
    drPair(w);
    const op = drOperationToken(w, 'west', 'east');
    expectRefused(updatePrimary(w, 'west', { dr_operation_token: op }), 400, 'needs a token or update_primary_addrs');
    const r = updatePrimary(w, 'west', { dr_operation_token: op, token: '' });
    expect(r.status).toBe(204);
    w.advance(1000);
    expect(w.state.clusters.named('west').replication.dr.role).toBe('secondary.unassigned');
    expect(drStatus(w, 'west')).toMatchObject({ mode: 'secondary', primaries: [], known_primary_cluster_addrs: [], state: 'idle', connection_state: 'shutdown' });
    expect(drStatus(w, 'east').secondaries).toEqual([]);
  });

  it('rule 5: update-primary wipes nothing', () => {
    const w = drWorld();
    drPair(w);
    const op = drOperationToken(w, 'west', 'east');
    const before = w.state.clusters.named('west').storage;
    const held = drStatus(w, 'west').last_remote_wal;
    expect(held).toBe(drStatus(w, 'east').last_wal);
    expectOk(updatePrimary(w, 'west', { dr_operation_token: op, token: secondaryToken(w, 'east', 'west-again') }));
    expect(w.state.clusters.named('west').storage).toBe(before);
    expect(drStatus(w, 'west')).toMatchObject({ last_remote_wal: held });
  });
});
