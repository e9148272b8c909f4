// The streaming process: connection after one link latency, the initial sync, WAL delivery as time
// passes, what a DR secondary receives, and how partitions, crashes and restarts stop and resume it.
import { describe, expect, it } from 'vitest';
import { replicatedStorage, replicationScopes } from '../../../src/areas/replication/index.js';
import type { World } from '../../../src/world.js';
import { drPair, drStatus, drWorld, enablePrimary, enableSecondary, rootOf, writeKv } from './helpers.js';

const typesSince = (w: World, from: number) => w.log.slice(from).map((e) => `${e.type}@${e.at}`);

describe('DR streaming', () => {
  it('connects one link latency after enable, syncs one latency later, then streams WALs', () => {
    const w = drWorld({ latencyMs: 50 });
    writeKv(w, 'east', 'a', { v: 1 });
    enablePrimary(w, 'east');
    enableSecondary(w, 'east', 'west');
    const from = w.log.length;
    w.advance(49);
    expect(drStatus(w, 'west')).toMatchObject({ state: 'idle', connection_state: 'connecting' });
    w.advance(1);
    expect(drStatus(w, 'west')).toMatchObject({ state: 'merkle-sync', connection_state: 'ready', last_remote_wal: 0 });
    w.advance(50);
    // Two replicated writes: the secret, and the token issued for west (known_secondaries is replicated storage).
    expect(drStatus(w, 'west')).toMatchObject({ state: 'stream-wals', connection_state: 'ready', last_remote_wal: 2 });
    expect(typesSince(w, from)).toEqual([
      'time-advanced@49',
      'replication-secondary-connected@50',
      'time-advanced@50',
      'replication-secondary-synced@100',
      'time-advanced@100',
    ]);
  });

  it('delivers a write one link latency after it, and nothing when there is nothing new', () => {
    const w = drWorld({ latencyMs: 30 });
    drPair(w);
    const at = w.now;
    writeKv(w, 'east', 'b', { v: 2 });
    const wal = drStatus(w, 'east').last_wal;
    w.advance(29);
    expect(drStatus(w, 'west').last_remote_wal).toBe(wal - 1);
    w.advance(1);
    expect(drStatus(w, 'west').last_remote_wal).toBe(wal);
    expect(w.log.find((e) => e.type === 'replication-wal-delivered')).toMatchObject({ at: at + 30, cluster: 'west', primary: 'east', kind: 'dr', wal });
    const length = w.log.length;
    w.advance(60_000);
    expect(w.log.length).toBe(length + 1); // only time-advanced
  });

  it('gives a DR secondary everything: local mounts, namespaces, tokens and keyring, sharing the primary’s objects', () => {
    const w = drWorld({ clusters: { east: { namespaces: ['team-a'], mounts: { secret: 'kv-v2', cache: { type: 'kv-v2', local: true }, 'team-a/apps': 'kv-v2' } }, west: {} } });
    writeKv(w, 'east', 'x', { v: 1 }, rootOf(w, 'east'), 'cache');
    writeKv(w, 'east', 'y', { v: 1 }, rootOf(w, 'east'), 'team-a/apps');
    drPair(w);
    const [east, west] = [w.state.clusters.named('east'), w.state.clusters.named('west')];
    expect(Object.keys(west.storage.mounts).sort()).toEqual(['cache/', 'secret/', 'team-a/apps/']);
    expect(west.storage.kv['cache/']?.get('x')).toBeDefined();
    expect(west.storage.namespaces).toEqual(east.storage.namespaces);
    // Structural sharing: the secondary holds the primary's storage object itself.
    expect(west.storage).toBe(east.storage);
    writeKv(w, 'east', 'z', { v: 1 });
    // A later write replaces the primary's objects and leaves the secondary's untouched until delivered.
    expect(w.state.clusters.named('west').storage.kv['secret/']?.get('z')).toBeUndefined();
    w.advance(1000);
    expect(w.state.clusters.named('west').storage.kv['secret/']?.get('z')).toBeDefined();
  });

  it('stops over a partition and resumes when it heals; the secondary shows the cut at once, the primary after two missed heartbeats', () => {
    const w = drWorld();
    drPair(w);
    w.partition(['east', 'west']);
    expect(drStatus(w, 'west')).toMatchObject({ connection_state: 'transient_failure', primaries: [{ connection_status: 'disconnected' }] });
    // East learns of it only from the echoes that stop coming.
    expect(drStatus(w, 'east').secondaries).toMatchObject([{ node_id: 'west', connection_status: 'connected' }]);
    writeKv(w, 'east', 'during', { v: 1 });
    w.advance(10_000);
    expect(drStatus(w, 'east').secondaries).toMatchObject([{ node_id: 'west', connection_status: 'disconnected' }]);
    const lag = drStatus(w, 'west').last_remote_wal;
    expect(lag).toBeLessThan(drStatus(w, 'east').last_wal);
    expect(w.log.some((e) => e.type === 'replication-secondary-disconnected')).toBe(true);
    w.heal(['east', 'west']);
    w.advance(1000);
    expect(drStatus(w, 'west')).toMatchObject({ connection_state: 'ready', last_remote_wal: drStatus(w, 'east').last_wal });
  });

  it('stops while the secondary is crashed and resumes after it restarts', () => {
    const w = drWorld();
    drPair(w);
    w.crash('west');
    // Still counted connected by east until two echoes were due and did not come.
    expect(drStatus(w, 'east').secondaries).toMatchObject([{ connection_status: 'connected' }]);
    writeKv(w, 'east', 'k', { v: 1 });
    w.advance(5000);
    expect(w.state.clusters.named('west').replication.dr.lastRemoteWal).toBeLessThan(w.state.clusters.named('east').wal.last);
    w.restart('west');
    w.advance(1000);
    expect(drStatus(w, 'west').last_remote_wal).toBe(w.state.clusters.named('east').wal.last);
  });

  it('stops while the primary is crashed and resumes after it restarts', () => {
    const w = drWorld();
    drPair(w);
    writeKv(w, 'east', 'k', { v: 1 });
    w.crash('east');
    w.advance(5000);
    expect(drStatus(w, 'west').connection_state).toBe('transient_failure');
    w.restart('east');
    w.advance(1000);
    expect(drStatus(w, 'west')).toMatchObject({ connection_state: 'ready', last_remote_wal: w.state.clusters.named('east').wal.last });
  });

  it('a secondary enabled while its primary is unreachable waits, then connects and syncs', () => {
    const w = drWorld();
    enablePrimary(w, 'east');
    enableSecondary(w, 'east', 'west');
    w.partition(['east', 'west']);
    w.advance(5000);
    expect(drStatus(w, 'west')).toMatchObject({ state: 'idle', connection_state: 'transient_failure', last_remote_wal: 0 });
    w.heal('all');
    w.advance(1000);
    expect(drStatus(w, 'west')).toMatchObject({ state: 'stream-wals', connection_state: 'ready' });
  });
});

describe('the delivery filter, shared with performance replication', () => {
  it('a non-mirroring scope carries non-local mounts the filter lets through, keeps the secondary’s own tokens and local mounts', () => {
    const w = drWorld({ clusters: { east: { mounts: { secret: 'kv-v2', other: 'kv-v2', cache: { type: 'kv-v2', local: true } } }, west: { mounts: { mine: { type: 'kv-v2', local: true } } } } });
    const [east, west] = [w.state.clusters.named('east'), w.state.clusters.named('west')];
    const scope = replicationScopes.performance;
    const saved = scope.includesMount;
    try {
      scope.includesMount = (_p, _id, m) => m.path !== 'other/';
      const s = replicatedStorage('performance', east, west, 'west');
      expect(Object.keys(s.mounts).sort()).toEqual(['mine/', 'secret/']);
      expect(s.mounts['secret/']).toBe(east.storage.mounts['secret/']);
      expect(s.tokens).toBe(west.storage.tokens);
      expect(s.keyring).toBe(east.storage.keyring);
    } finally {
      scope.includesMount = saved;
    }
    expect(replicatedStorage('dr', east, west, 'west')).toBe(east.storage);
  });
});
