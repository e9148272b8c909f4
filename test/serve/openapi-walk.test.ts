// Every operation the service's Enterprise OpenAPI document (2.1.0) lists under sys/replication,
// sys/sync and sys/plugins/runtimes (test/fixtures/openapi-operations.json, destination types by
// replsim's neutral names), sent over HTTP to `replsim serve` with every documented body parameter:
// none may answer 404 "unsupported path" or 405 "unsupported operation", and no documented
// parameter may draw the "ignored these unrecognized parameters" warning. The second check is also
// made on the route table itself, since a request refused on its values never reaches the warning.
// A part replsim left out would answer 501 with its reason, listed here and in the README: none is.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ServeHandle } from '../../src/serve/serve.js';
import { routes } from '../../src/world.js';
import type { Method } from '../../src/kernel/http/http.js';

interface Operation {
  method: string;
  path: string;
  body: Record<string, string>;
  query: string[];
}
const ops: Operation[] = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'openapi-operations.json'), 'utf8')).operations;

/** Operations that answer 501 with a reason (README, Limits): none left. */
const NOT_BUILT = new Set<string>([]);

const concrete = (op: Operation) =>
  op.path
    .replace('sys/sync/destinations/{type}', 'sys/sync/destinations/codehost')
    .replace('{type}', 'container')
    .replace('{name}', 'walk')
    .replace('{id}', 'walk')
    .replace('{mount}', 'secret')
    .replace('{secret_name}', 'app')
    .replace('{subsystem}', 'license');

const sample = (t: string): unknown => (t === 'boolean' ? false : t === 'integer' ? 0 : t === 'array' ? [] : t === 'object' ? {} : '');

/** The endpoint the route table has for a method and concrete path (patterns as the router reads them). */
function endpointFor(method: string, path: string) {
  const clean = path.replace(/\/+$/, '');
  for (const r of routes.sys) {
    const re = new RegExp('^' + r.pattern.replace(/:[a-z_]+/g, '[^/]+').replace(/\*[a-z_]+/g, '.+') + '$');
    if (!re.test(clean)) continue;
    const m = (method === 'GET' && path.endsWith('/') ? 'LIST' : method) as Method;
    const ep = r.methods[m] ?? (m === 'LIST' ? r.methods.GET : undefined);
    if (ep) return ep;
  }
  return undefined;
}

let server: ServeHandle;
let root = '';
beforeAll(async () => {
  // The document is 2.1.0's: on an older cluster its newer sync parameters are ignored with a warning (src/areas/sync/versions.ts).
  server = await serve({ scenario: 'test/serve/fixtures/two-2x-clusters.yaml', clock: 'manual' });
  root = server.world.state.operators.east.rootToken;
});
afterAll(async () => {
  await server?.stop();
});

describe('the Enterprise OpenAPI operations of sys/replication, sys/sync and sys/plugins/runtimes', () => {
  it('are the 95 the document lists', () => {
    expect(ops.length).toBe(95);
  });

  it('each answers over HTTP, none with 404 unsupported path or 405, none warning that a documented parameter is ignored', async () => {
    const problems: string[] = [];
    for (const op of ops) {
      const key = `${op.method} ${op.path}`;
      const path = concrete(op);
      const query = op.query.includes('list') ? '?list=true' : '';
      const body = Object.fromEntries(Object.entries(op.body).map(([k, t]) => [k, sample(t)]));
      const res = await fetch(`${server.clusters.east.url}/v1/${path}${query}`, {
        method: op.method,
        headers: { 'X-Vault-Token': root, 'Content-Type': 'application/json' },
        body: op.method === 'GET' ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      const json = text ? JSON.parse(text) : null;
      const errors: string[] = json?.errors ?? [];
      if (res.status === 405 || (res.status === 404 && errors.some((e) => e.includes('unsupported path')))) problems.push(`${key}: ${res.status} ${errors.join(' ')}`);
      if (res.status === 501 && !NOT_BUILT.has(key)) problems.push(`${key}: 501 ${errors.join(' ')}`);
      if ((json?.warnings ?? []).some((w: string) => w.includes('ignored these unrecognized parameters'))) problems.push(`${key}: ${json.warnings.join(' ')}`);
    }
    expect(problems).toEqual([]);
  });

  it('declare every documented body parameter in the route table', () => {
    const problems: string[] = [];
    for (const op of ops) {
      const ep = endpointFor(op.method, concrete(op));
      if (!ep) {
        problems.push(`${op.method} ${op.path}: no route`);
        continue;
      }
      if (ep.openBody) continue;
      const declared = Object.keys(ep.fields ?? {});
      const missing = Object.keys(op.body).filter((p) => !declared.includes(p));
      if (missing.length && !NOT_BUILT.has(`${op.method} ${op.path}`)) problems.push(`${op.method} ${op.path}: ${missing.join(', ')}`);
    }
    expect(problems).toEqual([]);
  });
});
