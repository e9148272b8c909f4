// An exported counterexample expects the hazards its run met that nobody forbade, so the file fails
// on its cause alone and passes once that cause is fixed (not on newer-primary in a mixed-version
// topology, say, which the run met on the way).
import { describe, expect, it } from 'vitest';
import { scenarioObject } from '../../src/explore/export.js';
import { unforbiddenHazards } from '../../src/explore/property.js';

describe('the expect of an exported counterexample', () => {
  it('names each hazard met and not forbidden, once, in the order met', () => {
    const findings = [
      { kind: 'hazard', id: 'newer-primary' },
      { kind: 'violation', id: 'convergence' },
      { kind: 'hazard', id: 'two-primaries' },
      { kind: 'hazard', id: 'newer-primary' },
    ];
    expect(unforbiddenHazards(findings, ['two-primaries'])).toEqual(['newer-primary']);
    expect(unforbiddenHazards(findings, [])).toEqual(['newer-primary', 'two-primaries']);
    expect(unforbiddenHazards([{ kind: 'violation', id: 'convergence' }], [])).toEqual([]);
  });

  it('is pass when the run met no such hazard, else the hazards', () => {
    const base = { name: 'n', description: 'd', seed: 1, clusters: ['east'], steps: [] };
    expect(scenarioObject(base).expect).toBe('pass');
    expect(scenarioObject({ ...base, hazards: [] }).expect).toBe('pass');
    expect(scenarioObject({ ...base, hazards: ['newer-primary'] }).expect).toEqual({ hazards: ['newer-primary'] });
  });
});
