// Writes on a performance secondary: to a replicated mount they are forwarded to the primary and come
// back by streaming; to the secondary's own local mount they stay there; with no primary to forward
// to they are refused as the service refuses writes to read-only storage.
import { describe, expect, it } from 'vitest';
import {
  PERF,
  dataOf,
  expectOk,
  expectRefused,
  get,
  kvValue,
  perfPair,
  perfToken,
  perfWorld,
  post,
  rootOf,
  writeKv,
} from './helpers.js';

const READ_ONLY = '1 error occurred:\n\t* cannot write to readonly storage\n\n';

describe('performance secondary writes', () => {
  it('a write to a replicated mount lands on the primary and reaches the secondary one link latency later', () => {
    const w = perfWorld();
    const westRoot = perfPair(w);
    const r = expectOk(writeKv(w, 'west', 'secret', 'from-west', { v: 1 }, westRoot));
    expect(dataOf(r)).toMatchObject({ version: 1 });
    expect(kvValue(w, 'east', 'secret', 'from-west', rootOf(w, 'east'))).toEqual({ v: 1 });
    expect(kvValue(w, 'west', 'secret', 'from-west', westRoot)).toBe(404);
    w.advance(w.state.network.latencyMs);
    expect(kvValue(w, 'west', 'secret', 'from-west', westRoot)).toEqual({ v: 1 });
    expect(w.log.some((e) => e.type === 'kv-written' && e.cluster === 'west')).toBe(false);
  });

  it('a delete on the secondary is forwarded too', () => {
    const w = perfWorld();
    writeKv(w, 'east', 'secret', 'gone', { v: 1 }, rootOf(w, 'east'));
    const westRoot = perfPair(w);
    expect(w.request('west', { method: 'DELETE', path: 'secret/metadata/gone', token: westRoot }).status).toBe(204);
    expect(kvValue(w, 'east', 'secret', 'gone', rootOf(w, 'east'))).toBe(404);
    w.advance(1000);
    expect(kvValue(w, 'west', 'secret', 'gone', westRoot)).toBe(404);
  });

  it('the secondary’s own local mount takes writes locally, and they never reach the primary', () => {
    // east, a former performance primary with a local cache/, rejoins the set as west's secondary
    // after a failover: enable would have wiped its mounts, update-primary does not.
    const w = perfWorld();
    const eastRoot = rootOf(w, 'east');
    const westRoot = perfPair(w);
    expectOk(post(w, 'east', `${PERF}/primary/demote`, {}, eastRoot));
    expectOk(post(w, 'west', `${PERF}/secondary/promote`, {}, westRoot));
    expectOk(post(w, 'east', `${PERF}/secondary/update-primary`, { token: perfToken(w, 'west', 'east', westRoot) }, eastRoot));
    w.advance(1000);
    expectOk(writeKv(w, 'east', 'cache', 'local-only', { v: 1 }, eastRoot));
    expect(kvValue(w, 'east', 'cache', 'local-only', eastRoot)).toEqual({ v: 1 });
    expectOk(writeKv(w, 'east', 'secret', 'shared', { v: 2 }, eastRoot));
    w.advance(1000);
    expect(kvValue(w, 'west', 'secret', 'shared', westRoot)).toEqual({ v: 2 });
    expect(kvValue(w, 'east', 'secret', 'shared', eastRoot)).toEqual({ v: 2 });
    expect(get(w, 'west', 'cache/data/local-only', westRoot).status).toBe(404);
    // And its local data outlives the syncs from its new primary.
    expect(kvValue(w, 'east', 'cache', 'local-only', eastRoot)).toEqual({ v: 1 });
  });

  it('a demoted primary has no primary to forward to: replicated writes are refused as read-only, local ones stay', () => {
    const w = perfWorld();
    const eastRoot = rootOf(w, 'east');
    perfPair(w);
    expectOk(post(w, 'east', `${PERF}/primary/demote`, {}, eastRoot));
    const hash = w.stateHash();
    const r = writeKv(w, 'east', 'secret', 'k', { v: 1 }, eastRoot);
    expect(r).toEqual({ status: 500, body: { errors: [READ_ONLY] } });
    expect(w.stateHash()).toBe(hash);
    expectOk(writeKv(w, 'east', 'cache', 'k', { v: 1 }, eastRoot));
  });

  it('a secondary told to forget its primary refuses replicated writes as read-only', () => {
    const w = perfWorld();
    writeKv(w, 'east', 'secret', 'kept', { v: 0 }, rootOf(w, 'east'));
    const westRoot = perfPair(w);
    expectOk(post(w, 'west', `${PERF}/secondary/update-primary`, { token: '' }, westRoot));
    expect(writeKv(w, 'west', 'secret', 'k', { v: 1 }, westRoot)).toEqual({ status: 500, body: { errors: [READ_ONLY] } });
    // It still serves reads of what it holds.
    expect(kvValue(w, 'west', 'secret', 'kept', westRoot)).toEqual({ v: 0 });
  });

  it('a secondary cut off from its primary cannot forward: the write fails and nothing changes', () => {
    const w = perfWorld();
    const westRoot = perfPair(w);
    w.partition(['east', 'west']);
    const hash = w.stateHash();
    expectRefused(writeKv(w, 'west', 'secret', 'k', { v: 1 }, westRoot), 500, 'error forwarding the write to the performance primary');
    expect(w.stateHash()).toBe(hash);
    w.heal('all');
    expectOk(writeKv(w, 'west', 'secret', 'k', { v: 1 }, westRoot));
  });

  it('a write is authorised on the secondary with the secondary’s own token, not the primary’s', () => {
    const w = perfWorld();
    const westRoot = perfPair(w);
    expectRefused(writeKv(w, 'west', 'secret', 'k', { v: 1 }, rootOf(w, 'east')), 403, 'permission denied');
    expectOk(writeKv(w, 'west', 'secret', 'k', { v: 1 }, westRoot));
  });
});
