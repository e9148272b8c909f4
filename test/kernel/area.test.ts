// The kernel's area contract: a list of areas becomes one reducer table (an event type reduced by
// two areas is refused), and each part is joined in the list's order.
import { describe, expect, it } from 'vitest';
import { defineArea, gather, gatherMountRoutes, gatherReducers } from '../../src/kernel/area.js';
import { AREAS } from '../../src/areas.js';
import { reducers } from '../../src/world.js';
import { networkReducers } from '../../src/kernel/network.js';

type S = { now: number; n: number };
type E = { type: 'a' | 'b'; at: number };
const a = defineArea<S, E, string, never, never>({ name: 'one', readme: 'x', reducers: { a: (s) => ({ n: s.n + 1 }) }, routes: ['r1', 'r2'], mountRoutes: { kv: ['k1'] } });
const b = defineArea<S, E, string, never, never>({ name: 'two', readme: 'y', reducers: { b: (s) => ({ n: s.n + 2 }) }, routes: ['r3'], mountRoutes: { kv: ['k2'] } });

describe('the area contract', () => {
  it('joins each part in the list\'s order', () => {
    expect(gather([a, b], 'routes')).toEqual(['r1', 'r2', 'r3']);
    expect(gather([b, a], 'routes')).toEqual(['r3', 'r1', 'r2']);
    expect(gatherMountRoutes([a, b])).toEqual({ kv: ['k1', 'k2'] });
    expect(Object.keys(gatherReducers([a, b]))).toEqual(['a', 'b']);
  });

  it('refuses an event type reduced by two areas, or by an area and the kernel', () => {
    const again = defineArea<S, E, string, never, never>({ name: 'three', readme: 'z', reducers: { a: () => null } });
    expect(() => gatherReducers([a, again])).toThrow('event type a is reduced by area one and by area three');
    expect(() => gatherReducers([a], { a: () => null })).toThrow('event type a is reduced by the kernel and by area one');
  });

  it('the world\'s reducer table is the network\'s and the six areas\' of src/areas.ts, each event type once', () => {
    expect(AREAS.map((x) => x.name)).toEqual(['replication', 'operation-token', 'merkle', 'plugins', 'sync', 'auth', 'cluster']);
    const owned = [...Object.keys(networkReducers), ...AREAS.flatMap((x) => Object.keys(x.reducers))];
    expect(new Set(owned).size).toBe(owned.length);
    expect(Object.keys(reducers).sort()).toEqual(owned.sort());
  });

  it('each area registers its refusals under its own name', () => {
    for (const x of AREAS) for (const make of Object.values(x.refusals)) expect((make as (...p: unknown[]) => { code: string })('x', 'y', 'z').code.startsWith(`${x.name}.`)).toBe(true);
  });
});
