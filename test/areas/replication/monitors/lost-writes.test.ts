// Hazard lost-writes (issue #12, cause 5): every promotion, forced or not, after a crash too, that
// leaves behind versions the old primary acknowledged, names the keys and versions lost.
import { describe, expect, it } from 'vitest';
import { lostWrites } from '../../../../src/areas/replication/monitors/lost-writes.js';
import { rootTokenOn } from '../performance/helpers.js';
import { DR, PERF, Watched, world } from '../../../check/helpers.js';

function drPair(x: Watched): void {
  x.drPrimary('east');
  x.drSecondary('east', 'west');
  x.advance(1000);
  x.write('east', 'a', { v: 1 });
  x.advance(1000);
}

const promote = (x: Watched, force = false) => x.post('west', `${DR}/secondary/promote`, { dr_operation_token: x.operationToken('west', 'east'), force }, null);

describe('hazard lost-writes', () => {
  it('arises on an unforced promotion after the link failed, with the keys and versions east acknowledged', () => {
    const x = new Watched(world(), [lostWrites]);
    drPair(x);
    x.partition('east', 'west');
    expect(x.write('east', 'a', { v: 2 }).status).toBe(200);
    expect(x.write('east', 'b', { v: 1 }).status).toBe(200);
    x.ok('east', `${DR}/primary/demote`);
    expect(promote(x).status).toBe(200);
    expect(x.findings).toMatchObject([{ kind: 'hazard', id: 'lost-writes', clusters: ['west', 'east'], lostKeys: ['secret/a v2', 'secret/b v1'] }]);
    expect(x.findings[0].message).toMatch(/without force/);
  });

  it('arises on a failover after a crash, and on a forced promotion', () => {
    const x = new Watched(world(), [lostWrites]);
    drPair(x);
    x.write('east', 'c', { v: 3 });
    x.crash('east');
    expect(promote(x, true).status).toBe(200);
    expect(x.findings).toMatchObject([{ id: 'lost-writes', lostKeys: ['secret/c v1'] }]);
    expect(x.findings[0].message).toMatch(/with force after east crashed/);
  });

  it('arises on a performance promotion that lacks a write the primary acknowledged', () => {
    const x = new Watched(world(), [lostWrites]);
    x.perfPrimary('east');
    x.perfSecondary('east', 'west');
    x.advance(1000);
    x.write('east', 'a', { v: 1 });
    x.ok('east', `${PERF}/primary/demote`);
    // Tokens are local to a performance secondary: the operator generates a root token on west first.
    const westRoot = rootTokenOn(x.w, 'west', 'east');
    expect(x.post('west', `${PERF}/secondary/promote`, {}, westRoot).status).toBe(200);
    expect(x.of('lost-writes')).toMatchObject([{ clusters: ['west', 'east'], lostKeys: ['secret/a v1'] }]);
    expect(x.of('lost-writes')[0].message).toMatch(/last_remote_wal/);
  });

  it('stays quiet on a planned failover where the secondary caught up first', () => {
    const x = new Watched(world(), [lostWrites]);
    drPair(x);
    x.ok('east', `${DR}/primary/demote`);
    expect(promote(x).status).toBe(200);
    expect(x.findings).toEqual([]);
  });
});
