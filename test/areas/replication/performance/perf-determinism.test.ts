// Determinism of performance replication: the same seed and operations give a byte-identical log,
// replaying the log alone rebuilds the same state, and refused requests append and draw nothing.
import { describe, expect, it } from 'vitest';
import { World } from '../../../../src/world.js';
import { drOperationToken, operationTokensBuilt } from '../helpers.js';
import {
  DR,
  PERF,
  bodyOf,
  enablePerfPrimary,
  enablePerfSecondary,
  expectOk,
  perfStatus,
  perfToken,
  perfWorld,
  post,
  rootOf,
  rootTokenOn,
  setFilter,
  writeKv,
} from './helpers.js';

/** A busy performance story: filters, forwarding, a partition, a root generation, a failover. */
function story(seed: number): World {
  const w = perfWorld({ seed });
  const eastRoot = rootOf(w, 'east');
  writeKv(w, 'east', 'secret', 'a', { v: 1 }, eastRoot);
  writeKv(w, 'east', 'billing', 'b', { v: 1 }, eastRoot);
  enablePerfPrimary(w, 'east');
  const token = perfToken(w, 'east', 'west');
  expectOk(setFilter(w, 'east', 'west', { mode: 'allow', paths: ['secret/'] }));
  expectOk(post(w, 'west', `${PERF}/secondary/enable`, { token }));
  enablePerfSecondary(w, 'east', 'south');
  w.advance(700);
  const westRoot = rootTokenOn(w, 'west', 'east');
  expectOk(writeKv(w, 'west', 'secret', 'from-west', { v: 2 }, westRoot));
  w.partition(['east', 'south']);
  expectOk(setFilter(w, 'east', 'west', { mode: 'deny', paths: ['team-a/'] }));
  w.advance(3000);
  w.heal('all');
  w.advance(1000);
  expectOk(post(w, 'east', `${PERF}/primary/demote`));
  expectOk(post(w, 'west', `${PERF}/secondary/promote`, {}, westRoot));
  expectOk(post(w, 'east', `${PERF}/secondary/update-primary`, { token: perfToken(w, 'west', 'east', westRoot) }, eastRoot));
  w.advance(2000);
  return w;
}

describe('performance replication determinism', () => {
  it('the same seed gives a byte-identical log', () => {
    expect(JSON.stringify(story(42).log)).toBe(JSON.stringify(story(42).log));
  });

  it('another seed draws other ids', () => {
    expect(perfStatus(story(1), 'west').cluster_id).not.toBe(perfStatus(story(2), 'west').cluster_id);
  });

  it('replaying the log rebuilds the same state hash and the same answers', () => {
    const w = story(7);
    const replayed = World.replay(JSON.parse(JSON.stringify(w.log)));
    expect(replayed.stateHash()).toBe(w.stateHash());
    for (const c of ['east', 'west', 'south']) expect(perfStatus(replayed, c)).toEqual(perfStatus(w, c));
  });

  it('refused performance requests append nothing and draw nothing', () => {
    const w = perfWorld();
    const westRoot = (() => {
      enablePerfPrimary(w, 'east');
      enablePerfSecondary(w, 'east', 'west');
      w.advance(1000);
      return rootTokenOn(w, 'west', 'east');
    })();
    const refused: [string, string, Record<string, unknown>, string][] = [
      ['east', `${PERF}/primary/paths-filter/nobody`, { paths: ['secret/'] }, rootOf(w, 'east')],
      ['east', `${PERF}/primary/paths-filter/west`, { mode: 'sideways' }, rootOf(w, 'east')],
      ['west', `${PERF}/secondary/update-primary`, { token: 'x', update_primary_addrs: ['a'] }, westRoot],
      ['west', `${PERF}/primary/enable`, {}, westRoot],
      ['east', `${PERF}/secondary/promote`, {}, rootOf(w, 'east')],
      ['west', 'secret/data/k', { data: { v: 1 } }, rootOf(w, 'east')],
    ];
    const fork = w.fork();
    const [hash, length] = [w.stateHash(), w.log.length];
    for (const [cluster, path, body, token] of refused) expect(post(w, cluster, path, body, token).status).toBeGreaterThanOrEqual(400);
    expect([w.stateHash(), w.log.length]).toEqual([hash, length]);
    // Nothing was drawn: the next accepted request draws what it would have drawn on the untouched fork.
    expect(bodyOf(post(w, 'east', `${PERF}/primary/secondary-token`, { id: 'n' }))).toEqual(bodyOf(post(fork, 'east', `${PERF}/primary/secondary-token`, { id: 'n' })));
    expect(w.stateHash()).toBe(fork.stateHash());
  });
});

describe.skipIf(!operationTokensBuilt)('performance replication determinism across a DR promotion', () => {
  it('replay rebuilds a world where a DR secondary took over the performance primary', () => {
    const w = perfWorld({ seed: 11 });
    enablePerfPrimary(w, 'east');
    enablePerfSecondary(w, 'east', 'south');
    expectOk(post(w, 'east', `${DR}/primary/enable`));
    const t = bodyOf(expectOk(post(w, 'east', `${DR}/primary/secondary-token`, { id: 'west' }))).wrap_info.token;
    expectOk(post(w, 'west', `${DR}/secondary/enable`, { token: t }));
    w.advance(1000);
    expectOk(post(w, 'east', `${DR}/primary/demote`));
    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: drOperationToken(w, 'west', 'east') }));
    w.advance(1000);
    const replayed = World.replay(JSON.parse(JSON.stringify(w.log)));
    expect(replayed.stateHash()).toBe(w.stateHash());
    expect(perfStatus(replayed, 'west')).toEqual(perfStatus(w, 'west'));
  });
});
