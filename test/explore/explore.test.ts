// The bounded exhaustive explorer: breadth first over every operator command of a small domain,
// states deduplicated up to renaming of clusters, the shortest trace to a forbidden hazard
// exported as a scenario that replays it.
import { describe, expect, it } from 'vitest';
import { ROLE_FAMILIES, capabilitiesFor, freshOperator, initialModel } from '../../src/explore/commands/index.js';
import { EnablePrimary } from '../../src/areas/replication/commands/enable-primary.js';
import { canonicalForm, explore, permutationsOf } from '../../src/explore/explore.js';
import { runExported } from './property/helpers.js';

describe('explore', () => {
  const found = explore({ depth: 6, clusters: 3, forbid: ['two-primaries'] });

  it('finds the shortest trace to two primaries: enable, token, secondary, forced promotion', () => {
    expect(found.finding).toMatchObject({ kind: 'hazard', id: 'two-primaries', reproduced: true });
    expect(found.finding!.trace).toHaveLength(4);
    expect(found.finding!.trace[0]).toMatch(/^enable \w+ as a (DR|performance) primary$/);
    expect(found.finding!.trace[3]).toMatch(/^promote \w+ \((DR|performance)\).*forced$/);
    // Breadth first: every shorter trace was explored first, and none reached the hazard.
    expect(found.depthReached).toBe(4);
    expect(found.complete).toBe(false);
  });

  it('exports the trace as a scenario that replsim run fails with two-primaries', async () => {
    const run = await runExported(found.finding!.scenario);
    expect(run.verdict).toBe('invalid');
    expect(run.findings.map((f) => f.id)).toEqual(['two-primaries']);
    expect(run.steps.every((s) => s.ok)).toBe(true);
  });

  it('is deterministic: the same exploration visits the same number of states', () => {
    const a = explore({ depth: 2, clusters: 3 });
    const b = explore({ depth: 2, clusters: 3 });
    expect(a).toMatchObject({ complete: true, depthReached: 2 });
    expect(a.finding).toBeUndefined();
    expect([b.visited, b.distinct]).toEqual([a.visited, a.distinct]);
    expect(a.distinct).toBeLessThan(a.visited);
  });

  it('treats clusters symmetrically: east as the primary and west as the primary are one state', () => {
    const caps = capabilitiesFor({ kinds: ['dr'] });
    const stateWithPrimary = (index: number) => {
      const op = freshOperator(3, 1, { watch: false });
      const m = initialModel(['east', 'west', 'south'], caps);
      new EnablePrimary(index, 'dr').run(m, op);
      return canonicalForm(op.world.state, m, new Map());
    };
    expect(stateWithPrimary(0)).toBe(stateWithPrimary(1));
    expect(stateWithPrimary(1)).toBe(stateWithPrimary(2));
    const none = freshOperator(3, 1, { watch: false });
    expect(canonicalForm(none.world.state, initialModel(['east', 'west', 'south'], caps), new Map())).not.toBe(stateWithPrimary(0));
  });

  it('covers the DR role product of 3 clusters in the same states and transitions (the bench row; pinned across speed-ups)', () => {
    // Forked monitors and shared requests change how the explorer gets there, never what it finds:
    // these are the counts of the explorer before them (BENCHMARKS.md section 4).
    const r = explore({ depth: 12, clusters: 3, stopWhenRolesCovered: true, capabilities: { kinds: ['dr'] }, families: ROLE_FAMILIES });
    expect(r).toMatchObject({ distinct: 190, visited: 380, depthReached: 6, stoppedBy: 'roles-covered', hazards: { 'two-primaries': 6 } });
    expect(r.roleVectors.covered).toBe(27);
    const small = explore({ depth: 3, clusters: 2 });
    expect(small).toMatchObject({ distinct: 125, visited: 352, complete: true, hazards: {} });
  });

  it('counts each combination of DR roles with its renamings', () => {
    expect(permutationsOf(['p', 'd', 'd'])).toHaveLength(6);
    const shallow = explore({ depth: 1, clusters: 3, capabilities: { kinds: ['dr'] } });
    // From the start, one command makes one cluster a DR primary: three labelled combinations besides "ddd".
    expect(shallow.roleVectors.reached).toEqual(['ddd', 'ddp', 'dpd', 'pdd']);
  });
});
