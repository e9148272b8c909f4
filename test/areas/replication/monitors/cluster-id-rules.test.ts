import { describe, expect, it } from 'vitest';
import { clusterIdRules } from '../../../../src/areas/replication/monitors/cluster-id-rules.js';
import { DR, PERF, Watched, edited, folded, stepOf, world } from '../../../check/helpers.js';

describe('invariant cluster-id-rules', () => {
  it('holds through demote, promote, disable and enable again through the API', () => {
    const x = new Watched(world(), [clusterIdRules]);
    x.drPrimary('east');
    x.drSecondary('east', 'west');
    x.advance(1000);
    const setId = x.w.state.clusters.named('east').replication.dr.clusterId;
    x.ok('east', `${DR}/primary/demote`);
    x.ok('west', `${DR}/secondary/promote`, { dr_operation_token: x.operationToken('west', 'east') }, null);
    expect(x.w.state.clusters.named('west').replication.dr.clusterId).toBe(setId);
    x.ok('west', `${DR}/primary/disable`, {}, x.root('east'));
    x.ok('west', `${DR}/primary/enable`, {}, x.root('east'));
    expect(x.w.state.clusters.named('west').replication.dr.clusterId).not.toBe(setId);
    x.perfPrimary('south');
    x.ok('south', `${PERF}/primary/disable`);
    x.perfPrimary('south');
    expect(x.findings).toEqual([]);
  });

  it('catches a demotion that changed the cluster id', () => {
    const w = world();
    const m = clusterIdRules();
    m.observe(stepOf(w, () => w.request('east', { method: 'POST', path: `${DR}/primary/enable`, token: w.state.operators.east.rootToken })));
    const demote = stepOf(w, () => w.request('east', { method: 'POST', path: `${DR}/primary/demote`, token: w.state.operators.east.rootToken }));
    const broken = edited(demote, (d) => {
      d.clusters.east.replication.dr.clusterId = 'a-new-id';
    });
    expect(m.observe(broken)).toMatchObject([{ kind: 'violation', id: 'cluster-id-rules', clusters: ['east'] }]);
  });

  it('catches a disable then enable that kept the old id', () => {
    const w = world();
    const m = clusterIdRules();
    m.observe(stepOf(w, () => w.request('east', { method: 'POST', path: `${DR}/primary/enable`, token: w.state.operators.east.rootToken })));
    const old = w.state.clusters.named('east').replication.dr.clusterId;
    // A handler that reused the id instead of drawing a new one.
    const found = m.observe(
      folded(w.state, [
        { type: 'replication-primary-disabled', at: 0, kind: 'dr', cluster: 'east', role: 'disabled' },
        { type: 'replication-primary-enabled', at: 0, kind: 'dr', cluster: 'east', clusterId: old, primaryClusterAddr: '', role: 'primary' },
      ]),
    );
    expect(found).toMatchObject([{ id: 'cluster-id-rules', clusters: ['east'] }]);
    expect(found[0].message).toContain('kept a cluster_id it had before');
  });

  it('catches an enable that took the id of another replication set', () => {
    const w = world();
    const m = clusterIdRules();
    m.observe(stepOf(w, () => w.request('east', { method: 'POST', path: `${DR}/primary/enable`, token: w.state.operators.east.rootToken })));
    const eastId = w.state.clusters.named('east').replication.dr.clusterId;
    const found = m.observe(folded(w.state, [{ type: 'replication-primary-enabled', at: 0, kind: 'dr', cluster: 'south', clusterId: eastId, primaryClusterAddr: '', role: 'primary' }]));
    expect(found).toMatchObject([{ id: 'cluster-id-rules', clusters: ['south', 'east'] }]);
  });
});
