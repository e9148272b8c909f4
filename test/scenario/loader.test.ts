import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatScenarioError, loadScenario, type LoadResult, type ScenarioError } from '../../src/scenario/loader.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const FORMAT_DOC = new URL('../../docs/scenario-format.md', import.meta.url);

function loaded(text: string) {
  const result = loadScenario(text, 'test.yaml');
  if (!result.ok) throw new Error(result.errors.map(formatScenarioError).join('\n'));
  return result;
}

function failed(text: string): ScenarioError[] {
  const result = loadScenario(text, 'test.yaml');
  if (result.ok) throw new Error('expected the file to be refused');
  return result.errors;
}

/** Each error as formatScenarioError prints it. */
function printed(text: string): string[] {
  return failed(text).map(formatScenarioError);
}

describe('the examples of scenario-format.md', () => {
  it('loads the top-level example unchanged', () => {
    const { scenario } = loaded(fixture('format-top-level.yaml'));
    expect(scenario.name).toBe('DR failover with an operation token');
    expect(scenario.description).toBe('The primary is lost; the DR secondary is promoted.\n');
    expect(scenario.seed).toBe(7);
    expect(scenario.clusters.west).toEqual({
      version: '1.16.0',
      license: 'enterprise',
      keyShares: 5,
      keyThreshold: 3,
      namespaces: ['team-a', 'team-a/dev'],
      mounts: {
        secret: { type: 'kv-v2', local: false },
        cache: { type: 'kv-v2', local: true },
        'team-a/apps': { type: 'kv-v2', local: false },
      },
      tokens: {
        ops: {
          namespace: '',
          policy: {
            'sys/replication/*': ['create', 'read', 'update', 'delete', 'list'],
            'sys/plugins/runtimes/catalog/*': ['create', 'read', 'update', 'delete', 'list', 'sudo'],
          },
        },
      },
    });
    expect(scenario.steps).toEqual([]);
  });

  it('loads every step example unchanged', () => {
    const { scenario } = loaded(fixture('format-steps.yaml'));
    expect(scenario.steps.map((s) => s.kind)).toEqual([
      'request',
      'request',
      'request',
      'decode-token',
      'wait',
      'partition',
      'heal',
      'crash',
      'restart',
      'corrupt',
      'destination-fault',
    ]);
    expect(scenario.steps[2]).toEqual({
      kind: 'request',
      method: 'POST',
      path: 'sys/replication/dr/primary/secondary-token',
      on: 'east',
      body: { id: 'west' },
      token: 'root',
      namespace: 'team-a/',
      expect: { status: 200, error: 'both', body: { wrap_info: { ttl: 1800 } }, data: { mode: 'primary' } },
      save: { westToken: 'wrap_info.token' },
    });
    expect(scenario.steps[4]).toEqual({ kind: 'wait', ms: 10_000 });
  });

  it('keeps the fixtures equal to the examples of the format page (docs/scenario-format.md, "Every key in one example")', () => {
    const section = readFileSync(FORMAT_DOC, 'utf8').split('## Every key in one example')[1] ?? '';
    const blocks = [...section.matchAll(/```yaml\n(.*?)```/gs)].map((m) => m[1]);
    expect(blocks).toHaveLength(2);
    expect(fixture('format-top-level.yaml')).toBe(blocks[0]);
    expect(fixture('format-steps.yaml').endsWith(blocks.slice(1).join(''))).toBe(true);
  });

  it('loads the same scenario written as JSON', () => {
    const json = JSON.stringify({ name: 'json', clusters: { east: {} }, steps: [{ wait: '1s' }, { request: 'GET sys/health', on: 'east' }] }, null, 2);
    expect(loaded(json).scenario.steps).toEqual([
      { kind: 'wait', ms: 1000 },
      { kind: 'request', method: 'GET', path: 'sys/health', on: 'east', token: 'root', save: {} },
    ]);
  });
});

const SCENARIO = `name: errors
clusters:
  east: {}
  west:
    keyShares: 3
    licence: enterprise
steps:
  - request: GET sys/health
    on: esat
    tokn: root
  - corrupt:
      on: west
      tree: replicated
  - wait: 10 sec
`;

