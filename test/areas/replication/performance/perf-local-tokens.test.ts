// Tokens are local to a performance secondary: the primary's are not valid there, and enabling the
// secondary wipes its own. An operator gets a root token there with sys/generate-root and the
// primary's key shares (enable gave it the primary's keyring). All through the API.
import { describe, expect, it } from 'vitest';
import { World } from '../../../../src/world.js';
import {
  PERF,
  bodyOf,
  enablePerfPrimary,
  enablePerfSecondary,
  expectOk,
  expectRefused,
  get,
  kvValue,
  perfPair,
  perfWorld,
  post,
  rootOf,
  rootTokenOn,
  writeKv,
} from './helpers.js';

describe('tokens on a performance secondary', () => {
  it('after enable, neither its own old tokens nor the primary’s work there', () => {
    const w = World.create({ east: {}, west: { tokens: { app: { policy: { 'secret/*': ['read'] } } } } });
    writeKv(w, 'east', 'secret', 'k', { v: 1 }, rootOf(w, 'east'));
    enablePerfPrimary(w, 'east');
    enablePerfSecondary(w, 'east', 'west');
    w.advance(1000);
    for (const token of [rootOf(w, 'east'), rootOf(w, 'west'), w.state.operators.west.tokens.app]) expectRefused(get(w, 'west', 'secret/data/k', token), 403, 'permission denied');
  });

  it('a root token comes from sys/generate-root with the primary’s key shares, and is valid only on the secondary', () => {
    const w = perfWorld();
    writeKv(w, 'east', 'secret', 'k', { v: 1 }, rootOf(w, 'east'));
    enablePerfPrimary(w, 'east');
    enablePerfSecondary(w, 'east', 'west');
    w.advance(1000);
    const westRoot = rootTokenOn(w, 'west', 'east');
    expect(westRoot).toMatch(/^hvs\.[A-Za-z0-9]{24}$/);
    expect(kvValue(w, 'west', 'secret', 'k', westRoot)).toEqual({ v: 1 });
    expectRefused(get(w, 'east', 'secret/data/k', westRoot), 403, 'permission denied');
  });

  it('its own key shares no longer open it: the root generation is aborted', () => {
    const w = perfWorld();
    enablePerfPrimary(w, 'east');
    enablePerfSecondary(w, 'east', 'west');
    const start = bodyOf(w.request('west', { method: 'POST', path: 'sys/generate-root/attempt', body: {} }));
    let last = null as any;
    for (const key of w.state.operators.west.keys.slice(0, start.required)) last = w.request('west', { method: 'POST', path: 'sys/generate-root/update', body: { key, nonce: start.nonce } });
    expectRefused(last, 400, 'root generation aborted');
  });

  it('a token made on the secondary survives its primary’s syncs, and the primary’s tokens never arrive', () => {
    const w = perfWorld();
    const westRoot = perfPair(w);
    for (let i = 0; i < 5; i++) {
      expectOk(writeKv(w, 'east', 'secret', `k${i}`, { i }, rootOf(w, 'east')));
      w.advance(100);
    }
    expect(kvValue(w, 'west', 'secret', 'k4', westRoot)).toEqual({ i: 4 });
    expectRefused(get(w, 'west', 'secret/data/k4', rootOf(w, 'east')), 403, 'permission denied');
  });

  it('a promoted secondary keeps its own tokens; the old primary’s clients must authenticate there anew', () => {
    const w = perfWorld();
    const westRoot = perfPair(w);
    expectOk(post(w, 'east', `${PERF}/primary/demote`));
    expectOk(post(w, 'west', `${PERF}/secondary/promote`, {}, westRoot));
    expectOk(writeKv(w, 'west', 'secret', 'after', { v: 1 }, westRoot));
    expectRefused(writeKv(w, 'west', 'secret', 'after', { v: 2 }, rootOf(w, 'east')), 403, 'permission denied');
  });
});
