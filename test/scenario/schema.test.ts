import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  didYouMean,
  parseDuration,
  parseScenario,
  renderScenarioJsonSchema,
  scenarioJsonSchema,
  type Scenario,
  type Step,
} from '../../src/scenario/schema.js';

function parsed(data: unknown): Scenario {
  const result = parseScenario(data);
  if (!result.success) throw new Error(JSON.stringify(result.error.issues, null, 2));
  return result.data;
}

/** Each error as "dotted.key: message". */
function errors(data: unknown): string[] {
  const result = parseScenario(data);
  if (result.success) throw new Error('expected the scenario to be refused');
  return result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

function withSteps(...steps: unknown[]) {
  return { name: 't', clusters: { east: {}, west: {}, south: {} }, steps };
}

function step(raw: unknown): Step {
  return parsed(withSteps(raw)).steps[0];
}

describe('top level', () => {
  it('fills in the defaults of a minimal file', () => {
    const scenario = parsed({ name: 'minimal', clusters: { east: {} }, steps: [] });
    expect(scenario).toEqual({
      name: 'minimal',
      seed: 1,
      expect: 'pass',
      clusters: {
        east: {
          version: '1.16.0',
          license: 'enterprise',
          keyShares: 5,
          keyThreshold: 3,
          namespaces: [],
          mounts: { secret: { type: 'kv-v2', local: false } },
          tokens: {},
        },
      },
      steps: [],
    });
  });

  it('takes a cluster with nothing after its name as all defaults', () => {
    expect(parsed({ name: 't', clusters: { east: null }, steps: [] }).clusters.east.keyShares).toBe(5);
  });

  it('requires name, clusters and steps', () => {
    expect(errors({})).toEqual(['name: required', 'clusters: required', 'steps: required']);
  });

  it('wants at least one cluster', () => {
    expect(errors({ name: 't', clusters: {}, steps: [] })).toEqual(['clusters: declare at least one cluster, like "east: {}"']);
  });

  it('refuses unknown keys one by one, guessing the key meant', () => {
    expect(errors({ name: 't', clusters: { east: {} }, steps: [], sead: 3, colour: 'red' })).toEqual([
      'sead: unknown key "sead" in a scenario: did you mean "seed"?',
      'colour: unknown key "colour" in a scenario; it takes name, description, seed, expect, clusters, steps',
    ]);
  });

  it('wants an integer seed', () => {
    expect(errors({ name: 't', seed: 1.5, clusters: { east: {} }, steps: [] })).toEqual(['seed: expected an integer, got a fractional number 1.5']);
  });

  it('reads the three forms of expect', () => {
    const base = { name: 't', clusters: { east: {} }, steps: [] };
    expect(parsed({ ...base, expect: 'pass' }).expect).toBe('pass');
    expect(parsed({ ...base, expect: { hazard: 'two-primaries' } }).expect).toEqual({ hazard: 'two-primaries' });
    expect(parsed({ ...base, expect: { violation: 'wipe-on-enable' } }).expect).toEqual({ violation: 'wipe-on-enable' });
  });

  it('names the ids of invariants.md when expect names another', () => {
    const base = { name: 't', clusters: { east: {} }, steps: [] };
    expect(errors({ ...base, expect: { hazard: 'two-primary' } })).toEqual([
      'expect.hazard: "two-primary" is not one of two-primaries, newer-primary, forced-promotion, lost-writes, unauthenticated-ceremony-open: did you mean "two-primaries"?',
    ]);
    expect(errors({ ...base, expect: { violation: 'two-primaries' } })[0]).toMatch(/^expect.violation: "two-primaries" is not one of wipe-on-enable, /);
    expect(errors({ ...base, expect: 'two-primaries' })).toEqual([
      'expect: expected pass, { hazard: <id> }, { hazards: [<id>, ...] } or { violation: <id> }, got "two-primaries": did you mean { hazard: two-primaries }?',
    ]);
    expect(errors({ ...base, expect: 'Pass' })).toEqual(['expect: expected pass, { hazard: <id> }, { hazards: [<id>, ...] } or { violation: <id> }, got "Pass": did you mean "pass"?']);
    expect(errors({ ...base, expect: { hazard: 'two-primaries', violation: 'convergence' } })).toEqual(['expect: expect names a hazard or a violation, not both']);
    expect(errors({ ...base, expect: { hazard: 'two-primaries', why: 'x' } })).toEqual(['expect.why: unknown key "why" in expect; it takes hazard']);
  });
});

describe('clusters', () => {
  const cluster = (spec: unknown) => ({ name: 't', clusters: { east: spec }, steps: [] });

  it('checks cluster names', () => {
    expect(errors({ name: 't', clusters: { East: {} }, steps: [] })).toEqual([
      'clusters.East: a cluster name is lower-case letters, digits and "-", starting with a letter',
    ]);
    expect(parsed({ name: 't', clusters: { 'dr-2': {} }, steps: [] }).clusters['dr-2']).toBeDefined();
  });

  it('wants a semver version, and says to quote a number', () => {
    expect(parsed(cluster({ version: '1.15.2+ent' })).clusters.east.version).toBe('1.15.2+ent');
    expect(errors(cluster({ version: 1.16 }))).toEqual(['clusters.east.version: a version is a string like "1.16.0" (quote it in YAML), got 1.16']);
    expect(errors(cluster({ version: 'v1.16' }))).toEqual(['clusters.east.version: a version is "major.minor.patch", like "1.16.0"']);
  });

  it('guesses a misspelt licence', () => {
    expect(errors(cluster({ license: 'enterprize' }))).toEqual([
      'clusters.east.license: "enterprize" is not one of enterprise, managed, none: did you mean "enterprise"?',
    ]);
  });

  it('keeps the threshold within the shares, naming a default as such', () => {
    expect(errors(cluster({ keyShares: 2 }))).toEqual([
      'clusters.east.keyShares: keyThreshold 3 (the default) is more than keyShares 2: the threshold cannot exceed the shares',
    ]);
    expect(errors(cluster({ keyThreshold: 6 }))).toEqual([
      'clusters.east.keyThreshold: keyThreshold 6 is more than keyShares 5 (the default): the threshold cannot exceed the shares',
    ]);
    expect(errors(cluster({ keyThreshold: 0 }))).toEqual(['clusters.east.keyThreshold: must be at least 1, got 0']);
    expect(parsed(cluster({ keyShares: 1, keyThreshold: 1 })).clusters.east.keyThreshold).toBe(1);
  });

  it('normalises namespaces and refuses duplicates', () => {
    expect(parsed(cluster({ namespaces: ['team-a/', 'team-a/dev'] })).clusters.east.namespaces).toEqual(['team-a', 'team-a/dev']);
    expect(errors(cluster({ namespaces: ['team-a', 'team-a/'] }))).toEqual(['clusters.east.namespaces.1: namespace "team-a" is declared twice']);
    expect(errors(cluster({ namespaces: ['/team-a'] }))[0]).toMatch(/^clusters.east.namespaces.0: a namespace path is/);
  });

  it('expands mount shorthands', () => {
    expect(parsed(cluster({ mounts: { secret: 'kv-v1', cache: { type: 'kv-v2', local: true }, 'team-a/apps': { type: 'kv-v2' } } })).clusters.east.mounts).toEqual({
      secret: { type: 'kv-v1', local: false },
      cache: { type: 'kv-v2', local: true },
      'team-a/apps': { type: 'kv-v2', local: false },
    });
  });

  it('says what a mount may be', () => {
    expect(errors(cluster({ mounts: { a: 'kv-v3' } }))).toEqual([
      'clusters.east.mounts.a: expected kv-v2, kv-v1 or { type: kv-v2, local: true }, got "kv-v3": did you mean "kv-v2"?',
    ]);
    expect(errors(cluster({ mounts: { a: { type: 'kv-v2', lcal: true } } }))).toEqual([
      'clusters.east.mounts.a.lcal: unknown key "lcal" in a mount: did you mean "local"?',
    ]);
    expect(errors(cluster({ mounts: { '/a': 'kv-v2' } }))[0]).toMatch(/^clusters.east.mounts.\/a: a mount path is like secret/);
  });

  it('reads tokens with their policies', () => {
    const policy = { 'sys/replication/*': ['create', 'read', 'update', 'delete', 'list'] };
    expect(parsed(cluster({ namespaces: ['team-a'], tokens: { ops: { policy }, dev: { namespace: 'team-a/' } } })).clusters.east.tokens).toEqual({
      ops: { namespace: '', policy },
      dev: { namespace: 'team-a', policy: {} },
    });
  });

  it('checks capabilities, token names and token namespaces', () => {
    expect(errors(cluster({ tokens: { ops: { policy: { 'a/*': ['reed'] } } } }))).toEqual([
      'clusters.east.tokens.ops.policy.a/*.0: "reed" is not one of create, read, update, delete, list, patch, sudo, deny: did you mean "read"?',
    ]);
    expect(errors(cluster({ tokens: { root: {} } }))[0]).toMatch(/^clusters.east.tokens.root: a token name is .* not root or none/);
    expect(errors(cluster({ namespaces: ['team-a'], tokens: { ops: { namespace: 'team-b' } } }))).toEqual([
      'clusters.east.tokens.ops.namespace: namespace "team-b" is not among this cluster\'s namespaces (team-a): did you mean "team-a"?',
    ]);
    expect(errors(cluster({ tokens: { ops: { namespace: 'team-b' } } }))).toEqual([
      'clusters.east.tokens.ops.namespace: namespace "team-b" is not declared: add it to this cluster\'s namespaces',
    ]);
  });
});

describe('steps', () => {
  it('parses a request line and strips /v1/ or a leading /', () => {
    expect(step({ request: 'POST /v1/sys/replication/dr/primary/enable', on: 'east' })).toEqual({
      kind: 'request',
      method: 'POST',
      path: 'sys/replication/dr/primary/enable',
      on: 'east',
      token: 'root',
      save: {},
    });
    expect(step({ request: 'LIST /sys/plugins/runtimes/catalog?type=container', on: 'east' })).toMatchObject({
      method: 'LIST',
      path: 'sys/plugins/runtimes/catalog?type=container',
    });
  });

  it('keeps every request key', () => {
    const raw = {
      name: 'issue a token',
      request: 'POST sys/replication/dr/primary/secondary-token',
      on: 'east',
      body: { id: 'west' },
      token: 'none',
      namespace: 'team-a/',
      expect: { status: 200, error: 'both', body: { wrap_info: { ttl: 1800 } }, data: { mode: 'primary' } },
      save: { westToken: 'wrap_info.token' },
    };
    const { request: _line, ...rest } = raw;
    expect(step(raw)).toEqual({ kind: 'request', method: 'POST', path: 'sys/replication/dr/primary/secondary-token', ...rest });
  });

  it('explains a malformed request line', () => {
    const at = (request: string) => errors(withSteps({ request, on: 'east' }));
    expect(at('post sys/health')).toEqual(['steps.0.request: write the method in capitals: "POST sys/health"']);
    expect(at('PSOT sys/health')[0]).toMatch(/"PSOT" is not one: did you mean "POST"\?$/);
    expect(at('GET')).toEqual(['steps.0.request: the request "GET" has no path: write "GET sys/..."']);
    expect(at('GET /')).toEqual(['steps.0.request: the request "GET /" has no path']);
  });

  it('refuses a misspelt key with a guess, and names what a step takes otherwise', () => {
    expect(errors(withSteps({ request: 'GET sys/health', on: 'east', tokn: 'root' }))).toEqual([
      'steps.0.tokn: unknown key "tokn" in a request step: did you mean "token"?',
    ]);
    expect(errors(withSteps({ wait: '1s', on: 'east' }))).toEqual(['steps.0.on: unknown key "on" in a wait step; it takes wait, name']);
  });

  it('guesses a misspelt action', () => {
    expect(errors(withSteps({ reqest: 'GET sys/health', on: 'east' }))).toEqual(['steps.0.reqest: unknown key "reqest" in a step: did you mean "request"?']);
  });

  it('wants exactly one action', () => {
    expect(errors(withSteps({ on: 'east' }))).toEqual([
      'steps.0: a step needs one action key: request, decode-token, wait, partition, slow, heal, crash, restart, corrupt, destination-fault, inspect, reload',
    ]);
    expect(errors(withSteps({ crash: 'east', restart: 'east' }))).toEqual([
      'steps.0.restart: a step has exactly one action, this one has crash and restart: make them separate steps',
    ]);
    expect(errors(withSteps('wait 10s'))[0]).toMatch(/^steps.0: a step is a map with one action key/);
  });

  it('reports errors of every step at once, with references to clusters and tokens', () => {
    expect(
      errors(
        withSteps(
          { request: 'GET sys/health', on: 'esat', token: 'opz' },
          { wait: 'soon' },
          { crash: 'north' },
          { partition: ['east', ['west']] },
        ),
      ),
    ).toEqual([
      'steps.0.on: unknown cluster "esat": the clusters are east, west, south: did you mean "east"?',
      'steps.0.token: unknown token "opz": use root, none, "${var}" or a token declared under a cluster\'s tokens (none are declared)',
      'steps.2.crash: unknown cluster "north": the clusters are east, west, south',
      'steps.1.wait: "soon" is not a duration: a duration is a number and a unit (ms, s, m or h), like 500ms, 10s, 31m, 2h or 1h30m',
      'steps.3.partition: expected two cluster names [a, b] or a list of groups [[a], [b, c]], got ["east",["west"]]',
    ]);
  });

  it('accepts a token declared on any cluster, root, none or a variable', () => {
    const scenario = {
      name: 't',
      clusters: { east: {}, west: { tokens: { ops: {} } } },
      steps: ['ops', 'root', 'none', '${drToken}'].map((token) => ({ request: 'GET sys/health', on: 'east', token })),
    };
    expect(parsed(scenario).steps).toHaveLength(4);
  });

  it('guesses a misspelt token', () => {
    const scenario = { name: 't', clusters: { east: { tokens: { ops: {} } } }, steps: [{ request: 'GET x', on: 'east', token: 'opz' }] };
    expect(errors(scenario)[0]).toMatch(/\(declared: ops\): did you mean "ops"\?$/);
  });

  it('compiles regular expressions of expectations at load', () => {
    expect(errors(withSteps({ request: 'GET x', on: 'east', expect: { error: '/a(/', data: { keys: ['/[/'] } } }))).toEqual([
      'steps.0.expect.error: /a(/ is not a valid regular expression: Invalid regular expression: /a(/: Unterminated group',
      'steps.0.expect.data.keys.0: /[/ is not a valid regular expression: Invalid regular expression: /[/: Unterminated character class',
    ]);
    // A variable may complete the regex; it is compiled after interpolation.
    expect(step({ request: 'GET x', on: 'east', expect: { error: '/${part}/' } }).kind).toBe('request');
  });

  it('checks expectation and save values', () => {
    expect(errors(withSteps({ request: 'GET x', on: 'east', expect: { status: 42, eror: 'x' }, save: { 'a.b': 'data', c: 'data..x' } }))).toEqual([
      'steps.0.expect.eror: unknown key "eror" in a request expectation: did you mean "error"?',
      'steps.0.expect.status: must be at least 100, got 42',
      'steps.0.save.a.b: a variable name is letters, digits, "_" and "-", starting with a letter or "_" (dotted names are built in)',
      'steps.0.save.c: a dotted path into the response body, like wrap_info.token or keys.0',
    ]);
  });

  it('parses decode-token', () => {
    expect(step({ 'decode-token': '${encodedToken}', otp: '${otp}', save: 'drToken' })).toEqual({
      kind: 'decode-token',
      token: '${encodedToken}',
      otp: '${otp}',
      save: 'drToken',
    });
    expect(errors(withSteps({ 'decode-token': 'x' }))).toEqual(['steps.0.otp: required']);
  });

  it('reads waits in ms, s, m and h, and refuses a bare number (the format gives durations a unit)', () => {
    const ms = (wait: unknown) => (step({ wait }) as { ms: number }).ms;
    expect(ms('500ms')).toBe(500);
    expect(ms('10s')).toBe(10_000);
    expect(ms('31m')).toBe(31 * 60_000);
    expect(ms('2h')).toBe(7_200_000);
    expect(ms('1h30m')).toBe(5_400_000);
    expect(ms('1.1s')).toBe(1100);
    expect(ms(0)).toBe(0);
    expect(errors(withSteps({ wait: 10 }))).toEqual(['steps.0.wait: 10 has no unit: write 10ms, 10s, 10m or 10h (the format gives every duration its unit)']);
    expect(errors(withSteps({ wait: '250' }))).toEqual(['steps.0.wait: "250" has no unit: write 250ms, 250s, 250m or 250h (the format gives every duration its unit)']);
    expect(errors(withSteps({ wait: -1 }))).toEqual(['steps.0.wait: -1 is not a duration: a duration is a number and a unit (ms, s, m or h), like 500ms, 10s, 31m, 2h or 1h30m']);
    expect(errors(withSteps({ wait: '0.5ms' }))).toEqual(['steps.0.wait: "0.5ms" is not a whole number of milliseconds']);
    expect(errors(withSteps({ wait: true }))).toEqual(['steps.0.wait: expected a duration like 500ms, 10s, 31m or 2h, got true']);
  });

  it('normalises partitions and heals to groups', () => {
    expect(step({ partition: ['east', 'west'] })).toEqual({ kind: 'partition', groups: [['east'], ['west']] });
    expect(step({ partition: [['east'], ['west', 'south']], name: 'split' })).toEqual({ kind: 'partition', name: 'split', groups: [['east'], ['west', 'south']] });
    expect(step({ heal: ['east', 'west'] })).toEqual({ kind: 'heal', groups: [['east'], ['west']] });
    expect(step({ heal: 'all' })).toEqual({ kind: 'heal', groups: 'all' });
  });

  it('refuses partitions that name a cluster twice, one cluster alone, or an unknown cluster', () => {
    expect(errors(withSteps({ partition: ['east', 'east'] }))).toEqual(['steps.0.partition: cluster "east" is named twice: groups must not overlap']);
    expect(errors(withSteps({ partition: ['east'] }))[0]).toMatch(/^steps.0.partition: expected two cluster names/);
    expect(errors(withSteps({ heal: 'everything' }))[0]).toMatch(/^steps.0.heal: expected all, two cluster names/);
    expect(errors(withSteps({ partition: [['east'], ['west', 'sooth']] }))).toEqual([
      'steps.0.partition.1.1: unknown cluster "sooth": the clusters are east, west, south: did you mean "south"?',
    ]);
  });

  it('parses crash, restart, corrupt and destination-fault', () => {
    expect(step({ crash: 'east' })).toEqual({ kind: 'crash', cluster: 'east' });
    expect(step({ restart: 'east' })).toEqual({ kind: 'restart', cluster: 'east' });
    expect(step({ corrupt: { on: 'west', tree: 'replicated', page: 3, subpage: 17 } })).toEqual({
      kind: 'corrupt',
      on: 'west',
      tree: 'replicated',
      page: 3,
      subpage: 17,
    });
    expect(step({ name: 'github down', 'destination-fault': { on: 'east', type: 'codehost', name: 'gh1', fault: 'unreachable' } })).toEqual({
      kind: 'destination-fault',
      name: 'github down',
      on: 'east',
      destinationType: 'codehost',
      destination: 'gh1',
      fault: 'unreachable',
    });
  });

  it('checks corrupt and destination-fault fields', () => {
    expect(errors(withSteps({ corrupt: { on: 'wset', tree: 'shared', page: -1 } }))).toEqual([
      'steps.0.corrupt.on: unknown cluster "wset": the clusters are east, west, south: did you mean "west"?',
      'steps.0.corrupt.tree: "shared" is not one of replicated, local',
      'steps.0.corrupt.page: must be at least 0, got -1',
      'steps.0.corrupt.subpage: required',
    ]);
    expect(errors(withSteps({ 'destination-fault': { on: 'east', type: 'codehost', name: 'gh1', fault: 'unreachible' } }))).toEqual([
      'steps.0.destination-fault.fault: "unreachible" is not one of unreachable, unauthorized, none: did you mean "unreachable"?',
    ]);
  });
});

describe('one message per value', () => {
  it('says only what a value of the wrong type is, not also that it is too short', () => {
    expect(errors({ name: [], clusters: { east: {} }, steps: [] })).toEqual(['name: expected a string, got a list []']);
    expect(errors({ name: 't', clusters: { east: { tokens: { ops: { policy: { 'a/*': 'read' } } } } }, steps: [] })).toEqual([
      'clusters.east.tokens.ops.policy.a/*: expected a list, got a string "read"',
    ]);
  });

  it("gives a number beyond 2^53 its field's own range, once", () => {
    expect(errors(withSteps({ request: 'GET sys/health', on: 'east', expect: { status: 1e300 } }))).toEqual([
      'steps.0.expect.status: must be at most 599, got 1e+300',
    ]);
    // A field without a range of its own is still an integer a run can count with.
    expect(errors(withSteps({ corrupt: { on: 'west', tree: 'replicated', page: 1e300, subpage: 0 } }))).toEqual([
      'steps.0.corrupt.page: must be at most 9007199254740991, got 1e+300',
    ]);
  });

  it('names what an option of a choice wants when the value has that option\'s shape', () => {
    // A list is a pair's shape or a groups list's: the pair's count is what is wrong.
    expect(errors(withSteps({ partition: [] }))).toEqual(['steps.0.partition: needs at least 2 items']);
    expect(errors(withSteps({ slow: { link: ['east', 'west', 'south'], latency: '1s' } }))).toEqual(['steps.0.slow.link: takes at most 2 items']);
    expect(errors(withSteps({ heal: [['east'], ['east']] }))).toEqual(['steps.0.heal: cluster "east" is named twice: groups must not overlap']);
    // Missing: required, as any other key.
    expect(errors(withSteps({ slow: { link: ['east', 'west'] } }))).toEqual(['steps.0.slow.latency: required']);
    // Of no option's shape: what the choice takes.
    expect(errors(withSteps({ partition: 5 }))).toEqual(['steps.0.partition: expected two cluster names [a, b] or a list of groups [[a], [b, c]], got 5']);
  });
});

describe('parseDuration', () => {
  it('gives milliseconds', () => {
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration('1m30s')).toBe(90_000);
    expect(parseDuration(0)).toBe(0);
  });

  it('throws a RangeError that shows the way', () => {
    expect(() => parseDuration('10 seconds')).toThrow(new RangeError('"10 seconds" is not a duration: a duration is a number and a unit (ms, s, m or h), like 500ms, 10s, 31m, 2h or 1h30m'));
    expect(() => parseDuration('1d')).toThrow(RangeError);
    expect(() => parseDuration(1.5)).toThrow(/1.5 is not a duration/);
    expect(() => parseDuration(42)).toThrow(/42 has no unit: write 42ms, 42s/);
  });
});

