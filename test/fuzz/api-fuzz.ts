// The API fuzz (issue 14): fast-check over the route table. Requests are built from every route
// pattern of the world's table (sys paths and each KV mount type) with generated parameters —
// prototype names, malformed %-escapes, odd characters — and from free-form paths; with odd methods,
// bodies of the wrong types, prototype-keyed, deep (past max_json_depth) and large (past the string
// and entry limits), tokens and namespaces of any type. Each request is checked:
//   - it does not throw;
//   - a 5xx is one the service gives (500 multierror), or replsim's explained ones (501 not
//     implemented, 503 a crashed cluster); anything else is "unexplained";
//   - the answer has the service's shape: 204 with no body, 200 with an object (the full envelope
//     when it carries request_id), an error with exactly {errors: string[]};
//   - a refused request (an error that appends no event) leaves the state, the log and the
//     generator exactly as they were;
//   - no prototype changed (the caller freezes them too, so a write would throw).
// After each sequence the world's state hash, its history text and a replay of that history
// (same hash, same generator) are checked, so deep or odd data cannot break them either; then the
// original and the replayed world get the same few requests and must answer and end alike.
// `test/fuzz/api-fuzz.test.ts` runs a bounded number; `npm run fuzz` runs 100,000 requests.
import fc from 'fast-check';
import type { ApiRequest, ApiResponse } from '../../src/kernel/http/http.js';
import { METHODS } from '../../src/kernel/http/http.js';
import { routes, World } from '../../src/world.js';
import { parseHistory, toJsonl } from '../../src/kernel/persist.js';
import type { SimEvent } from '../../src/areas/core/events.js';

export const PROTO_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__defineGetter__', '__lookupSetter__'];
const BAD_ESCAPES = ['%ZZ', '%', '%E0%A4%A', '%zz%', 'a%2', '%C0%AF', '%00', '%2F', '%25', '%FF%FE'];
const PERF = 'sys/replication/performance';

export interface FuzzStats {
  requests: number;
  sequences: number;
  throws: number;
  prototypeChanges: number;
  unexplained5xx: number;
  badShape: number;
  refusedButChanged: number;
  historyFailures: number;
  statuses: Record<number, number>;
  /** The first few failures, described. */
  failures: string[];
}

/** The world every sequence starts from: a performance primary with a secondary id and a filter, KV data, a namespace. */
export function baseWorld(): World {
  const w = World.create(
    {
      east: { namespaces: ['team-a'], mounts: { secret: 'kv-v2', old: 'kv-v1', 'team-a/apps': 'kv-v2', cache: { type: 'kv-v2', local: true } } },
      west: { mounts: { secret: 'kv-v2' } },
    },
    { seed: 14 },
  );
  const token = w.tokenNamed('east', 'root');
  const ok = (r: ApiResponse) => {
    if (r.status >= 400) throw new Error(`fuzz set-up failed: ${JSON.stringify(r.body)}`);
  };
  ok(w.request('east', { method: 'POST', path: 'secret/data/app/one', body: { data: { a: 1 } }, token }));
  ok(w.request('east', { method: 'POST', path: 'old/config', body: { k: 'v' }, token }));
  ok(w.request('east', { method: 'POST', path: `${PERF}/primary/enable`, body: {}, token }));
  ok(w.request('east', { method: 'POST', path: `${PERF}/primary/secondary-token`, body: { id: 'sec1' }, token }));
  ok(w.request('east', { method: 'POST', path: `${PERF}/primary/paths-filter/sec1`, body: { mode: 'allow', paths: ['secret/'] }, token }));
  ok(w.request('east', { method: 'POST', path: 'sys/sync/destinations/codehost/gh1', body: { access_token: 'github_pat_example', repository_owner: 'acme', repository_name: 'web' }, token }));
  ok(w.request('east', { method: 'POST', path: 'sys/sync/destinations/codehost/gh1/associations/set', body: { mount: 'secret', secret_name: 'app/one' }, token }));
  ok(w.request('east', { method: 'POST', path: 'sys/plugins/runtimes/catalog/container/gvisor', body: { oci_runtime: 'runsc' }, token }));
  return w;
}

