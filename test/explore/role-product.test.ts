// The explorer against xstate/graph on the product of three replication role machines (27 states).
// getShortestPaths covers the product; the number of simple paths, which getSimplePaths would
// enumerate, explodes with the product's size. The explorer covers the same 27 role combinations,
// on real worlds, because it deduplicates states and treats clusters symmetrically.
import { createMachine, type AnyStateMachine } from 'xstate';
import { getShortestPaths, getSimplePaths } from 'xstate/graph';
import { describe, expect, it } from 'vitest';
import { ROLE_FAMILIES } from '../../src/explore/commands/index.js';
import { explore } from '../../src/explore/explore.js';

const MODES = { disabled: 'd', primary: 'p', secondary: 's' } as const;

/** One cluster's role machine, as the spec's role table has it (modes only). */
function roleStates(c: string) {
  return {
    initial: 'disabled',
    states: {
      disabled: { on: { [`${c}.primary.enable`]: 'primary', [`${c}.secondary.enable`]: 'secondary' } },
      primary: { on: { [`${c}.primary.demote`]: 'secondary', [`${c}.primary.disable`]: 'disabled' } },
      secondary: { on: { [`${c}.secondary.promote`]: 'primary', [`${c}.secondary.disable`]: 'disabled' } },
    },
  };
}

/** The product of one role machine per cluster: 3^n states. */
function product(clusters: string[]): AnyStateMachine {
  return createMachine({ id: 'roles', type: 'parallel', states: Object.fromEntries(clusters.map((c) => [c, roleStates(c)])) });
}

/** Simple paths from the initial state, counted (not listed) by depth-first search, up to a cap. */
function countSimplePaths(clusters: string[], cap: number): number {
  const moves: Record<string, string[]> = { d: ['p', 's'], p: ['s', 'd'], s: ['p', 'd'] };
  let count = 0;
  const visiting = new Set<string>();
  const walk = (state: string) => {
    count++;
    if (count >= cap) return;
    visiting.add(state);
    for (let i = 0; i < state.length && count < cap; i++)
      for (const to of moves[state[i]]) {
        const next = state.slice(0, i) + to + state.slice(i + 1);
        if (!visiting.has(next)) walk(next);
        if (count >= cap) break;
      }
    visiting.delete(state);
  };
  walk('d'.repeat(clusters.length));
  return count;
}

describe('the role product: xstate/graph and the explorer', () => {
  const three = ['east', 'west', 'south'];

  it('getShortestPaths reaches the 27 states of the three-cluster product', () => {
    const paths = getShortestPaths(product(three));
    const reached = paths.map((p) => three.map((c) => MODES[(p.state.value as Record<string, keyof typeof MODES>)[c]]).join(''));
    expect(new Set(reached).size).toBe(27);
  });

  it('simple paths explode: 5 for one cluster, 1009 for two, over a million for three', () => {
    expect(getSimplePaths(product(['east']))).toHaveLength(5);
    expect(getSimplePaths(product(['east', 'west']))).toHaveLength(1009);
    // The counter agrees with xstate where xstate can still list them...
    expect(countSimplePaths(['east'], Infinity)).toBe(5);
    expect(countSimplePaths(['east', 'west'], Infinity)).toBe(1009);
    // ...and for the 27-state product stops at its cap: getSimplePaths would have to list them all.
    expect(countSimplePaths(three, 1_000_000)).toBe(1_000_000);
  });

  it('the explorer covers the same 27 role combinations on real worlds (role commands, DR)', () => {
    const r = explore({ depth: 6, clusters: 3, capabilities: { kinds: ['dr'] }, families: ROLE_FAMILIES, stopWhenRolesCovered: true });
    expect(r.roleVectors).toMatchObject({ covered: 27, total: 27 });
    const xstate = new Set(getShortestPaths(product(three)).map((p) => three.map((c) => MODES[(p.state.value as Record<string, keyof typeof MODES>)[c]]).join('')));
    expect(new Set(r.roleVectors.reached)).toEqual(xstate);
    // Symmetry: far fewer distinct states than labelled combinations times what else a state holds.
    expect(r.finding).toBeUndefined();
  });

  it('with the roles view (only modes make a state), the explorer needs only the 10 combinations up to renaming', () => {
    const r = explore({ depth: 6, clusters: 3, capabilities: { kinds: ['dr'] }, families: ROLE_FAMILIES, view: 'roles', stopWhenRolesCovered: true });
    expect(r.roleVectors.covered).toBe(27);
    expect(r.distinct).toBe(10);
  });
});
