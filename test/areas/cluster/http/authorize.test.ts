import { refusalResponse } from '../../../../src/kernel/refusal.js';
import { describe, expect, it } from 'vitest';
import { authorize } from '../../../../src/areas/core/http/authorize.js';
import type { AuthRule, RequestContext } from '../../../../src/areas/core/http/route.js';
import type { ClusterState, License } from '../../../../src/areas/core/state.js';
import { capabilitiesOf } from '../../../../src/areas/core/policy.js';
import { errorsOf, kvWorld } from '../../../kernel/http/helpers.js';
import { routes } from '../../../../src/world.js';

function ctxFor(over: { license?: License; drSecondary?: boolean; namespace?: string; body?: Record<string, unknown>; opToken?: string | null } = {}) {
  const w = kvWorld();
  const base = w.state.clusters.named('east');
  const cluster: ClusterState = {
    ...base,
    license: over.license ?? base.license,
    drOperationToken: over.opToken ?? null,
    replication: { ...base.replication, dr: { ...base.replication.dr, role: over.drSecondary ? 'secondary.following' : 'disabled' } },
  };
  const ctx = { state: w.state, cluster, method: 'POST', path: 'sys/replication/dr/primary/enable', namespace: over.namespace ?? '', params: {}, query: {}, body: over.body ?? {}, token: null, now: 0, rng: null as never, landing: routes.landing } as Omit<RequestContext, 'fields'>;
  return { w, ctx };
}

const refusalText = (r: ReturnType<typeof authorize>) => (r && r.kind === 'error' ? refusalResponse(r).errors[0] : null);
/** The authorisation step's answer as the router renders it: a refusal value becomes its status and text. */
const authz = (...a: Parameters<typeof authorize>) => {
  const r = authorize(...a);
  return r && r.kind === 'error' ? { kind: r.kind, ...refusalResponse(r) } : r;
};

describe('authorisation: one step, driven by the rule each route declares', () => {
  it('a client-token rule refuses a missing token with 403 permission denied', () => {
    const { ctx } = ctxFor();
    const r = authz({ token: 'client' }, ctx, 'sys/replication/dr/primary/enable', undefined);
    expect(r).toMatchObject({ kind: 'error', status: 403 });
  });

  it('a client-token rule refuses a token this cluster does not know', () => {
    const { ctx } = ctxFor();
    expect(authz({ token: 'client' }, ctx, 'sys/replication/dr/primary/enable', 'hvs.notatoken000000000000000')).toMatchObject({ status: 403 });
  });

  it('a token needs the capability of the method on the path', () => {
    const w = kvWorld();
    const reader = w.tokenNamed('east', 'reader');
    w.request('east', { method: 'POST', path: 'secret/data/k', body: { data: { a: 1 } }, token: w.tokenNamed('east', 'root') });
    expect(w.request('east', { method: 'GET', path: 'secret/data/k', token: reader }).status).toBe(200);
    expect(w.request('east', { method: 'POST', path: 'secret/data/k', body: { data: { a: 2 } }, token: reader }).status).toBe(403);
  });

  it('a write needs create on a new key and update on an existing one', () => {
    const w = kvWorld();
    const createOnly = w.tokenNamed('east', 'writer');
    expect(w.request('east', { method: 'POST', path: 'secret/data/app/x', body: { data: { a: 1 } }, token: createOnly }).status).toBe(200);
    expect(capabilitiesOf(w.state.clusters.named('east').storage.tokens[createOnly!], 'secret/data/app/x').has('update')).toBe(true);
  });

  it('deny on the most specific rule refuses everything there', () => {
    const w = kvWorld();
    const r = w.request('east', { method: 'POST', path: 'secret/data/app/locked', body: { data: { a: 1 } }, token: w.tokenNamed('east', 'writer') });
    expect(r.status).toBe(403);
  });

  it('a sudo rule needs sudo on top of the capability', () => {
    const w = kvWorld();
    const ops = w.state.clusters.named('east').storage.tokens[w.tokenNamed('east', 'ops')!];
    const { ctx } = ctxFor();
    const rule: AuthRule = { token: 'client', sudo: true };
    expect(authz(rule, { ...ctx, cluster: w.state.clusters.named('east') }, 'sys/replication/dr/primary/secondary-token', ops.id)).toMatchObject({ status: 403 });
    expect(authz({ token: 'client' }, { ...ctx, cluster: w.state.clusters.named('east') }, 'sys/replication/dr/primary/secondary-token', ops.id)).toBeNull();
    expect(authz(rule, { ...ctx, cluster: w.state.clusters.named('east') }, 'sys/replication/dr/primary/secondary-token', w.tokenNamed('east', 'root'))).toBeNull();
  });

  it('a token of a namespace reaches only paths in that namespace', () => {
    const w = kvWorld();
    const teamA = w.tokenNamed('east', 'teamA');
    expect(w.request('east', { method: 'POST', path: 'team-a/apps/data/k', body: { data: { a: 1 } }, token: teamA }).status).toBe(200);
    expect(w.request('east', { method: 'POST', path: 'secret/data/k', body: { data: { a: 1 } }, token: teamA }).status).toBe(403);
  });

  it('a restricted-root rule refuses a request made in a namespace', () => {
    const { ctx } = ctxFor({ namespace: 'team-a/' });
    expect(refusalText(authorize({ token: 'none', rootNamespace: true }, ctx, 'team-a/sys/x', undefined))).toMatch(/root namespace/);
    expect(authz({ token: 'none', rootNamespace: true }, ctxFor().ctx, 'sys/x', undefined)).toBeNull();
  });

  it('an enterprise rule refuses other licences with 404 enterprise-only feature', () => {
    for (const license of ['managed', 'none'] as const) {
      const r = authz({ token: 'none', license: 'enterprise' }, ctxFor({ license }).ctx, 'sys/x', undefined);
      expect(r).toEqual({ kind: 'error', status: 404, errors: ['enterprise-only feature'] });
    }
  });

  it('an enterprise-or-managed rule (status) accepts a managed cluster but not an unlicensed one', () => {
    const rule: AuthRule = { token: 'none', license: 'enterprise-or-managed' };
    expect(authz(rule, ctxFor({ license: 'managed' }).ctx, 'sys/x', undefined)).toBeNull();
    expect(authz(rule, ctxFor({ license: 'none' }).ctx, 'sys/x', undefined)).toMatchObject({ status: 404 });
  });

  it('a DR secondary refuses every path not declared open on it, before anything else', () => {
    const { ctx } = ctxFor({ drSecondary: true });
    expect(authz({ token: 'client' }, ctx, 'secret/data/x', undefined)).toEqual({ kind: 'error', status: 400, errors: ['path disabled in replication DR secondary mode'] });
    expect(authz({ token: 'none', openOnDrSecondary: true }, ctx, 'sys/replication/dr/status', undefined)).toBeNull();
  });

  it('a DR-operation-token rule needs the cluster’s current token in the body and no client token', () => {
    const rule: AuthRule = { token: 'dr-operation-token', openOnDrSecondary: true };
    expect(refusalText(authorize(rule, ctxFor({ drSecondary: true, opToken: 'hvs.good' }).ctx, 'p', undefined))).toMatch(/DR operation token was not provided/);
    expect(authz(rule, ctxFor({ drSecondary: true, opToken: 'hvs.good', body: { dr_operation_token: 'hvs.bad' } }).ctx, 'p', undefined)).toMatchObject({ status: 400 });
    expect(authz(rule, ctxFor({ drSecondary: true, opToken: null, body: { dr_operation_token: 'hvs.good' } }).ctx, 'p', undefined)).toMatchObject({ status: 400 });
    expect(authz(rule, ctxFor({ drSecondary: true, opToken: 'hvs.good', body: { dr_operation_token: 'hvs.good' } }).ctx, 'p', undefined)).toBeNull();
  });

  it('off a DR secondary, the operation-token paths take a client token and answer "Not a DR secondary."', () => {
    const w = kvWorld();
    const root = w.tokenNamed('east', 'root');
    expect(w.request('east', { method: 'POST', path: 'sys/replication/dr/primary/enable', token: root }).status).toBeLessThan(300);
    const promote = (token?: string) => w.request('east', { method: 'POST', path: 'sys/replication/dr/secondary/promote', body: {}, token });
    expect(promote(root)).toEqual({ status: 400, body: { errors: ['Not a DR secondary.'] } });
    expect(promote(undefined).status).toBe(403);
  });

  it('an unauthenticated rule needs no token', () => {
    expect(authz({ token: 'none' }, ctxFor().ctx, 'sys/x', undefined)).toBeNull();
  });
});

