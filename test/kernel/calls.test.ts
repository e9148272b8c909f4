// Calls made and answered within a request, as messages on the bus (src/kernel/bus.ts): a performance
// secondary forwarding a write to its primary (KV data, KV-v2 config and metadata, sync destinations
// and associations, the plugin catalog) and a secondary unwrapping its activation token at its
// primary. A request is one instant of the virtual clock, so a call is sent and delivered at that
// instant (deliveredAt = sentAt, by the request's own event); the network decides whether it can be
// made at all: across a partition, or to a crashed primary, the request is refused and nothing is sent.
import { describe, expect, it } from 'vitest';
import { callRefused, type BusMessage } from '../../src/kernel/bus.js';
import { initialNetwork, linkKey } from '../../src/kernel/network.js';
import type { ApiResponse } from '../../src/kernel/http/http.js';
import type { World } from '../../src/world.js';
import { CONNECTIONS, DEST } from '../areas/sync/helpers.js';
import { CATALOG, PLUGINS, SHA } from '../areas/plugins/helpers.js';
import { DR, drWorld, enablePrimary, expectOk, rootOf, secondaryToken } from '../areas/replication/helpers.js';
import { PERF, perfPair, perfToken, perfWorld } from '../areas/replication/performance/helpers.js';

function req(w: World, cluster: string, method: string, path: string, token: string, body?: unknown): ApiResponse {
  return w.request(cluster, { method, path, body, token });
}

const forwards = (w: World): BusMessage[] => w.messages.filter((m) => m.kind === 'forwarded-write');

/**
 * Sends one write to west (a performance secondary of east) and checks it was forwarded: applied on
 * east by an event naming west, and one message from west to east sent and delivered by that event.
 */
function expectForwarded(w: World, westRoot: string, method: string, path: string, body: unknown, type: string, label: string): void {
  const before = forwards(w).length;
  const r = req(w, 'west', method, path, westRoot, body);
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  const event = w.log.at(-1)!;
  expect(event).toMatchObject({ type, cluster: 'east', forwardedBy: 'west' });
  const sent = forwards(w).slice(before);
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject({ from: 'west', to: 'east', sentAt: w.now, deliveredAt: w.now, dueAt: null, droppedAt: null, sentBy: event.seq, deliveredBy: event.seq, label: `forwarded ${label}` });
}

