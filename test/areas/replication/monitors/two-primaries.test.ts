import { describe, expect, it } from 'vitest';
import type { RoleValue } from '../../../../models/replication-role.machine.js';
import type { SimState } from '../../../../src/areas/core/state.js';
import { World } from '../../../../src/world.js';
import { editedState } from '../../../check/helpers.js';
import { twoPrimaries } from '../../../../src/areas/replication/monitors/two-primaries.js';

/** A world state with the given DR roles and cluster ids, built on purpose to break the rule. */
function stateWith(roles: Record<string, [RoleValue, string]>, down: string[] = []): SimState {
  return editedState(World.create(Object.fromEntries(Object.keys(roles).map((n) => [n, {}])), { seed: 1 }).state, (s) => {
    for (const [name, [role, id]] of Object.entries(roles)) s.clusters[name].replication.dr = { ...s.clusters[name].replication.dr, role, clusterId: id };
    for (const d of down) s.network.down[d] = true;
  });
}

const observe = (m: ReturnType<typeof twoPrimaries>, state: SimState) => m.observe({ state, before: state, events: [] });

describe('hazard two-primaries', () => {
  it('reports two running primaries of one set, with both clusters', () => {
    const m = twoPrimaries();
    const f = observe(m, stateWith({ east: ['primary', 'set-1'], west: ['primary', 'set-1'] }));
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ kind: 'hazard', id: 'two-primaries', clusters: ['east', 'west'] });
  });

  it('does not count a crashed primary', () => {
    expect(observe(twoPrimaries(), stateWith({ east: ['primary', 'set-1'], west: ['primary', 'set-1'] }, ['east']))).toEqual([]);
  });

  it('does not count primaries of different sets', () => {
    expect(observe(twoPrimaries(), stateWith({ east: ['primary', 'set-1'], west: ['primary', 'set-2'] }))).toEqual([]);
  });

  it('reports an occurrence once while it lasts, and again when it arises anew', () => {
    const m = twoPrimaries();
    const both = stateWith({ east: ['primary', 's'], west: ['primary', 's'] });
    const one = stateWith({ east: ['primary', 's'], west: ['secondary.demoted', 's'] });
    expect(observe(m, both)).toHaveLength(1);
    expect(observe(m, both)).toHaveLength(0);
    expect(observe(m, one)).toHaveLength(0);
    expect(observe(m, both)).toHaveLength(1);
  });
});
