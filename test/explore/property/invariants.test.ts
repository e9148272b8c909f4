// Property: no invariant is ever violated, whatever operators do. Random sequences of operator
// commands (both kinds of replication, faults, waits) on 2 to 5 clusters; the catalogue runs after
// every command and the model checks the service's answers where it knows them.
import { describe, expect, it } from 'vitest';
import { runProperty } from '../../../src/explore/property.js';

describe('property: invariants hold', () => {
  it('no invariant is violated in 120 random runs of up to 40 commands on 2 to 5 clusters (seed 1)', () => {
    const r = runProperty({ runs: 120, seed: 1, steps: 40 });
    expect(r.findings.map((f) => `${f.kind} ${f.id ?? ''}: ${f.message}\n${f.words.join('\n')}`)).toEqual([]);
    expect(r.violations).toEqual({});
    expect(r.runs).toBe(120);
    // Not vacuous: long sequences ran, and the service refused some requests (each refusal is checked to change nothing).
    expect(r.commands).toBeGreaterThan(120 * 15);
    expect(r.refused).toBeGreaterThan(0);
  });

  it('hazards are allowed and counted: unsafe runbooks meet two-primaries', () => {
    const r = runProperty({ runs: 120, seed: 1, steps: 40 });
    expect(r.hazards['two-primaries']).toBeGreaterThan(0);
  });

  it('a topology of exactly 5 clusters holds too (seed 2)', () => {
    const r = runProperty({ runs: 40, seed: 2, clusters: 5, steps: 40 });
    expect(r.findings.map((f) => f.message)).toEqual([]);
  });
});