describe('didYouMean', () => {
  it('finds a near word, a swapped pair, or a different case or separator', () => {
    expect(didYouMean('tokn', ['token', 'on'])).toBe('token');
    expect(didYouMean('lisence', ['license', 'version'])).toBe('license');
    expect(didYouMean('key-shares', ['keyShares'])).toBe('keyShares');
    expect(didYouMean('KEYSHARES', ['keyShares'])).toBe('keyShares');
  });

  it('does not guess wildly', () => {
    expect(didYouMean('on', ['otp'])).toBeUndefined();
    expect(didYouMean('colour', ['seed', 'name'])).toBeUndefined();
    expect(didYouMean('token', ['token'])).toBeUndefined();
  });
});

describe('JSON Schema', () => {
  it('is committed as scenarios/schema.json, as write-schema.ts writes it', () => {
    const committed = readFileSync(new URL('../../scenarios/schema.json', import.meta.url), 'utf8');
    // If this fails, run: npx tsx src/scenario/write-schema.ts
    expect(committed).toBe(renderScenarioJsonSchema());
  });

  it('closes every map and requires each step its action key', () => {
    const schema = scenarioJsonSchema() as {
      additionalProperties: boolean;
      required: string[];
      properties: { steps: { items: { anyOf: { required: string[]; additionalProperties: boolean }[] } } };
    };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(['name', 'clusters', 'steps']);
    const steps = schema.properties.steps.items.anyOf;
    expect(steps.map((s) => s.required[0])).toEqual(['request', 'decode-token', 'wait', 'partition', 'slow', 'heal', 'crash', 'restart', 'corrupt', 'destination-fault', 'inspect', 'reload']);
    expect(steps.every((s) => s.additionalProperties === false)).toBe(true);
  });

  it('gives the defaults of keys read in more than one form, and a pair exactly two items', () => {
    const schema = scenarioJsonSchema() as {
      properties: { expect: { default: unknown }; steps: { items: { anyOf: { properties: Record<string, { properties?: Record<string, { minItems?: number; maxItems?: number }> }> }[] } } };
    };
    expect(schema.properties.expect.default).toBe('pass');
    const slow = schema.properties.steps.items.anyOf.find((s) => 'slow' in s.properties)!;
    expect(slow.properties.slow.properties!.link).toMatchObject({ minItems: 2, maxItems: 2 });
  });
});
