// The explorer against xstate/graph on the product of three replication role machines (27 states).
// getShortestPaths covers the product; the number of simple paths, which getSimplePaths would
// enumerate, explodes with the product's size. The explorer covers the same 27 role combinations,
// on real worlds, because it deduplicates states and treats clusters symmetrically.
import { createMachine, type AnyStateMachine } from 'xstate';
import { getShortestPaths, getSimplePaths } from 'xstate/graph';
import { describe, expect, it } from 'vitest';
import { modeOf, stepRole, type RoleEvent, type RoleValue } from '../../models/replication-role.machine.js';
import { ROLE_FAMILIES } from '../../src/explore/commands/index.js';
import { explore } from '../../src/explore/explore.js';

const MODES = { disabled: 'd', primary: 'p', secondary: 's' } as const;
type Mode = keyof typeof MODES;

/** Every request of the role table, with facts that let it through where the table allows it at all. */
const REQUESTS: RoleEvent[] = [
  { type: 'primary.enable' },
  { type: 'primary.demote' },
  { type: 'primary.disable' },
  { type: 'secondary.enable', activationTokenValid: true },
  { type: 'secondary.promote', operationTokenValid: true, force: false, safetyChecksPass: true },
  { type: 'secondary.disable', operationTokenValid: true },
  { type: 'secondary.update-primary', operationTokenValid: true, token: 'jwt' },
];
const ROLES: RoleValue[] = ['disabled', 'primary', 'secondary.following', 'secondary.demoted', 'secondary.unassigned'];

/**
 * The role table projected on modes, asked of the real role machine (no hand copy): for each mode,
 * the mode each request leads to when it changes the mode.
 */
function modeMoves(): Record<Mode, Record<string, Mode>> {
  const moves: Record<Mode, Record<string, Mode>> = { disabled: {}, primary: {}, secondary: {} };
  for (const role of ROLES)
    for (const e of REQUESTS) {
      const next = stepRole('dr', role, e);
      if (next !== null && modeOf(next) !== modeOf(role)) moves[modeOf(role)][e.type] = modeOf(next);
    }
  return moves;
}
const MOVES = modeMoves();

/** One cluster's role machine, from the real machine's table (modes only). */
function roleStates(c: string) {
  return {
    initial: 'disabled',
    states: Object.fromEntries(
      (Object.keys(MOVES) as Mode[]).map((mode) => [mode, { on: Object.fromEntries(Object.entries(MOVES[mode]).map(([type, to]) => [`${c}.${type}`, to])) }]),
    ),
  };
}

/** The product of one role machine per cluster: 3^n states. */
function product(clusters: string[]): AnyStateMachine {
  return createMachine({ id: 'roles', type: 'parallel', states: Object.fromEntries(clusters.map((c) => [c, roleStates(c)])) });
}

/** Simple paths from the initial state, counted (not listed) by depth-first search, up to a cap. */
function countSimplePaths(clusters: string[], cap: number): number {
  const moves: Record<string, string[]> = Object.fromEntries((Object.keys(MOVES) as Mode[]).map((m) => [MODES[m], [...new Set(Object.values(MOVES[m]).map((to) => MODES[to]))]]));
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
  it('the product is built from the real role machine: each mode leads to the two others', () => {
    expect(MOVES).toEqual({
      disabled: { 'primary.enable': 'primary', 'secondary.enable': 'secondary' },
      primary: { 'primary.demote': 'secondary', 'primary.disable': 'disabled' },
      secondary: { 'secondary.promote': 'primary', 'secondary.disable': 'disabled' },
    });
  });

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
