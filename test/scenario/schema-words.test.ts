// Every message the scenario schema gives is in the file's words (src/scenario/schema.ts): whatever
// value stands at whatever key, no message is zod's own English ("Invalid input", "Too small: ...").
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/schema.js';

/** A file with every kind of key: each of its paths is given other values. */
const BASE = {
  name: 'every key',
  seed: 3,
  expect: { hazard: 'two-primaries' },
  clusters: {
    east: {
      version: '1.16.0',
      license: 'enterprise',
      keyShares: 5,
      keyThreshold: 3,
      namespaces: ['team-a'],
      mounts: { secret: 'kv-v2', cache: { type: 'kv-v1', local: true } },
      tokens: { ops: { namespace: 'team-a', policy: { 'sys/*': ['read'] }, policies: ['readers'], type: 'service', role: 'r', ttl: '8h' } },
      policies: { readers: 'path "secret/*" { capabilities = ["read"] }', writers: { 'secret/*': ['update'] } },
      roles: { r: { allowed_policies: ['readers'], orphan: false, token_type: 'service' } },
      enableUnauthenticatedAccess: ['rekey'],
    },
    west: {},
  },
  steps: [
    { request: 'POST sys/replication/dr/primary/enable', on: 'east', token: 'ops', namespace: 'team-a', body: { a: 1 }, expect: { status: 200, error: '/x/', body: {}, data: {} }, save: { v: 'data.x' } },
    { 'decode-token': '${v}', otp: 'o', save: 'd' },
    { wait: '10s', name: 'a pause' },
    { partition: ['east', 'west'] },
    { slow: { link: ['east', 'west'], latency: '2s' } },
    { heal: 'all' },
    { crash: 'west' },
    { restart: 'west' },
    { corrupt: { on: 'east', tree: 'replicated', page: 1, subpage: 2 } },
    { 'destination-fault': { on: 'east', type: 'codehost', name: 'gh1', fault: 'unreachable' } },
    { inspect: { store: 'codehost/gh1' } },
  ],
};

type Path = (string | number)[];

function paths(value: unknown, at: Path = []): Path[] {
  const below = Array.isArray(value)
    ? value.flatMap((item, i) => paths(item, [...at, i]))
    : value !== null && typeof value === 'object'
      ? Object.entries(value).flatMap(([key, item]) => paths(item, [...at, key]))
      : [];
  return [at, ...below];
}

function withValueAt(path: Path, value: unknown): unknown {
  const copy = structuredClone(BASE) as Record<string | number, unknown>;
  if (path.length === 0) return value;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  if (value === undefined) delete parent[path[path.length - 1]];
  else parent[path[path.length - 1]] = value;
  return copy;
}

const ZODS_OWN = /Invalid input|Invalid option|Invalid key|Invalid string|Invalid element|Unrecognized key|Too small|Too big|received |^Required$|^Expected /;

const values = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(undefined, '', ' ', 'x', 'kv-v3', '1.16', 'GET', 'all', '5s', '10', -1, 0, 1.5, 1e300, Number.NaN, [], {}, [[]], [['east'], ['east']], ['east'], { type: 'kv-v2', zz: 1 }),
);

describe('scenario messages', () => {
  it('the base file parses', () => {
    expect(parseScenario(BASE).success).toBe(true);
  });

  it("are in the file's words whatever value stands at whatever key", () => {
    const all = paths(BASE);
    fc.assert(
      fc.property(fc.constantFrom(...all), values, (path, value) => {
        const parsed = parseScenario(withValueAt(path, value));
        if (parsed.success) return;
        for (const issue of parsed.error.issues) expect(`${issue.path.join('.')}: ${issue.message}`).not.toMatch(ZODS_OWN);
      }),
      { numRuns: 1000, seed: 7 },
    );
  });
});
