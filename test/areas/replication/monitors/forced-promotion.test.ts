import { describe, expect, it } from 'vitest';
import { forcedPromotion } from '../../../../src/areas/replication/monitors/forced-promotion.js';
import { DR, Watched, world } from '../../../check/helpers.js';

/** east the DR primary with `secret/a` replicated to west. */
function drPair(x: Watched): void {
  x.drPrimary('east');
  x.drSecondary('east', 'west');
  x.advance(1000);
  x.write('east', 'a', { v: 1 });
  x.advance(1000);
}

const promote = (x: Watched, force: boolean) => x.post('west', `${DR}/secondary/promote`, { dr_operation_token: x.operationToken('west', 'east'), force }, null);

describe('hazard forced-promotion', () => {
  it('arises when a forced promotion loses writes, with the lost keys (the primary partitioned away)', () => {
    const x = new Watched(world(), [forcedPromotion]);
    drPair(x);
    x.partition('east', 'west');
    x.write('east', 'b', { v: 2 });
    x.write('east', 'a', { v: 'changed' });
    x.advance(1000);
    expect(promote(x, true).status).toBe(200);
    const promoted = x.w.log.find((e) => e.type === 'replication-secondary-promoted')!;
    expect(x.findings).toMatchObject([{ kind: 'hazard', id: 'forced-promotion', clusters: ['west', 'east'], at: promoted.at, lostKeys: ['secret/a', 'secret/b'] }]);
  });

  it('counts a crashed primary’s unreplicated writes, and a delete that did not arrive', () => {
    const x = new Watched(world(), [forcedPromotion]);
    drPair(x);
    x.request('east', { method: 'DELETE', path: 'secret/metadata/a', token: x.root('east') });
    x.write('east', 'c', { v: 3 });
    x.crash('east');
    x.advance(1000);
    expect(promote(x, true).status).toBe(200);
    expect(x.findings).toMatchObject([{ id: 'forced-promotion', lostKeys: ['secret/a', 'secret/c'] }]);
  });

  it('catches a forced promotion of a secondary that never finished its initial sync', () => {
    const x = new Watched(world(), [forcedPromotion]);
    x.write('east', 'a', { v: 1 });
    x.drPrimary('east');
    x.drSecondary('east', 'west');
    expect(promote(x, false).status).toBe(400);
    expect(promote(x, true).status).toBe(200);
    expect(x.findings).toMatchObject([{ id: 'forced-promotion', lostKeys: ['secret/a'] }]);
  });

  it('does not arise for a forced promotion that lacked nothing, nor for an unforced one', () => {
    const x = new Watched(world(), [forcedPromotion]);
    drPair(x);
    x.ok('east', `${DR}/primary/demote`);
    expect(promote(x, true).status).toBe(200);
    const y = new Watched(world(), [forcedPromotion]);
    drPair(y);
    expect(promote(y, false).status).toBe(200);
    expect([...x.findings, ...y.findings]).toEqual([]);
  });
});
