import { describe, expect, it } from 'vitest';
import { Watch, catalogue, describeCatalogue } from '../../src/check/catalogue.js';
import type { Monitor, Observation } from '../../src/areas/monitoring/types.js';
import { HAZARD_IDS, INVARIANT_IDS } from '../../src/scenario/schema.js';
import { DR, world } from './helpers.js';

/** A monitor that keeps what it was shown. */
function recorder(): { factory: () => Monitor; seen: Observation[] } {
  const seen: Observation[] = [];
  const factory = (): Monitor => {
    const m: Monitor = { id: 'convergence', kind: 'invariant', description: 'records', observe: (o) => (seen.push(o), []), fork: () => m };
    return m;
  };
  return { seen, factory };
}

describe('the catalogue', () => {
  it('has one monitor per id of invariants.md, invariants then hazards, each described', () => {
    const entries = describeCatalogue();
    expect(entries.map((e) => e.id)).toEqual([...INVARIANT_IDS, ...HAZARD_IDS]);
    expect(entries.filter((e) => e.kind === 'invariant').map((e) => e.id)).toEqual([...INVARIANT_IDS]);
    expect(entries.filter((e) => e.kind === 'hazard').map((e) => e.id)).toEqual([...HAZARD_IDS]);
    for (const e of entries) expect(e.description.length).toBeGreaterThan(20);
  });

  it('gives every run fresh monitors', () => {
    const w = world();
    const [a, b] = [new Watch(w), new Watch(w)];
    expect(a.monitors).toHaveLength(catalogue.length);
    a.monitors.forEach((m, i) => expect(m).not.toBe(b.monitors[i]));
    expect(a.invariantIds).toEqual([...INVARIANT_IDS]);
    expect(a.hazardIds).toEqual([...HAZARD_IDS]);
  });
});

describe('Watch', () => {
  it('shows each step’s events with the state after each, and the responses with their place among them', () => {
    const w = world();
    const r = recorder();
    const watch = new Watch(w, [r.factory]);
    const root = w.state.operators.east.rootToken;
    const before = w.state;
    watch.send('east', { method: 'POST', path: `${DR}/primary/enable`, token: root });
    w.advance(10);
    const mid = w.state;
    watch.send('east', { method: 'GET', path: `${DR}/status` });
    watch.afterStep();
    const [o] = r.seen;
    expect(o.before).toBe(before);
    expect(o.events.map((e) => e.type)).toEqual(['replication-primary-enabled', 'time-advanced']);
    expect(o.states).toHaveLength(2);
    expect(o.states![1]).toBe(mid);
    expect(o.responses!.map((x) => [x.request.method, x.response.status, x.eventIndex])).toEqual([
      ['POST', 200, 1],
      ['GET', 200, 2],
    ]);
    expect(o.responses![0].before).toBe(before);
    expect(o.responses![1].before).toBe(mid);
    // The client token is not kept.
    expect(o.responses![0].request).not.toHaveProperty('token');
    watch.afterStep();
    expect(r.seen[1]).toMatchObject({ events: [], responses: [] });
  });

  it('lets a caller report a response itself with observeResponse, as the scenario runner does', async () => {
    const w = world();
    const r = recorder();
    const watch = new Watch(w, [r.factory]);
    const before = w.state;
    const result = await w.sendAsync('east', { method: 'GET', path: `${DR}/status` });
    watch.observeResponse('east', { method: 'GET', path: `${DR}/status` }, result.response, before);
    watch.afterStep();
    expect(r.seen[0].responses).toMatchObject([{ cluster: 'east', response: { status: 200 }, eventIndex: 0 }]);
  });

  it('raises nothing over a correct failover with every monitor', () => {
    const w = world();
    const watch = new Watch(w);
    const root = w.state.operators.east.rootToken;
    const post = (c: string, path: string, body?: unknown, token: string | undefined = root) => {
      const res = watch.send(c, { method: 'POST', path, body, token }).response;
      watch.afterStep();
      return res.body as any;
    };
    post('east', `${DR}/primary/enable`);
    post('west', `${DR}/secondary/enable`, { token: post('east', `${DR}/primary/secondary-token`, { id: 'west' }).wrap_info.token }, w.state.operators.west.rootToken);
    w.advance(1000);
    watch.afterStep();
    post('east', 'secret/data/k', { data: { v: 1 } });
    w.advance(1000);
    watch.afterStep();
    post('east', `${DR}/primary/demote`);
    const start = post('west', `${DR}/secondary/generate-operation-token/attempt`, {}, undefined);
    let last: any;
    for (const key of w.state.operators.east.keys.slice(0, 3)) last = post('west', `${DR}/secondary/generate-operation-token/update`, { key, nonce: start.nonce }, undefined);
    expect(last.complete).toBe(true);
    post('west', `${DR}/secondary/promote`, { dr_operation_token: w.state.clusters.named('west').drOperationToken }, undefined);
    w.advance(1000);
    watch.afterStep();
    expect(watch.findings).toEqual([]);
  });
});
