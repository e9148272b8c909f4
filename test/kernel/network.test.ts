import { describe, expect, it } from 'vitest';
import { World, WorldUsageError } from '../../src/world.js';
import { linksOfPartition, reachable } from '../../src/kernel/network.js';

const world = () => World.create({ east: {}, west: {}, south: {} }, { seed: 3 });

describe('network faults', () => {
  it('partition of a pair cuts that link both ways and nothing else', () => {
    const w = world();
    w.partition(['east', 'west']);
    const net = w.state.network;
    expect(reachable(net, 'east', 'west')).toBe(false);
    expect(reachable(net, 'west', 'east')).toBe(false);
    expect(reachable(net, 'east', 'south')).toBe(true);
    expect(w.log.at(-1)?.type).toBe('links-cut');
  });

  it('partition of groups cuts every link between groups, none inside one', () => {
    expect(linksOfPartition([['east'], ['west', 'south']])).toEqual([
      ['east', 'west'],
      ['east', 'south'],
    ]);
    const w = world();
    w.partition([['east'], ['west', 'south']]);
    expect(reachable(w.state.network, 'west', 'south')).toBe(true);
    expect(reachable(w.state.network, 'south', 'east')).toBe(false);
  });

  it('heal restores one link, and heal all restores every link', () => {
    const w = world();
    w.partition([['east'], ['west'], ['south']]);
    w.heal(['east', 'west']);
    expect(reachable(w.state.network, 'east', 'west')).toBe(true);
    expect(reachable(w.state.network, 'east', 'south')).toBe(false);
    w.heal('all');
    expect(reachable(w.state.network, 'east', 'south')).toBe(true);
  });

  it('a crashed cluster is unreachable and answers 503; restart brings it back with its storage', () => {
    const w = world();
    const token = w.variables()['east.root_token'];
    w.request('east', { method: 'POST', path: 'secret/data/k', body: { data: { v: 1 } }, token });
    w.crash('east');
    expect(reachable(w.state.network, 'west', 'east')).toBe(false);
    const down = w.request('east', { method: 'GET', path: 'secret/data/k', token });
    expect(down.status).toBe(503);
    expect((down.body as { errors: string[] }).errors[0]).toMatch(/not running/);
    w.restart('east');
    expect(w.request('east', { method: 'GET', path: 'secret/data/k', token }).status).toBe(200);
  });

  it('faults are events in the log, so replay rebuilds the same network', () => {
    const w = world();
    w.partition(['east', 'south']);
    w.crash('west');
    w.advance(1000);
    expect(w.log.map((e) => e.type)).toEqual(['world-created', 'links-cut', 'cluster-crashed', 'time-advanced']);
    expect(World.replay(w.log).stateHash()).toBe(w.stateHash());
  });

  it('a fault naming an unknown cluster is a usage error that changes nothing', () => {
    const w = world();
    const hash = w.stateHash();
    expect(() => w.crash('north')).toThrow(WorldUsageError);
    expect(() => w.partition(['east', 'north'])).toThrow(/unknown cluster "north"/);
    expect(() => w.advance(-5)).toThrow(WorldUsageError);
    expect(w.stateHash()).toBe(hash);
  });
});