/** Every route pattern the world serves, as full paths (KV patterns under each mount of their type). */
function patterns(): string[] {
  const out = routes.sys.map((r) => r.pattern);
  const mountsOf: Record<string, string[]> = { 'kv-v2': ['secret/', 'team-a/apps/', 'cache/'], 'kv-v1': ['old/'] };
  for (const [type, list] of Object.entries(routes.mounts)) for (const r of list) for (const m of mountsOf[type] ?? []) out.push(m + r.pattern);
  return out;
}

/** Every (path pattern, method, the endpoint's declared fields) the table serves. */
function routeMethods(): [string, string, string[]][] {
  const out: [string, string, string[]][] = [];
  for (const r of routes.sys) for (const [m, ep] of Object.entries(r.methods)) out.push([r.pattern, m, Object.keys(ep?.fields ?? {})]);
  const mountsOf: Record<string, string[]> = { 'kv-v2': ['secret/', 'team-a/apps/', 'cache/'], 'kv-v1': ['old/'] };
  for (const [type, list] of Object.entries(routes.mounts))
    for (const r of list) for (const mount of mountsOf[type] ?? []) for (const [m, ep] of Object.entries(r.methods)) out.push([mount + r.pattern, m, Object.keys(ep?.fields ?? {})]);
  return out;
}

/** The field names an endpoint declares, for bodies that name real fields with wrong values. */
function fieldNames(): string[] {
  const names = new Set<string>();
  for (const r of [...routes.sys, ...Object.values(routes.mounts).flat()]) for (const ep of Object.values(r.methods)) for (const f of Object.keys(ep?.fields ?? {})) names.add(f);
  return [...names].sort();
}

function deep(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { d: v };
  return v;
}

/** Bodies past a limit, built once (they are big): the generator picks among them. */
function hostileBodies(): unknown[] {
  const wide: Record<string, number> = {};
  for (let i = 0; i <= 10_000; i++) wide[`k${i}`] = i;
  const long = 'x'.repeat(1_048_577);
  const fiveMb = Array.from({ length: 6 }, (_, i) => 'y'.repeat(900_000) + i);
  return [
    { data: deep(499) },
    { data: deep(501) },
    { data: deep(3_000) },
    deep(20_000),
    { data: { v: long } },
    { data: { parts: fiveMb } },
    { data: wide },
    { data: { list: Array.from({ length: 10_001 }, (_, i) => i) } },
    JSON.parse('{"__proto__": {"polluted": true}, "data": {"__proto__": {"polluted": true}}}'),
    JSON.parse('{"data": {"constructor": {"prototype": {"polluted": true}}}}'),
    { data: Object.create(null) },
    { data: { n: Number.NaN } },
    { data: { big: 10n } },
    { data: { f: () => 1 } },
    (() => {
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      return { data: cyclic };
    })(),
  ];
}

