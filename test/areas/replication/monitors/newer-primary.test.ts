import { describe, expect, it } from 'vitest';
import { newerPrimary } from '../../../../src/areas/replication/monitors/newer-primary.js';
import { DR, Watched, world } from '../../../check/helpers.js';

describe('hazard newer-primary', () => {
  it('does not arise when the secondary runs the same or a newer version', () => {
    const x = new Watched(world(['east', 'west', 'south'], { versions: { east: '1.15.0', west: '1.15.0', south: '1.16.2' } }), [newerPrimary]);
    x.drPrimary('east');
    x.drSecondary('east', 'west');
    x.drSecondary('east', 'south');
    x.advance(1000);
    expect(x.findings).toEqual([]);
  });

  it('arises when a primary replicates to an older secondary: when, which clusters, once while it lasts', () => {
    const x = new Watched(world(['east', 'west'], { versions: { east: '1.16.0', west: '1.15.3' } }), [newerPrimary]);
    x.drPrimary('east');
    x.drSecondary('east', 'west');
    x.advance(1000);
    x.write('east', 'k', { v: 1 });
    x.advance(1000);
    expect(x.findings).toHaveLength(1);
    const sync = x.w.log.find((e) => e.type === 'replication-secondary-synced')!;
    expect(x.findings[0]).toMatchObject({ kind: 'hazard', id: 'newer-primary', clusters: ['east', 'west'], at: sync.at });
    expect(x.findings[0].message).toContain('1.16.0');
  });

  it('arises again when the secondary follows that primary anew', () => {
    const x = new Watched(world(['east', 'west'], { versions: { east: '1.16.0', west: '1.15.3' } }), [newerPrimary]);
    x.drPrimary('east');
    x.drSecondary('east', 'west');
    x.advance(1000);
    x.ok('west', `${DR}/secondary/update-primary`, { dr_operation_token: x.operationToken('west', 'east'), token: '' }, null);
    x.ok('west', `${DR}/secondary/update-primary`, { dr_operation_token: x.operationToken('west', 'east'), token: x.drToken('east', 'west-2') }, null);
    x.advance(1000);
    expect(x.findings.map((f) => f.id)).toEqual(['newer-primary', 'newer-primary']);
  });
});