describe('errors name the file, line, column and key', () => {
  it('reports each problem where it is, in file order', () => {
    expect(failed(SCENARIO)).toEqual([
      { file: 'test.yaml', line: 6, column: 5, key: 'clusters.west.licence', message: 'unknown key "licence" in a cluster: did you mean "license"?' },
      { file: 'test.yaml', line: 9, column: 9, key: 'steps.0.on', message: 'unknown cluster "esat": the clusters are east, west: did you mean "east"?' },
      { file: 'test.yaml', line: 10, column: 5, key: 'steps.0.tokn', message: 'unknown key "tokn" in a request step: did you mean "token"?' },
      { file: 'test.yaml', line: 11, column: 5, key: 'steps.1.corrupt.page', message: 'required' },
      { file: 'test.yaml', line: 11, column: 5, key: 'steps.1.corrupt.subpage', message: 'required' },
      {
        file: 'test.yaml',
        line: 14,
        column: 11,
        key: 'steps.2.wait',
        message: '"10 sec" is not a duration: a duration is a number and a unit (ms, s, m or h), like 500ms, 10s, 31m, 2h or 1h30m',
      },
    ]);
  });

  it('prints one line per error', () => {
    expect(formatScenarioError({ file: 's.yaml', line: 3, column: 5, key: 'steps.3.tokn', message: 'unknown key' })).toBe('s.yaml:3:5: step 4: tokn: unknown key');
    expect(formatScenarioError({ file: 's.yaml', line: 1, column: 1, key: '', message: 'empty' })).toBe('s.yaml:1:1: empty');
  });

  it('points at the key of a map or list that is wrong as a whole', () => {
    expect(printed('name: t\nclusters:\n  East:\n    keyShares: 3\nsteps: []\n')).toEqual([
      'test.yaml:3:3: clusters.East: a cluster name is lower-case letters, digits and "-", starting with a letter',
    ]);
    expect(printed('name: t\nclusters:\n  east: {}\nsteps:\n  wait: 1s\n')).toEqual(['test.yaml:4:1: steps: expected a list, got a map {"wait":"1s"}']);
  });

  it('points at the parent of a missing key', () => {
    expect(printed('name: t\nclusters:\n  east: {}\nsteps:\n  - wait: 1s\n  - request: GET x\n')).toEqual(['test.yaml:6:5: step 2: on: required']);
    expect(printed('clusters:\n  east: {}\nsteps: []\n')).toEqual(['test.yaml:1:1: name: required']);
  });

  it('reports unknown variables at their line', () => {
    const text = 'name: t\nclusters:\n  east: {}\nsteps:\n  - request: GET x\n    on: east\n    body:\n      token: "${westTokn}"\n';
    expect(printed(text)).toEqual([
      'test.yaml:8:14: step 1: body.token: unknown variable "westTokn": variables are <cluster>.root_token, <cluster>.keys.<i>, <cluster>.api_addr, <cluster>.cluster_addr, or saved by an earlier step',
    ]);
  });

  it('finds keys through anchors and aliases', () => {
    const text = 'name: t\nclusters:\n  east: &base\n    keyShares: 0\n  west: *base\nsteps: []\n';
    expect(printed(text)).toEqual(['test.yaml:4:16: clusters.east.keyShares: must be at least 1, got 0', 'test.yaml:4:16: clusters.west.keyShares: must be at least 1, got 0']);
  });

  it('says what the file should be when it is not a map', () => {
    expect(printed('- wait: 1s\n')).toEqual(['test.yaml:1:1: a scenario file is a map with name, clusters and steps at the top; got a list [{"wait":"1s"}]']);
    expect(printed('')).toEqual(['test.yaml:1:1: the file is empty: a scenario needs at least name, clusters and steps']);
    expect(printed('# only a comment\n')).toEqual(['test.yaml:1:1: the file is empty: a scenario needs at least name, clusters and steps']);
  });
});

describe('YAML syntax errors', () => {
  it('gives their line and column', () => {
    const [error] = failed('name: t\nclusters:\n  east: {\nsteps: []\n');
    expect(error.line).toBeGreaterThanOrEqual(3);
    expect(error.message).toMatch(/^YAML syntax: /);
    expect(failed('name: t\n\tclusters: {}\n')[0]).toMatchObject({ line: 2, column: 1 });
  });

  it('names a duplicate key', () => {
    expect(printed('name: t\nclusters:\n  east: {}\n  east: {}\nsteps: []\n')).toEqual([
      'test.yaml:4:3: clusters.east: this key is given twice in the same map: keep one',
    ]);
  });

  it('refuses a second document', () => {
    expect(printed('name: t\nclusters: { east: {} }\nsteps: []\n---\nname: u\n')).toEqual([
      'test.yaml:4:1: a scenario file holds one YAML document: remove the "---" that starts a second one',
    ]);
  });
});

describe('the loaded scenario', () => {
  it('can locate any key path, for the runner\'s own messages', () => {
    const { locate } = loaded(fixture('format-steps.yaml'));
    expect(locate(['steps', 2, 'expect', 'status'])).toEqual({ line: 22, column: 13 });
    expect(locate(['steps', 4])).toEqual({ line: 32, column: 3 }); // `- wait: 10s`
    expect(locate(['steps', 99])).toEqual({ line: 8, column: 1 });
  });

  it('reads YAML 1.2: on and no are strings, not booleans', () => {
    const result: LoadResult = loadScenario('name: t\nclusters:\n  no: {}\nsteps:\n  - crash: no\n', 'x.yaml');
    expect(result.ok && result.scenario.steps[0]).toEqual({ kind: 'crash', cluster: 'no' });
  });
});

describe('never throws', () => {
  it('answers every prefix of a valid file with a result', () => {
    const text = fixture('format-steps.yaml');
    for (let end = 0; end <= text.length; end += 11) {
      const result = loadScenario(text.slice(0, end), 'cut.yaml');
      if (!result.ok) {
        expect(result.errors.length).toBeGreaterThan(0);
        for (const e of result.errors) expect(formatScenarioError(e)).toMatch(/^cut\.yaml:\d+:\d+: /);
      }
    }
  });

  it('answers odd values with errors', () => {
    for (const text of ['[', '{', '"', ': :', '!!binary x', '*alias', '&a [*a]', 'name: !!js/function x', 'a: &a\n  b: *a\n', '\u0000', '42', 'null']) {
      expect(() => loadScenario(text, 'odd.yaml')).not.toThrow();
      expect(loadScenario(text, 'odd.yaml').ok).toBe(false);
    }
  });
});