describe('forwarded writes of a performance secondary are messages from it to its primary', () => {
  it('each kind of forwarded write: KV data and delete, KV-v2 config and metadata, sync destinations and associations, the plugin catalog', () => {
    const w = perfWorld();
    const westRoot = perfPair(w);
    const eastRoot = rootOf(w, 'east');
    expectOk(req(w, 'east', 'POST', 'secret/data/app/web', eastRoot, { data: { API_KEY: 'k1' } }));
    w.advance(1_000);

    expectForwarded(w, westRoot, 'POST', 'secret/data/app/db', { data: { pw: 'x' } }, 'kv-written', 'write secret/app/db');
    // At once, before the write streams back to west: the delete lands on east, which holds it.
    expectForwarded(w, westRoot, 'DELETE', 'secret/data/app/db', undefined, 'kv-deleted', 'delete secret/app/db');
    expect(req(w, 'east', 'GET', 'secret/data/app/db', eastRoot).status).toBe(404);
    expectForwarded(w, westRoot, 'POST', 'secret/config', { max_versions: 3 }, 'kv-config-written', 'config write secret/config');
    expectForwarded(w, westRoot, 'POST', 'secret/metadata/app/web', { custom_metadata: { team: 'a' } }, 'kv-metadata-written', 'metadata write secret/metadata/app/web');
    expectForwarded(w, westRoot, 'POST', `${DEST}/codehost/gh1`, CONNECTIONS.codehost, 'sync-destination-configured', 'sync destination write codehost/gh1');
    expectForwarded(w, westRoot, 'POST', `${DEST}/codehost/gh1/associations/set`, { mount: 'secret', secret_name: 'app/web' }, 'sync-association-set', 'sync association set codehost/gh1 app/web');
    const id = Object.keys(w.state.clusters.named('east').sync.destinations['codehost/gh1'].associations)[0];
    expectForwarded(w, westRoot, 'POST', `${DEST}/codehost/gh1/associations/remove`, { mount: 'secret', secret_name: 'app/web' }, 'sync-association-removed', `sync association remove codehost/gh1 ${id}`);
    expectForwarded(w, westRoot, 'POST', `${DEST}/codehost/gh2`, CONNECTIONS.codehost, 'sync-destination-configured', 'sync destination write codehost/gh2');
    expectForwarded(w, westRoot, 'DELETE', `${DEST}/codehost/gh2`, undefined, 'sync-destination-deleted', 'sync destination delete codehost/gh2');
    expectForwarded(w, westRoot, 'POST', `${CATALOG}/container/gvisor`, { oci_runtime: 'runsc' }, 'plugin-runtime-registered', 'plugin runtime register container/gvisor');
    expectForwarded(w, westRoot, 'POST', `${PLUGINS}/secret/my-plugin`, { sha256: SHA, command: 'my-plugin' }, 'plugin-registered', 'plugin register secret/my-plugin');
    expectForwarded(w, westRoot, 'DELETE', `${PLUGINS}/secret/my-plugin`, undefined, 'plugin-deregistered', 'plugin deregister secret/my-plugin');
    expectForwarded(w, westRoot, 'DELETE', `${CATALOG}/container/gvisor`, undefined, 'plugin-runtime-deleted', 'plugin runtime delete container/gvisor');
  });

  it('a purge of a destination that still manages secrets, sent to the secondary, is forwarded too', () => {
    const w = perfWorld();
    const westRoot = perfPair(w);
    const eastRoot = rootOf(w, 'east');
    expectOk(req(w, 'east', 'POST', 'secret/data/app/web', eastRoot, { data: { API_KEY: 'k1' } }));
    expectOk(req(w, 'east', 'POST', `${DEST}/codehost/gh1`, eastRoot, CONNECTIONS.codehost));
    expectOk(req(w, 'east', 'POST', `${DEST}/codehost/gh1/associations/set`, eastRoot, { mount: 'secret', secret_name: 'app/web' }));
    w.advance(5_000);
    expectForwarded(w, westRoot, 'DELETE', `${DEST}/codehost/gh1?purge=true`, undefined, 'sync-destination-purge-started', 'sync destination purge codehost/gh1');
  });

  it('the same writes sent to the primary itself are not forwarded: no message, no forwardedBy', () => {
    const w = perfWorld();
    perfPair(w);
    const eastRoot = rootOf(w, 'east');
    const before = w.log.length;
    expectOk(req(w, 'east', 'POST', 'secret/config', eastRoot, { max_versions: 3 }));
    expectOk(req(w, 'east', 'POST', `${DEST}/codehost/gh1`, eastRoot, CONNECTIONS.codehost));
    expectOk(req(w, 'east', 'POST', `${CATALOG}/container/gvisor`, eastRoot, {}));
    for (const e of w.log.slice(before)) expect(e).not.toHaveProperty('forwardedBy');
    expect(forwards(w)).toEqual([]);
  });

  for (const fault of ['partition', 'crash'] as const) {
    it(`a forward the network cannot carry (${fault === 'partition' ? 'link cut' : 'primary crashed'}) is refused: nothing sent, nothing appended`, () => {
      const w = perfWorld();
      const westRoot = perfPair(w);
      if (fault === 'partition') w.partition(['east', 'west']);
      else w.crash('east');
      const logged = w.log.length;
      const messages = w.messages.length;
      for (const [method, path, body] of [
        ['POST', 'secret/data/app/db', { data: { pw: 'x' } }],
        ['POST', 'secret/config', { max_versions: 3 }],
        ['POST', 'secret/metadata/app/web', { max_versions: 2 }],
        ['POST', `${DEST}/codehost/gh1`, CONNECTIONS.codehost],
        ['POST', `${CATALOG}/container/gvisor`, {}],
        ['POST', `${PLUGINS}/secret/my-plugin`, { sha256: SHA, command: 'my-plugin' }],
      ] as const) {
        const r = req(w, 'west', method, path, westRoot, body);
        expect(r.status, path).toBe(500);
        expect((r.body as { errors: string[] }).errors[0]).toContain('error forwarding the write to the performance primary');
      }
      expect(w.log.length).toBe(logged);
      expect(w.messages.length).toBe(messages);
      expect(forwards(w)).toEqual([]);
    });
  }
});

