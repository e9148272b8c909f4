// Refusals are data (#11): every refusal is registered once with a code, the service's text and the
// spec rule it applies; handlers return refusal values and the router renders them. This test
// drives every route of the route table (sys/ paths and the mount routes; docs/endpoints.md is
// generated from the same table) through inputs that get refused, and checks that every refusal
// carries a registered code with a rule; and that the type checker refuses an unregistered error.
import { describe, expect, it } from 'vitest';
import type { Reply } from '../../src/kernel/http/http.js';
import { refusalDef, registeredRefusals } from '../../src/kernel/refusal.js';
import type { Method } from '../../src/kernel/http/http.js';
import { routes, World, type RequestResult } from '../../src/world.js';
import { drPair, drWorld, rootOf } from '../areas/replication/helpers.js';

describe('the refusal registry', () => {
  it('registers each code once, with a status, a text, whose words they are, and a spec rule with its words', () => {
    const all = registeredRefusals();
    expect(all.length).toBeGreaterThan(60);
    expect(new Set(all.map((d) => d.code)).size).toBe(all.length);
    for (const d of all) {
      expect(d.code).toMatch(/^[a-z-]+\.[A-Za-z0-9]+$/);
      expect(d.rule.id, d.code).toMatch(/^[A-Za-z][\w.-]*$/);
      expect(d.rule.words.length, d.code).toBeGreaterThan(15);
      expect(['service', 'simulator']).toContain(d.wording);
    }
  });

  it('a handler cannot return an unregistered error: the type of an error reply needs a registered code', () => {
    // @ts-expect-error — an error reply made by hand (status and text, no registered code) is not a Reply.
    const handMade: Reply = { kind: 'error', status: 400, errors: ['made up'] };
    // @ts-expect-error — a plain string is not a RefusalCode: only defineRefusals makes one.
    const unregistered: Reply = { kind: 'error', code: 'made.up', params: [] };
    expect([handMade, unregistered]).toHaveLength(2);
  });
});

/** A concrete path for a route pattern: each `:param` and `*rest` filled with a name. */
function pathOf(pattern: string): string {
  return pattern
    .split('/')
    .map((seg) => (seg.startsWith(':') ? (seg === ':type' ? 'codehost' : 'x1') : seg.startsWith('*') ? 'a/b' : seg))
    .join('/');
}

/** The worlds a request is refused in, one kind of refusal each. */
function worlds(): { name: string; world: World; cluster: string }[] {
  const fresh = drWorld({ seed: 11 });
  const pair = drWorld({ seed: 12 });
  drPair(pair);
  const community = World.create({ east: { license: 'none', mounts: { secret: 'kv-v2' } } }, { seed: 13 });
  return [
    { name: 'an enterprise cluster with replication disabled', world: fresh, cluster: 'east' },
    { name: 'a DR secondary', world: pair, cluster: 'west' },
    { name: 'a DR primary', world: pair, cluster: 'east' },
    { name: 'a community build', world: community, cluster: 'east' },
  ];
}

/** Requests that each route refuses in some world: no token, an unknown one, root with an empty or wrong body, a namespace. */
function attempts(w: World, cluster: string, method: Method, path: string) {
  const root = rootOf(w, cluster);
  const bad = { dr_operation_token: 'hvs.wrong', token: 'not-a-token', id: '', ttl: 'never', mode: 'both', paths: [''], cpu_nanos: -1, key: 'zz', nonce: 'n', otp: 'short' };
  return [
    { method, path },
    { method, path, token: 'hvs.unknown000000000000000000' },
    { method, path, token: root },
    { method, path, token: root, body: bad },
    { method, path, token: root, body: { zzz: { nested: true } } },
    { method, path, token: root, namespace: 'nowhere' },
  ];
}

describe('every route of the route table refuses only with registered refusals', () => {
  it('drives each method of each route through refusing inputs; every refusal names a registered code and rule', () => {
    const seen = new Map<string, number>();
    const refusedRoutes = new Set<string>();
    const table = [...routes.sys.map((r) => ({ r, prefix: '' })), ...Object.values(routes.mounts).flatMap((rs) => rs.map((r) => ({ r, prefix: 'secret/' })))];
    expect(table.length).toBeGreaterThan(40);
    for (const { world, cluster } of worlds()) {
      for (const { r, prefix } of table) {
        for (const method of Object.keys(r.methods) as Method[]) {
          const path = prefix + pathOf(r.pattern);
          for (const req of attempts(world, cluster, method, path)) {
            let result: RequestResult;
            try {
              result = world.send(cluster, req);
            } catch (e) {
              // A request needing asynchronous work (a PGP key) is not refused synchronously: skip it.
              if (String(e).includes('sendAsync')) continue;
              throw e;
            }
            // A refusal is an error body; sys/health answers its non-2xx codes (472, 473…) with a status body instead.
            const refused = Array.isArray((result.response.body as { errors?: unknown } | null)?.errors);
            expect(refused || result.response.status < 400 || path === 'sys/health', `${method} ${path}`).toBe(true);
            if (!refused) {
              expect(result.refusal).toBeUndefined();
              continue;
            }
            const where = `${method} ${path} on ${cluster}: ${JSON.stringify(result.response.body)}`;
            expect(result.refusal, where).toBeDefined();
            const def = refusalDef(result.refusal!.code);
            expect(def, where).toBeDefined();
            expect(result.refusal!.rule).toBe(def!.rule.id);
            expect(result.refusal!.words).toBe(def!.rule.words);
            seen.set(def!.code, (seen.get(def!.code) ?? 0) + 1);
            refusedRoutes.add(`${method} ${r.pattern}`);
          }
        }
      }
    }
    // Every route and method was refused at least once (so each was checked), with many different codes.
    const all = table.flatMap(({ r }) => Object.keys(r.methods).map((m) => `${m} ${r.pattern}`));
    expect(all.filter((k) => !refusedRoutes.has(k))).toEqual([]);
    expect(seen.size).toBeGreaterThan(15);
  });
});

describe('docs/refusals.md', () => {
  it('is the reference generated from the registry (run npx tsx src/report/write-refusals.ts)', async () => {
    const { readFileSync } = await import('node:fs');
    const { refusalReference } = await import('../../src/report/refusals-doc.js');
    expect(readFileSync(new URL('../../docs/refusals.md', import.meta.url), 'utf8')).toBe(refusalReference());
  });
});