export function requestArbitrary(rootToken: string): fc.Arbitrary<{ cluster: string; req: ApiRequest }> {
  const name = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...PROTO_NAMES) },
    { weight: 1, arbitrary: fc.constantFrom(...BAD_ESCAPES) },
    { weight: 4, arbitrary: fc.constantFrom('sec1', 'team-a', 'app/one', 'config', 'one', 'x', 'gh1', 'codehost', 'gvisor', 'secret', 'container') },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTO_NAMES).map((p) => `a/${p}`) },
  );
  const fromPattern = fc.tuple(fc.constantFrom(...patterns()), fc.array(name, { minLength: 3, maxLength: 3 })).map(([p, names]) => {
    let i = 0;
    return p
      .split('/')
      .map((seg) => (seg.startsWith(':') || seg.startsWith('*') ? names[i++ % names.length] : seg))
      .join('/');
  });
  const freeForm = fc.array(fc.oneof(name, fc.constantFrom('sys', 'replication', 'performance', 'dr', 'primary', 'secondary', 'secret', 'data', 'metadata', 'team-a', 'v1', '', '..')), { maxLength: 6 }).map((s) => s.join('/'));
  const query = fc.oneof(
    fc.constant(''),
    fc.constant('?list=true'),
    fc.constantFrom(...PROTO_NAMES).map((p) => `?${p}=1&list=true`),
    fc.constantFrom(...BAD_ESCAPES).map((e) => `?${e}=${e}`),
    fc.tuple(name, name).map(([m, n]) => `?mount=${m}&secret_name=${n}&type=${n}`),
  );
  const path = fc.tuple(fc.oneof({ weight: 3, arbitrary: fromPattern }, { weight: 1, arbitrary: freeForm }), query, fc.constantFrom('', '/', 'v1/', '/v1/')).map(([p, q, pre]) => pre + p + q);
  const method = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...METHODS) }, { weight: 1, arbitrary: fc.constantFrom('get', 'OPTIONS', '', 'FOO', ...PROTO_NAMES) });
  const value = fc.oneof(
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
    { weight: 2, arbitrary: fc.constantFrom(...PROTO_NAMES) },
    { weight: 3, arbitrary: fc.constantFrom('sec1', 'secret', 'app/one', 'gh1', 'gvisor', 'allow', 'deny', 'runsc') },
    { weight: 1, arbitrary: fc.constant(['secret/', '__proto__']) },
  );
  const fields = fieldNames();
  const fieldBody = fc.dictionary(fc.oneof(fc.constantFrom(...fields), fc.constantFrom(...PROTO_NAMES)), value, { maxKeys: 4 }).map((o) => JSON.parse(JSON.stringify(o)));
  const hostile = hostileBodies();
  const body = fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined) },
    { weight: 4, arbitrary: fieldBody },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.constantFrom(...hostile) },
  );
  const token = fc.oneof(fc.constant(rootToken), fc.constant(undefined), fc.constantFrom(...PROTO_NAMES), fc.string({ maxLength: 8 }), fc.constantFrom<unknown>(42, {}, [], null, true));
  const namespace = fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: fc.constantFrom('', 'team-a', '/team-a/', 'nope') },
    { weight: 2, arbitrary: fc.constantFrom(...PROTO_NAMES) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(42, {}, ['team-a'], null, false) },
  );
  const anything = fc.record({ cluster: fc.constantFrom('east', 'east', 'west'), method, path, body, token, namespace }).map(({ cluster, ...r }) => ({ cluster, req: r as ApiRequest }));
  // Requests an operator could send: a route's own method, the root token, a body of its fields,
  // with names from the hostile list — so handlers and reducers run, not only the refusals.
  const plausible = fc
    .constantFrom(...routeMethods())
    .chain(([p, m, own]) =>
      fc.tuple(
        fc.constant([p, m] as const),
        fc.array(name, { minLength: 3, maxLength: 3 }),
        fc.oneof(
          // The endpoint's own fields, each present or not, with ordinary or hostile values.
          fc.record(Object.fromEntries(own.map((f) => [f, value])), { requiredKeys: [] }).map((o) => JSON.parse(JSON.stringify(o))),
          fieldBody,
          fc.record({ data: fc.dictionary(fc.oneof(fc.constantFrom(...PROTO_NAMES), fc.string({ maxLength: 6 })), value, { maxKeys: 3 }) }).map((o) => JSON.parse(JSON.stringify(o))),
        ),
      ),
    )
    .map(([[p, m], names, b]) => {
      let i = 0;
      const path = p
        .split('/')
        .map((seg) => (seg.startsWith(':') || seg.startsWith('*') ? names[i++ % names.length] : seg))
        .join('/');
      return { cluster: 'east', req: { method: m, path, body: m === 'GET' || m === 'LIST' || m === 'DELETE' ? undefined : b, token: rootToken } as ApiRequest };
    });
  // Time passing runs the timed processes (streaming, sync jobs) over whatever the requests stored.
  const wait = fc.integer({ min: 0, max: 5_000 }).map((ms) => ({ cluster: 'east', req: { method: 'WAIT', path: String(ms) } as ApiRequest }));
  return fc.oneof({ weight: 5, arbitrary: anything }, { weight: 5, arbitrary: plausible }, { weight: 1, arbitrary: wait });
}

/** A fingerprint of the built-in prototypes: a changed, added or removed member changes it. */
function prototypeFingerprint(): string {
  const protos: [string, object][] = [
    ['Object', Object.prototype],
    ['Array', Array.prototype],
    ['Function', Function.prototype],
    ['String', String.prototype],
    ['Number', Number.prototype],
  ];
  const parts: string[] = [];
  for (const [n, p] of protos) {
    const names = Reflect.ownKeys(p).map(String).sort();
    parts.push(`${n}:${names.join(',')}`);
  }
  // An enumerable addition shows up on any plain object too.
  for (const k in {}) parts.push(`enumerable:${k}`);
  return parts.join('|');
}

