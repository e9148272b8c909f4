// Determinism: the same seed and the same operations give a byte-identical log, and replaying the
// log alone rebuilds the same state (no handler, clock or generator runs on replay).
import { describe, expect, it } from 'vitest';
import { World } from '../../../src/world.js';
import {
  DR,
  dataOf,
  drOperationToken,
  drStatus,
  drWorld,
  enablePrimary,
  enableSecondary,
  expectOk,
  obtainDrOperationToken,
  post,
  rootOf,
  secondaryToken,
  writeKv,
} from './helpers.js';

/** A busy DR story: tokens of both forms, streaming through faults, revocation, a failover if possible. */
function story(seed: number): World {
  const w = drWorld({ seed });
  writeKv(w, 'east', 'a', { v: 1 });
  enablePrimary(w, 'east');
  enableSecondary(w, 'east', 'west');
  const key = dataOf(post(w, 'south', `${DR}/secondary/generate-public-key`)).secondary_public_key;
  const sealed = dataOf(post(w, 'east', `${DR}/primary/secondary-token`, { id: 'south', secondary_public_key: key })).token;
  expectOk(post(w, 'south', `${DR}/secondary/enable`, { token: sealed }));
  w.advance(700);
  writeKv(w, 'east', 'b', { v: 2 });
  w.partition(['east', 'south']);
  w.advance(3000);
  writeKv(w, 'east', 'cache-key', { v: 3 }, rootOf(w, 'east'), 'cache');
  w.heal('all');
  w.crash('west');
  w.advance(2000);
  w.restart('west');
  w.advance(2000);
  post(w, 'east', `${DR}/primary/revoke-secondary`, { id: 'south' });
  w.advance(1000);
  const op = obtainDrOperationToken(w, 'west', 'east');
  if (op) {
    expectOk(post(w, 'east', `${DR}/primary/demote`));
    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: op }));
    const token = secondaryToken(w, 'west', 'east', {}, rootOf(w, 'east'));
    expectOk(post(w, 'east', `${DR}/secondary/update-primary`, { dr_operation_token: drOperationToken(w, 'east', 'east'), token }));
    w.advance(2000);
  }
  return w;
}

describe('DR determinism', () => {
  it('the same seed gives a byte-identical log', () => {
    expect(JSON.stringify(story(42).log)).toBe(JSON.stringify(story(42).log));
  });

  it('another seed draws other ids', () => {
    expect(drStatus(story(1), 'east').cluster_id).not.toBe(drStatus(story(2), 'east').cluster_id);
  });

  it('replaying the log rebuilds the same state hash', () => {
    const w = story(7);
    const replayed = World.replay(JSON.parse(JSON.stringify(w.log)));
    expect(replayed.stateHash()).toBe(w.stateHash());
    expect(drStatus(replayed, 'west')).toEqual(drStatus(w, 'west'));
  });

  it('a fork continues like the original', () => {
    const w = story(3);
    const f = w.fork();
    for (const x of [w, f]) {
      writeKv(x, 'west', 'after', { v: 9 }, rootOf(x, 'east'));
      x.advance(1000);
    }
    expect(f.stateHash()).toBe(w.stateHash());
  });

  it('replay needs no generator: status is the same on the replayed world before any request', () => {
    const w = drWorld({ seed: 5 });
    enablePrimary(w, 'east');
    enableSecondary(w, 'east', 'west');
    w.advance(1000);
    const r = World.replay(w.log);
    expect(drStatus(r, 'east')).toEqual(drStatus(w, 'east'));
  });
});