describe('bad input changes nothing', () => {
  const cases: [string, Parameters<ReturnType<typeof kvWorld>['request']>[1], number][] = [
    ['an unknown path', { method: 'POST', path: 'sys/nothing-here', body: {} }, 404],
    ['a wrong method', { method: 'DELETE', path: 'sys/replication/dr/status' }, 405],
    ['a body that is not a JSON object', { method: 'POST', path: 'secret/data/k', body: 'data=1' }, 400],
    ['a body that is an array', { method: 'POST', path: 'secret/data/k', body: [{ data: {} }] }, 400],
    ['a parameter of the wrong type', { method: 'POST', path: 'secret/data/k', body: { data: 5 } }, 400],
    ['a missing required parameter', { method: 'POST', path: 'secret/data/k', body: {} }, 400],
    ['an unknown namespace', { method: 'POST', path: 'secret/data/k', namespace: 'nope', body: { data: {} } }, 404],
  ];
  for (const [what, req, status] of cases) {
    it(`${what} gets a ${status} in the service's error format and leaves the state hash unchanged`, () => {
      const w = kvWorld();
      const hash = w.stateHash();
      const logLength = w.log.length;
      const r = w.request('east', { ...req, token: w.tokenNamed('east', 'root') });
      expect(r.status).toBe(status);
      expect(Array.isArray(errorsOf(r))).toBe(true);
      expect(w.stateHash()).toBe(hash);
      expect(w.log.length).toBe(logLength);
    });
  }

  it('a refused request draws nothing from the generator: later ids are as if it never happened', () => {
    const run = (withRefusal: boolean) => {
      const w = kvWorld(4);
      const token = w.tokenNamed('east', 'root');
      if (withRefusal) w.request('east', { method: 'POST', path: 'secret/data/k', body: { data: 1 }, token });
      return (w.request('east', { method: 'POST', path: 'secret/data/k', body: { data: { a: 1 } }, token }).body as any).request_id;
    };
    expect(run(true)).toBe(run(false));
  });
});