/** A prototype member's value (or its getter, for an accessor such as __proto__). */
function memberOf(p: object, k: PropertyKey): unknown {
  const d = Reflect.getOwnPropertyDescriptor(p, k);
  return d === undefined ? undefined : 'value' in d ? d.value : d.get;
}

const prototypeValues = new Map<object, Map<PropertyKey, unknown>>();
function prototypesUnchanged(): boolean {
  for (const p of [Object.prototype, Array.prototype, Function.prototype, String.prototype, Number.prototype]) {
    let seen = prototypeValues.get(p);
    if (!seen) {
      seen = new Map(Reflect.ownKeys(p).map((k) => [k, memberOf(p, k)]));
      prototypeValues.set(p, seen);
      continue;
    }
    if (Reflect.ownKeys(p).length !== seen.size) return false;
    for (const [k, v] of seen) if (memberOf(p, k) !== v) return false;
  }
  return true;
}

/**
 * Freezes the built-in prototypes, so a write through a request-derived name throws instead of
 * polluting (the original finding added `filter` to Object.prototype). Object.prototype and
 * Function.prototype are sealed — nothing can be added or removed, and their own prototype is
 * immutable — rather than frozen: a frozen Object.prototype makes its read-only members block an
 * ordinary assignment of an own key of that name on any plain object (the "override mistake"),
 * and a KV key or secondary id named `toString` or `valueOf` must stay storable. A member replaced
 * in place is caught by the check after every request (`prototypesUnchanged`). The other
 * prototypes are frozen outright.
 */
export function freezePrototypes(): void {
  Object.seal(Object.prototype);
  Object.seal(Function.prototype);
  for (const p of [Array.prototype, String.prototype, Number.prototype, Boolean.prototype]) Object.freeze(p);
}

function shapeProblem(res: ApiResponse): string | null {
  const { status, body } = res;
  if (!Number.isInteger(status) || status < 200 || status > 599) return `status ${status}`;
  if (status === 204) return body === null ? null : '204 with a body';
  if (status >= 400) {
    const b = body as { errors?: unknown };
    if (!b || typeof b !== 'object' || Object.keys(b).length !== 1 || !Array.isArray(b.errors) || !b.errors.every((e) => typeof e === 'string')) return `error ${status} without the {errors: string[]} shape`;
    return null;
  }
  if (body === null || typeof body !== 'object') return `${status} with a body that is not an object`;
  if (Object.hasOwn(body, 'request_id')) {
    const keys = Object.keys(body).sort().join(',');
    if (keys !== 'auth,data,lease_duration,lease_id,mount_type,renewable,request_id,warnings,wrap_info') return `envelope with keys ${keys}`;
  }
  return null;
}

function explained5xx(res: ApiResponse): boolean {
  const first = (res.body as { errors?: string[] }).errors?.[0] ?? '';
  if (res.status === 500) return first.startsWith('1 error occurred:');
  if (res.status === 501) return first.startsWith('not implemented in replsim:');
  if (res.status === 503) return first.includes('is not running (crashed)');
  return false;
}

export function newStats(): FuzzStats {
  return { requests: 0, sequences: 0, throws: 0, prototypeChanges: 0, unexplained5xx: 0, badShape: 0, refusedButChanged: 0, historyFailures: 0, statuses: {}, failures: [] };
}

function failed(stats: FuzzStats, what: string, req?: ApiRequest): void {
  if (stats.failures.length < 20) stats.failures.push(req ? `${what}: ${describe(req)}` : what);
}

function describe(req: ApiRequest): string {
  const body = req.body === undefined ? 'no body' : (() => {
    try {
      const s = JSON.stringify(req.body);
      return s === undefined ? String(req.body) : s.length > 120 ? s.slice(0, 120) + '…' : s;
    } catch {
      return 'an unprintable body';
    }
  })();
  return `${String(req.method)} ${JSON.stringify(req.path)} token=${JSON.stringify(req.token)} namespace=${JSON.stringify(req.namespace)} ${body}`;
}

