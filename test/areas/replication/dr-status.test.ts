// The status record (area A rule 8; field names and shapes from the facts file), for a disabled
// cluster, a primary and a secondary, and the combined sys/replication/status.
import { describe, expect, it } from 'vitest';
import { World } from '../../../src/world.js';
import { rfc3339 } from '../../../src/kernel/clock.js';
import { dataOf, drPair, drStatus, drWorld, enablePrimary, enableSecondary, get } from './helpers.js';

/** When west's latest DR connection came up, read from the log. */
function connectedAt(w: World): number {
  const up = w.log.filter((e) => e.type === 'replication-secondary-connected' && e.cluster === 'west' && e.kind === 'dr');
  return up[up.length - 1].at;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const INT_STRING = /^-?\d+$/;

describe('DR status record', () => {
  it('of a disabled cluster is just the mode', () => {
    expect(drStatus(drWorld(), 'east')).toEqual({ mode: 'disabled' });
  });

  it('of a primary carries the primary fields, with its secondaries', () => {
    const w = drWorld();
    drPair(w);
    const s = drStatus(w, 'east');
    expect(Object.keys(s).sort()).toEqual(
      [
        'cluster_id',
        'corrupted_merkle_tree',
        'known_secondaries',
        'last_corruption_check_epoch',
        'last_dr_wal',
        'last_reindex_epoch',
        'last_wal',
        'merkle_root',
        'mode',
        'primary_cluster_addr',
        'secondaries',
        'ssct_generation_counter',
        'state',
      ].sort(),
    );
    expect(s).toMatchObject({
      mode: 'primary',
      state: 'running',
      known_secondaries: ['west'],
      last_reindex_epoch: '0',
      last_corruption_check_epoch: '-62135596800',
      corrupted_merkle_tree: false,
      primary_cluster_addr: '',
      ssct_generation_counter: 0,
    });
    expect(s.merkle_root).toMatch(/^[0-9a-f]{40}$/);
    expect(s.last_dr_wal).toBe(s.last_wal);
    const [entry] = s.secondaries;
    expect(Object.keys(entry).sort()).toEqual(
      ['api_address', 'clock_skew_ms', 'cluster_address', 'connection_status', 'last_heartbeat', 'last_heartbeat_duration_ms', 'node_id', 'replication_primary_canary_age_ms'].sort(),
    );
    expect(entry).toMatchObject({ node_id: 'west', api_address: w.state.clusters.named('west').apiAddr, cluster_address: w.state.clusters.named('west').clusterAddr, connection_status: 'connected' });
    expect(entry.last_heartbeat).toMatch(RFC3339);
    for (const f of ['clock_skew_ms', 'last_heartbeat_duration_ms', 'replication_primary_canary_age_ms']) expect(entry[f]).toMatch(INT_STRING);
  });

  it('of a secondary carries the secondary fields, with its primary', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    w.advance(2000);
    enableSecondary(w, 'east', 'west');
    w.advance(1000);
    const s = drStatus(w, 'west');
    expect(Object.keys(s).sort()).toEqual(
      [
        'cluster_id',
        'connection_state',
        'corrupted_merkle_tree',
        'known_primary_cluster_addrs',
        'last_corruption_check_epoch',
        'last_reindex_epoch',
        'last_remote_wal',
        'last_start',
        'merkle_root',
        'mode',
        'primaries',
        'primary_cluster_addr',
        'secondary_id',
        'ssct_generation_counter',
        'state',
      ].sort(),
    );
    const east = w.state.clusters.named('east');
    expect(s).toMatchObject({
      mode: 'secondary',
      cluster_id: drStatus(w, 'east').cluster_id,
      state: 'stream-wals',
      connection_state: 'ready',
      secondary_id: 'west',
      known_primary_cluster_addrs: [east.clusterAddr],
      primary_cluster_addr: east.clusterAddr,
      last_start: rfc3339(2000),
    });
    expect(s.primaries).toEqual([
      {
        api_address: east.apiAddr,
        cluster_address: east.clusterAddr,
        connection_status: 'connected',
        // Less than one heartbeat interval after the connection came up: its establishment is the last exchange.
        last_heartbeat: rfc3339(connectedAt(w)),
        clock_skew_ms: '0',
        last_heartbeat_duration_ms: expect.stringMatching(INT_STRING),
        replication_primary_canary_age_ms: expect.stringMatching(INT_STRING),
      },
    ]);
  });

  it('keeps the last heartbeat of a link that went down', () => {
    const w = drWorld();
    drPair(w);
    w.advance(11_500);
    const t0 = connectedAt(w);
    const latency = w.state.network.latencyMs;
    // Echoes leave west every 5 s from the connection's start; two reached east, and their answers west.
    expect(w.now - t0).toBeGreaterThan(10_000 + 2 * latency);
    expect(w.now - t0).toBeLessThan(15_000);
    w.partition(['east', 'west']);
    w.advance(60_000);
    expect(drStatus(w, 'west').primaries[0]).toMatchObject({ connection_status: 'disconnected', last_heartbeat: rfc3339(t0 + 10_000 + 2 * latency) });
    expect(drStatus(w, 'east').secondaries[0]).toMatchObject({ connection_status: 'disconnected', last_heartbeat: rfc3339(t0 + 10_000 + latency) });
  });

  it('shows a corrupted merkle tree', () => {
    const w = drWorld();
    drPair(w);
    const root = drStatus(w, 'west').merkle_root;
    w.areaStep({ kind: 'corrupt', on: 'west', tree: 'replicated', page: 3, subpage: 17 });
    expect(drStatus(w, 'west')).toMatchObject({ corrupted_merkle_tree: true });
    expect(drStatus(w, 'west').merkle_root).not.toBe(root);
  });
});

describe('GET sys/replication/status', () => {
  it('answers both kinds, unauthenticated', () => {
    const w = drWorld();
    drPair(w);
    const d = dataOf(get(w, 'west', 'sys/replication/status'));
    expect(d).toEqual({ dr: drStatus(w, 'west'), performance: { mode: 'disabled' } });
  });

  it('answers mode disabled on a cluster without an enterprise licence', () => {
    const w = World.create({ ce: { license: 'none' } });
    expect(dataOf(get(w, 'ce', 'sys/replication/status'))).toEqual({ mode: 'disabled' });
  });
});
