// Enabling a secondary clears everything it stored, plugin catalog and sync destinations included;
// a DR secondary then mirrors its primary's, and serves them once promoted.
import { describe, expect, it } from 'vitest';
import { DR, drOperationToken, drPair, drWorld, expectOk, post } from './helpers.js';

const RUNTIME = 'sys/plugins/runtimes/catalog/container';

describe('DR and the plugin runtime catalog', () => {
  it('a new secondary loses its own runtimes, receives its primary’s, and serves them after promotion', () => {
    const w = drWorld();
    const eastRoot = w.state.operators.east.rootToken;
    expectOk(post(w, 'west', `${RUNTIME}/west-only`, {}, w.state.operators.west.rootToken));
    expectOk(post(w, 'east', `${RUNTIME}/gvisor`, { cpu_nanos: 5 }, eastRoot));
    drPair(w);
    const op = drOperationToken(w, 'west', 'east');
    w.crash('east');
    expectOk(post(w, 'west', `${DR}/secondary/promote`, { dr_operation_token: op }, null));
    const read = (name: string) => w.request('west', { method: 'GET', path: `${RUNTIME}/${name}`, token: eastRoot });
    expect(read('gvisor').status).toBe(200);
    expect((read('gvisor').body as any).data.cpu_nanos).toBe(5);
    expect(read('west-only').status).not.toBe(200);
  });
});
