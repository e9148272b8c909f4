import { describe, expect, it } from 'vitest';
import { drSecondaryClosed } from '../../../../src/areas/replication/monitors/dr-secondary-closed.js';
import { DR, Watched, folded, response, world } from '../../../check/helpers.js';

/** west a DR secondary of east, synced. */
function drPair(x: Watched): void {
  x.write('east', 'app', { v: 1 });
  x.drPrimary('east');
  x.drSecondary('east', 'west');
  x.advance(1000);
}

describe('invariant dr-secondary-closed', () => {
  it('holds through the API: client paths refused, status and the DR secondary’s own calls answered', () => {
    const x = new Watched(world(), [drSecondaryClosed]);
    drPair(x);
    const root = x.root('east');
    expect(x.get('west', 'secret/data/app', root).status).toBe(400);
    expect(x.write('west', 'app', { v: 2 }, 'secret', root).status).toBe(400);
    expect(x.request('west', { method: 'LIST', path: 'secret/metadata', token: root }).status).toBe(400);
    expect(x.post('west', `${DR}/primary/secondary-token`, { id: 'x' }, root).status).toBe(400);
    expect(x.post('west', 'sys/generate-root/attempt', {}, null).status).toBe(400);
    expect(x.get('west', `${DR}/status`).status).toBe(200);
    expect(x.get('west', '/v1/sys/replication/status').status).toBe(200);
    expect(x.get('west', 'sys/replication/performance/status').status).toBe(200);
    x.operationToken('west', 'east');
    expect(x.post('west', `${DR}/secondary/generate-public-key`, {}, root).status).toBe(200);
    expect(x.findings).toEqual([]);
  });

  it('raises nothing on what `vault status` and a load balancer read on a DR secondary', () => {
    const x = new Watched(world(), [drSecondaryClosed]);
    drPair(x);
    expect(x.get('west', 'sys/seal-status').status).toBe(200);
    expect(x.get('west', 'sys/health').status).toBe(472);
    expect(x.get('west', 'sys/health?drsecondarycode=200').status).toBe(200);
    expect(x.findings).toEqual([]);
  });

  it('catches a DR secondary that served a client read', () => {
    const x = new Watched(world(), []);
    drPair(x);
    const before = x.w.state;
    const r = response('west', { method: 'GET', path: 'secret/data/app' }, { status: 200, body: { data: { data: { v: 1 } } } }, before);
    const found = drSecondaryClosed().observe({ before, events: [], state: before, responses: [r] });
    expect(found).toMatchObject([{ kind: 'violation', id: 'dr-secondary-closed', clusters: ['west'] }]);
    expect(found[0].message).toContain('GET secret/data/app');
  });

  it('catches a client write applied on a DR secondary, once for the write and its answer', () => {
    const x = new Watched(world(), []);
    drPair(x);
    const before = x.w.state;
    const o = folded(before, [{ type: 'kv-written', at: 1000, cluster: 'west', mount: 'secret/', key: 'sneaked', data: { v: 1 } }]);
    const answer = { ...response('west', { method: 'POST', path: 'secret/data/sneaked', body: { data: { v: 1 } } }, { status: 200, body: {} }, before, o.state), eventIndex: 1 };
    const found = drSecondaryClosed().observe({ ...o, responses: [answer] });
    expect(found).toMatchObject([{ id: 'dr-secondary-closed', clusters: ['west'] }]);
    expect(found[0].message).toContain('secret/sneaked');
  });

  it('catches a KV config or metadata write applied on a DR secondary', () => {
    const x = new Watched(world(), []);
    drPair(x);
    const before = x.w.state;
    const o = folded(before, [
      { type: 'kv-config-written', at: 1000, cluster: 'west', mount: 'secret/', maxVersions: 2 },
      { type: 'kv-metadata-written', at: 1000, cluster: 'west', mount: 'secret/', key: 'app', casRequired: true },
    ]);
    const found = drSecondaryClosed().observe(o);
    expect(found.map((f) => f.message)).toEqual([
      'the DR secondary west applied a config write to secret/, a client request it must refuse',
      'the DR secondary west applied a metadata write to secret/app, a client request it must refuse',
    ]);
  });

  it('does not judge a cluster that is not a DR secondary, nor a refusal', () => {
    const x = new Watched(world(), []);
    drPair(x);
    const before = x.w.state;
    const ok = response('east', { method: 'GET', path: 'secret/data/app' }, { status: 200, body: {} }, before);
    const refused = response('west', { method: 'GET', path: 'secret/data/app' }, { status: 400, body: { errors: ['path disabled in replication DR secondary mode'] } }, before);
    expect(drSecondaryClosed().observe({ before, events: [], state: before, responses: [ok, refused] })).toEqual([]);
  });
});
