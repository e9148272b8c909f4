// sys/leader and sys/mounts, as `vault status` and `vault secrets enable|disable|list` call them.
import { describe, expect, it } from 'vitest';
import { World } from '../../../src/world.js';

function drPair() {
  const w = World.create({ east: {}, west: {} }, { seed: 4 });
  const root = w.state.operators.east.rootToken;
  const req = (cluster: string, method: string, path: string, body?: unknown, token: string | undefined = root) => w.request(cluster, { method, path, body, token });
  req('east', 'POST', 'sys/replication/dr/primary/enable');
  const t = (req('east', 'POST', 'sys/replication/dr/primary/secondary-token', { id: 'west' }).body as any).wrap_info.token;
  req('west', 'POST', 'sys/replication/dr/secondary/enable', { token: t }, w.state.operators.west.rootToken);
  w.advance(1000);
  return { w, req };
}

describe('sys/leader', () => {
  it('names the cluster itself, on a DR secondary too', () => {
    const { req, w } = drPair();
    for (const c of ['east', 'west']) {
      const r = req(c, 'GET', 'sys/leader', undefined, undefined);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ ha_enabled: true, is_self: true, leader_address: w.state.clusters.named(c).apiAddr, leader_cluster_address: w.state.clusters.named(c).clusterAddr });
    }
  });
});

describe('sys/mounts', () => {
  it('enables a KV engine that replicates to the DR secondary, reads and lists it, and disables it', () => {
    const { req, w } = drPair();
    expect(req('east', 'POST', 'sys/mounts/payments', { type: 'kv', options: { version: '2' }, description: 'payments team' }).status).toBe(204);
    expect((req('east', 'GET', 'sys/mounts/payments').body as any).data).toMatchObject({ type: 'kv', options: { version: '2' }, description: 'payments team', local: false });
    expect(Object.keys((req('east', 'GET', 'sys/mounts').body as any).data)).toEqual(['payments/', 'secret/']);
    expect(req('east', 'POST', 'payments/data/card', { data: { n: 1 } }).status).toBe(200);
    w.advance(1000);
    expect(w.state.clusters.named('west').storage.mounts['payments/']?.type).toBe('kv-v2');
    expect(req('east', 'POST', 'sys/mounts/payments', { type: 'kv' }).body).toEqual({ errors: ['path is already in use at payments/'] });
    expect(req('east', 'POST', 'sys/mounts/pki', { type: 'pki' }).status).toBe(501);
    expect(req('east', 'POST', 'sys/mounts/x', {}).status).toBe(400);
    expect(req('east', 'DELETE', 'sys/mounts/payments').status).toBe(204);
    expect(req('east', 'GET', 'payments/data/card').status).toBe(404);
  });

  it('needs a token with the capability', () => {
    const w = World.create({ east: { tokens: { reader: { policy: { 'sys/mounts': ['read'] } } } } }, { seed: 1 });
    const reader = w.tokenNamed('east', 'reader');
    expect(w.request('east', { method: 'GET', path: 'sys/mounts', token: reader }).status).toBe(200);
    expect(w.request('east', { method: 'POST', path: 'sys/mounts/x', body: { type: 'kv' }, token: reader }).status).toBe(403);
  });
});