describe('unwrapping an activation token is a call to the primary, which the network decides', () => {
  for (const fault of ['partition', 'crash'] as const) {
    it(`a DR secondary cut off from its primary (${fault}) cannot unwrap: refused, no unwrap sent; once it can, the call is sent and answered at one instant`, () => {
      const w = drWorld();
      enablePrimary(w, 'east');
      const token = secondaryToken(w, 'east', 'west');
      if (fault === 'partition') w.partition(['east', 'west']);
      else w.crash('east');
      const logged = w.log.length;
      const r = w.request('west', { method: 'POST', path: `${DR}/secondary/enable`, body: { token }, token: rootOf(w, 'west') });
      expect(r.status).toBe(500);
      expect(JSON.stringify(r.body)).toContain('error unwrapping secondary token');
      expect(w.log.length).toBe(logged);
      expect(w.messages.filter((m) => m.kind === 'unwrap')).toEqual([]);

      if (fault === 'partition') w.heal('all');
      else w.restart('east');
      w.advance(1_000);
      expectOk(w.request('west', { method: 'POST', path: `${DR}/secondary/enable`, body: { token }, token: rootOf(w, 'west') }));
      const enabled = w.log.find((e) => e.type === 'replication-secondary-enabled' && e.cluster === 'west')!;
      const unwraps = w.messages.filter((m) => m.kind === 'unwrap');
      expect(unwraps).toHaveLength(1);
      expect(unwraps[0]).toMatchObject({ from: 'west', to: 'east', sentAt: enabled.at, deliveredAt: enabled.at, dueAt: null, sentBy: enabled.seq, deliveredBy: enabled.seq });
    });
  }

  it('a performance secondary cut off from its primary cannot unwrap either', () => {
    const w = perfWorld();
    expectOk(w.request('east', { method: 'POST', path: `${PERF}/primary/enable`, body: {}, token: rootOf(w, 'east') }));
    const token = perfToken(w, 'east', 'west');
    w.partition(['east', 'west']);
    const messages = w.messages.length;
    const r = w.request('west', { method: 'POST', path: `${PERF}/secondary/enable`, body: { token }, token: rootOf(w, 'west') });
    expect(r.status).toBe(500);
    expect(JSON.stringify(r.body)).toContain('error unwrapping secondary token');
    expect(w.messages.length).toBe(messages);
  });
});

describe('the bus decides a call at its instant (callRefused)', () => {
  it('carries it when both ends are up and the link is not cut; else names why (a call is dropped, never held)', () => {
    const net = initialNetwork();
    expect(callRefused(net, { from: 'west', to: 'east' })).toBeNull();
    expect(callRefused({ ...net, cut: { [linkKey('east', 'west')]: true } }, { from: 'west', to: 'east' })).toBe('link west–east cut');
    expect(callRefused({ ...net, down: { east: true } }, { from: 'west', to: 'east' })).toBe('east down');
    expect(callRefused({ ...net, down: { west: true } }, { from: 'west', to: 'east' })).toBe('west down');
    // Another link cut leaves this one alone.
    expect(callRefused({ ...net, cut: { [linkKey('east', 'south')]: true } }, { from: 'west', to: 'east' })).toBeNull();
  });
});