/** Sends one sequence of requests to a fork of `base` and checks each answer and the world after. */
export async function runSequence(base: World, seq: { cluster: string; req: ApiRequest }[], stats: FuzzStats): Promise<boolean> {
  const w = base.fork();
  const protoBefore = prototypeFingerprint();
  let ok = true;
  for (const { cluster, req } of seq) {
    const state = w.state;
    const logLength = w.log.length;
    const rng = w.generatorState().join(',');
    let res: ApiResponse;
    let appended = 0;
    try {
      if (req.method === 'WAIT') {
        w.advance(Number(req.path));
        continue;
      }
      stats.requests++;
      const r = await w.sendAsync(cluster, req);
      res = r.response;
      appended = r.events.length;
    } catch (e) {
      stats.throws++;
      failed(stats, `threw ${(e as Error)?.name}: ${(e as Error)?.message?.slice(0, 200)}`, req);
      ok = false;
      continue;
    }
    stats.statuses[res.status] = (stats.statuses[res.status] ?? 0) + 1;
    if (!prototypesUnchanged() || prototypeFingerprint() !== protoBefore) {
      stats.prototypeChanges++;
      failed(stats, 'a prototype changed', req);
      ok = false;
    }
    const shape = shapeProblem(res);
    if (shape) {
      stats.badShape++;
      failed(stats, `bad shape (${shape})`, req);
      ok = false;
    }
    if (res.status >= 500 && !explained5xx(res)) {
      stats.unexplained5xx++;
      failed(stats, `unexplained ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`, req);
      ok = false;
    }
    if (res.status >= 400 && appended === 0 && (w.state !== state || w.log.length !== logLength || w.generatorState().join(',') !== rng)) {
      stats.refusedButChanged++;
      failed(stats, `refused with ${res.status} but the world changed`, req);
      ok = false;
    }
  }
  stats.sequences++;
  // The world after hostile input still hashes, saves and replays to the same state and generator.
  try {
    const hash = w.stateHash();
    const full = { events: [...base.log, ...w.log], end: { ...w.history().end!, events: base.log.length + w.log.length } };
    const again = World.replay(parseHistory<SimEvent>(toJsonl(full.events, full.end)));
    if (again.stateHash() !== hash || again.generatorState().join() !== w.generatorState().join()) throw new Error('the replayed world differs');
    // And it continues as the original does: the first requests again, to both, answer alike.
    for (const { cluster, req } of seq.slice(0, 3)) {
      if (req.method === 'WAIT') continue;
      const [x, y] = [await w.sendAsync(cluster, req), await again.sendAsync(cluster, req)];
      if (JSON.stringify(x.response) !== JSON.stringify(y.response)) throw new Error(`the replayed world answered ${describe(req)} otherwise`);
    }
    if (again.stateHash() !== w.stateHash()) throw new Error('the replayed world diverged after more requests');
  } catch (e) {
    stats.historyFailures++;
    failed(stats, `history after the sequence: ${(e as Error).message}`);
    ok = false;
  }
  return ok;
}

/** Runs sequences until at least `requests` requests were sent; fast-check shrinks a failing one. */
export async function fuzz(options: { requests: number; seed: number; maxSequence?: number }): Promise<FuzzStats> {
  const base = baseWorld();
  const stats = newStats();
  const maxSequence = options.maxSequence ?? 12;
  const arb = fc.array(requestArbitrary(base.tokenNamed('east', 'root')!), { minLength: 1, maxLength: maxSequence });
  // Rounds of fast-check runs (seed, seed + 1, …) until enough requests were sent or one failed.
  for (let round = 0; stats.requests < options.requests && stats.failures.length === 0; round++) {
    const numRuns = Math.max(1, Math.ceil((options.requests - stats.requests) / ((maxSequence + 1) / 2)));
    // Counting outside fast-check's shrinking: a shrunk run re-sends requests, which are not counted twice.
    let shrinking = false;
    const result = await fc.check(
      fc.asyncProperty(arb, async (seq) => {
        const ok = await runSequence(base, seq, shrinking ? newStats() : stats);
        if (!ok) shrinking = true;
        return ok;
      }),
      { numRuns, seed: options.seed + round },
    );
    if (result.failed && result.counterexample) stats.failures.push(`smallest failing sequence (seed ${options.seed + round}): ${result.counterexample[0].map((x) => `${x.cluster} ${describe(x.req)}`).join(' ; ')}`);
  }
  return stats;
}
