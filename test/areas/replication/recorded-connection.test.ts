// The connection machine is asked once, by the process that makes the event, with the link's facts
// then; the reducers apply what the event records and refuse a move that is no row of its table.
import { describe, expect, it } from 'vitest';
import { World } from '../../../src/world.js';
import { drPair, drStatus, drWorld } from './helpers.js';

function connectedWorld(): World {
  const w = drWorld({ latencyMs: 50 });
  drPair(w);
  w.advance(200);
  return w;
}

describe('connection moves replayed as recorded', () => {
  it('a connection comes up into the sync the event records, whatever the link facts would say on replay', () => {
    const w = connectedWorld();
    const connected = w.log.find((e) => e.type === 'replication-secondary-connected') as { phase: string } | undefined;
    expect(connected?.phase).toBe('merkle-sync');
    // The recorded answer edited to another row of the same table: the replay applies it as recorded.
    const cut = w.log.findIndex((e) => e.type === 'replication-secondary-connected');
    const edited = w.log.slice(0, cut + 1).map((e) => (e.type === 'replication-secondary-connected' ? ({ ...e, phase: 'merkle-diff' } as typeof e) : e));
    expect(drStatus(World.replay(edited), 'west')).toMatchObject({ state: 'merkle-diff', connection_state: 'ready' });
  });

  it('a link dropped for the reason the event records', () => {
    const w = connectedWorld();
    w.partition([['east'], ['west']]);
    w.advance(10);
    const down = w.log.find((e) => e.type === 'replication-secondary-disconnected') as { reason: string } | undefined;
    expect(down?.reason).toBe('unreachable');
    expect(World.replay(w.log).stateHash()).toBe(w.stateHash());
  });

  it('a recorded move that is no row of the table is refused, naming the connection', () => {
    const w = connectedWorld();
    // A second "connected" for a connection that is up already: the table has no connect row from ready.
    const connected = w.log.find((e) => e.type === 'replication-secondary-connected')!;
    const edited = [...w.log, { ...connected, seq: w.log.length + 1, at: w.now }];
    expect(() => World.replay(edited)).toThrow(/west's dr connection has no connect row from ready to ready \(merkle-sync\)/);
  });
});

describe('a crash ends the connections its event lists', () => {
  it('the crash event lists the connections it ended, and replay applies the list as recorded', () => {
    const w = connectedWorld();
    w.crash('east');
    const crashed = w.log.find((e) => e.type === 'cluster-crashed') as { ended: string[] } | undefined;
    expect(crashed?.ended).toEqual(['dr:west']);
    expect(w.state.clusters.named('west').replication.dr.connected).toBe(false);
    // The list edited to nothing: the replayed secondary keeps a connection the original world lost.
    const edited = w.log.map((e) => (e.type === 'cluster-crashed' ? { ...e, ended: [] } : e));
    expect(World.replay(edited).state.clusters.named('west').replication.dr.connected).toBe(true);
  });
});
