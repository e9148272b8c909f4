import { describe, expect, it } from 'vitest';
import { render, type Reply } from '../../../../src/kernel/http/http.js';
import { kvRoutes } from '../../../../src/areas/cluster/kv.js';
import { notBuilt } from '../../../../src/areas/core/http/not-built.js';
import { dispatch } from '../../../../src/kernel/http/router.js';
import { clusterRouting } from '../../../../src/areas/core/http/routing.js';
import { SeededRng } from '../../../../src/kernel/prng.js';
import { dataOf, errorsOf, kvWorld } from '../../../kernel/http/helpers.js';
import { routes as worldRoutes } from '../../../../src/world.js';

describe('router', () => {
  it('LIST is the method LIST or GET with ?list=true, and both answer the same keys', () => {
    const w = kvWorld();
    const token = w.tokenNamed('east', 'root');
    for (const k of ['a', 'b', 'dir/c']) w.request('east', { method: 'POST', path: `secret/data/${k}`, body: { data: { v: k } }, token });
    const viaList = w.request('east', { method: 'LIST', path: 'secret/metadata/', token });
    const viaGet = w.request('east', { method: 'GET', path: 'secret/metadata?list=true', token });
    expect(viaList.status).toBe(200);
    expect(dataOf(viaList).keys).toEqual(['a', 'b', 'dir/']);
    expect(dataOf(viaGet).keys).toEqual(dataOf(viaList).keys);
    expect(dataOf(w.request('east', { method: 'LIST', path: 'secret/metadata/dir', token })).keys).toEqual(['c']);
  });

  it('an empty list is a 404 with an empty error list, as the service answers', () => {
    const w = kvWorld();
    const r = w.request('east', { method: 'LIST', path: 'secret/metadata/', token: w.tokenNamed('east', 'root') });
    expect(r).toEqual({ status: 404, body: { errors: [] } });
  });

  it('an unknown path is a 404 unsupported path', () => {
    const w = kvWorld();
    const token = w.tokenNamed('east', 'root');
    for (const path of ['sys/no-such-thing', 'nomount/data/x', 'sys/replication/dr/secondary/nope']) {
      const r = w.request('east', { method: 'GET', path, token });
      expect(r.status).toBe(404);
      expect(errorsOf(r)).toEqual(['1 error occurred:\n\t* unsupported path\n\n']);
    }
  });

  it('a known path with a method it does not support is a 405', () => {
    const w = kvWorld();
    const token = w.tokenNamed('east', 'root');
    expect(w.request('east', { method: 'DELETE', path: 'sys/replication/dr/status', token }).status).toBe(405);
    // The service's config path has read and update only (secret/metadata answers PATCH: 501 in replsim, not built).
    expect(w.request('east', { method: 'PATCH', path: 'secret/config', token }).status).toBe(405);
    expect(w.request('east', { method: 'TRACE', path: 'secret/data/x', token }).status).toBe(405);
  });

  it('tolerates a leading slash and the /v1/ prefix', () => {
    const w = kvWorld();
    const token = w.tokenNamed('east', 'root');
    w.request('east', { method: 'POST', path: '/v1/secret/data/x', body: { data: { a: 1 } }, token });
    expect(w.request('east', { method: 'GET', path: '/secret/data/x', token }).status).toBe(200);
  });

  it('PUT is accepted where the service accepts POST', () => {
    const w = kvWorld();
    const token = w.tokenNamed('east', 'root');
    expect(w.request('east', { method: 'PUT', path: 'secret/data/x', body: { data: { a: 1 } }, token }).status).toBe(200);
  });

  it('the namespace header and a namespace path prefix reach the same mount', () => {
    const w = kvWorld();
    const token = w.tokenNamed('east', 'teamA');
    const put = w.request('east', { method: 'POST', path: 'apps/data/k', namespace: 'team-a', body: { data: { v: 1 } }, token });
    expect(put.status).toBe(200);
    expect(dataOf(w.request('east', { method: 'GET', path: 'team-a/apps/data/k', token })).data).toEqual({ v: 1 });
  });

  it('unbuilt areas of the spec answer 501 not implemented, never a success', () => {
    // Every area of the spec is built now; the placeholder is checked on a route table of its own.
    const w = kvWorld();
    const routes = { sys: [notBuilt('sys/not-yet/:x', ['GET'], 'an unbuilt area')], mounts: kvRoutes, landing: worldRoutes.landing };
    const d = dispatch(clusterRouting(w.state, 'east', new SeededRng(1), routes), { method: 'GET', path: 'sys/not-yet/x', token: w.tokenNamed('east', 'root') });
    const r = render(d.outcome as Reply, () => 'id');
    expect(r.status).toBe(501);
    expect(errorsOf(r)[0]).toMatch(/not implemented in replsim/);
  });
});

describe('router: LIST and policies', () => {
  it('checks a LIST against the path with a trailing slash, as the service does', () => {
    const w = kvWorld();
    const root = w.tokenNamed('east', 'root');
    w.request('east', { method: 'POST', path: 'secret/data/a', body: { data: { v: 1 } }, token: root });
    // reader's policy grants list on secret/metadata/*: the listing of secret/metadata itself.
    const r = w.request('east', { method: 'LIST', path: 'secret/metadata', token: w.tokenNamed('east', 'reader') });
    expect(r.status).toBe(200);
  });
});

describe('router: paths of the service replsim does not simulate', () => {
  it('answer 501 not implemented (README, Limits), never 404 or a success', () => {
    const w = kvWorld();
    const token = w.tokenNamed('east', 'root');
    for (const [method, path] of [
      ['GET', 'sys/activation-flags'],
      ['POST', 'sys/activation-flags/secrets-sync/activate'],
      ['POST', 'secret/undelete/app'],
    ]) {
      const r = w.request('east', { method, path, token });
      expect(r.status, path).toBe(501);
      expect(errorsOf(r)[0]).toMatch(/^not implemented in replsim: /);
    }
  });
});
