// The generators reach the corners issue #12 found its bugs in: within one run of 80 commands, a
// demotion, a disable, a secondary told to forget its primary, a promotion and a re-point by
// address; and a newer primary replicating to an older secondary (the topologies mix versions).
import { describe, expect, it } from 'vitest';
import { PROPERTY_VERSIONS } from '../../../src/explore/commands/index.js';
import { runProperty } from '../../../src/explore/property.js';

describe('property generators reach failover chains and mixed versions', () => {
  const chains: string[][] = [];
  const result = runProperty({
    runs: 200,
    seed: 1,
    clusters: 5,
    steps: 80,
    afterRun: (op) => {
      const moves = new Set<string>();
      for (const e of op.world.log) {
        if (e.type === 'replication-primary-demoted') moves.add('demote');
        if (e.type === 'replication-secondary-disabled' || e.type === 'replication-primary-disabled') moves.add('disable');
        if (e.type === 'replication-secondary-primary-updated') moves.add(e.via === 'empty-token' ? 'forget' : e.via === 'addresses' ? 'addresses' : 'token');
        if (e.type === 'replication-secondary-promoted') moves.add('promote');
      }
      chains.push([...moves]);
    },
  });

  it('runs clean', () => {
    expect(result.findings.map((f) => f.message)).toEqual([]);
    expect(result.runs).toBe(200);
  });

  it('one run in forty or more has demote, disable, forget, promote and re-point by address together', () => {
    const full = chains.filter((c) => ['demote', 'disable', 'forget', 'promote', 'addresses'].every((m) => c.includes(m)));
    expect(full.length).toBeGreaterThanOrEqual(5);
  });

  it('mixed versions: newer-primary, lost-writes and two-primaries are all met', () => {
    expect(new Set(Object.values(PROPERTY_VERSIONS)).size).toBeGreaterThan(1);
    expect(result.hazards['newer-primary']).toBeGreaterThan(0);
    expect(result.hazards['lost-writes']).toBeGreaterThan(0);
    expect(result.hazards['two-primaries']).toBeGreaterThan(0);
  });
});
