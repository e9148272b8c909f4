import { describe, expect, it } from 'vitest';
import {
  builtinVariableNames,
  checkVariables,
  collectReferences,
  collectVariables,
  interpolate,
  interpolateString,
} from '../../src/scenario/interpolate.js';
import { parseScenario, type Scenario } from '../../src/scenario/schema.js';

const variables = new Map<string, unknown>([
  ['east.root_token', 'hvs.root'],
  ['east.api_addr', 'https://east:8200'],
  ['westToken', 'wrapped.jwt'],
  ['keys', ['k0', 'k1']],
  ['ttl', 1800],
  ['nothing', null],
]);

describe('interpolate', () => {
  it('replaces variables inside strings, deeply', () => {
    expect(interpolate({ token: '${westToken}', addr: '${east.api_addr}/v1', list: ['a ${ttl} b'] }, variables)).toEqual({
      ok: true,
      value: { token: 'wrapped.jwt', addr: 'https://east:8200/v1', list: ['a 1800 b'] },
    });
  });

  it('gives a string that is exactly one variable its value as it is', () => {
    expect(interpolate({ keys: '${keys}', ttl: '${ttl}', nothing: '${nothing}' }, variables)).toEqual({
      ok: true,
      value: { keys: ['k0', 'k1'], ttl: 1800, nothing: null },
    });
  });

  it('writes non-strings out as JSON inside a longer string', () => {
    expect(interpolate('keys=${keys} none=${nothing}', variables)).toEqual({ ok: true, value: 'keys=["k0","k1"] none=null' });
  });

  it('leaves other values and strings without variables alone', () => {
    expect(interpolate({ n: 1, b: true, z: null, s: 'plain $ {x} ${' }, variables)).toEqual({
      ok: true,
      value: { n: 1, b: true, z: null, s: 'plain $ {x} ${' },
    });
  });

  it('replaces variables in map keys', () => {
    expect(interpolate({ '${westToken}': 1 }, variables)).toEqual({ ok: true, value: { 'wrapped.jwt': 1 } });
  });

  it('tolerates spaces inside the braces', () => {
    expect(interpolate('${ westToken }', variables)).toEqual({ ok: true, value: 'wrapped.jwt' });
  });

  it('names an unknown variable and where it was', () => {
    expect(interpolate({ body: { list: ['x', 'a ${westTokn}'] } }, variables)).toEqual({
      ok: false,
      variable: 'westTokn',
      path: 'body.list.1',
      message: 'unknown variable "westTokn"',
    });
    expect(interpolate('${}', variables)).toMatchObject({ ok: false, variable: '', message: 'empty variable "${}"' });
  });

  it('reads variables from a plain record too, but not from its prototype', () => {
    expect(interpolate('${a}', { a: 1 })).toEqual({ ok: true, value: 1 });
    expect(interpolate('${constructor}', {})).toMatchObject({ ok: false, variable: 'constructor' });
  });

  it('does not change its input', () => {
    const body = { token: '${westToken}' };
    interpolate(body, variables);
    expect(body).toEqual({ token: '${westToken}' });
  });
});

describe('interpolateString', () => {
  it('always gives a string', () => {
    expect(interpolateString('${ttl}', variables)).toEqual({ ok: true, value: '1800' });
    expect(interpolateString('sys/${westToken}', variables)).toEqual({ ok: true, value: 'sys/wrapped.jwt' });
  });
});

describe('collectVariables', () => {
  it('lists every name once, in order of appearance', () => {
    expect(collectVariables({ a: '${x} ${y}', b: ['${x}', { '${z}': '${ y }' }], c: 3 })).toEqual(['x', 'y', 'z']);
    expect(collectVariables('no variables')).toEqual([]);
  });

  it('knows where each reference is', () => {
    expect(collectReferences({ a: ['${x}'], '${k}': 1 })).toEqual([
      { name: 'x', path: ['a', 0] },
      { name: 'k', path: ['${k}'] },
    ]);
  });
});

function scenarioOf(steps: unknown[], clusters: Record<string, unknown> = { east: {}, west: { keyShares: 2, keyThreshold: 2 } }): Scenario {
  const result = parseScenario({ name: 't', clusters, steps });
  if (!result.success) throw new Error(JSON.stringify(result.error.issues));
  return result.data;
}

describe('builtinVariableNames', () => {
  it('gives each cluster its root token, key shares and addresses', () => {
    expect(builtinVariableNames(scenarioOf([]))).toEqual([
      'east.root_token',
      'east.keys.0',
      'east.keys.1',
      'east.keys.2',
      'east.keys.3',
      'east.keys.4',
      'east.api_addr',
      'east.cluster_addr',
      'west.root_token',
      'west.keys.0',
      'west.keys.1',
      'west.api_addr',
      'west.cluster_addr',
    ]);
  });
});

describe('checkVariables', () => {
  it('accepts built-ins and variables saved by earlier steps', () => {
    const scenario = scenarioOf([
      { request: 'POST sys/replication/dr/primary/secondary-token', on: 'east', token: '${east.root_token}', save: { westToken: 'wrap_info.token' } },
      { request: 'POST sys/replication/dr/secondary/enable', on: 'west', body: { token: '${westToken}', primary_api_addr: '${east.api_addr}' } },
      { request: 'PUT sys/x', on: 'west', body: { key: '${west.keys.1}' }, save: { encoded: 'data.encoded_token', otp: 'data.otp' } },
      { 'decode-token': '${encoded}', otp: '${otp}', save: 'drToken' },
      { request: 'POST sys/replication/dr/secondary/promote', on: 'west', body: { dr_operation_token: '${drToken}' } },
    ]);
    expect(checkVariables(scenario)).toEqual([]);
  });

  it('reports unknown variables with the step and the key, and a guess', () => {
    const scenario = scenarioOf([
      { request: 'GET sys/${path}', on: 'east', save: { westToken: 'wrap_info.token' } },
      { request: 'GET x', on: 'east', token: '${westTokn}', namespace: '${ns}', expect: { data: { id: '${east.cluster_adr}' } } },
      { 'decode-token': '${encoded}', otp: '${otp}' },
    ]);
    expect(checkVariables(scenario, undefined, { file: 'f.yaml' }).map((e) => `${e.key}: ${e.message}`)).toEqual([
      'steps.0.request: unknown variable "path": variables are <cluster>.root_token, <cluster>.keys.<i>, <cluster>.api_addr, <cluster>.cluster_addr, or saved by an earlier step',
      'steps.1.token: unknown variable "westTokn": did you mean "westToken"?',
      'steps.1.namespace: unknown variable "ns": variables are <cluster>.root_token, <cluster>.keys.<i>, <cluster>.api_addr, <cluster>.cluster_addr, or saved by an earlier step',
      'steps.1.expect.data.id: unknown variable "east.cluster_adr": did you mean "east.cluster_addr"?',
      'steps.2.decode-token: unknown variable "encoded": variables are <cluster>.root_token, <cluster>.keys.<i>, <cluster>.api_addr, <cluster>.cluster_addr, or saved by an earlier step',
      'steps.2.otp: unknown variable "otp": variables are <cluster>.root_token, <cluster>.keys.<i>, <cluster>.api_addr, <cluster>.cluster_addr, or saved by an earlier step',
    ]);
  });

  it('says when a variable is saved too late, or by the same step', () => {
    const scenario = scenarioOf([
      { request: 'GET x', on: 'east', body: { t: '${later}' } },
      { request: 'GET x', on: 'east', expect: { data: { x: '${mine}' } }, save: { mine: 'data.x' } },
      { request: 'GET y', on: 'east', save: { later: 'data.y' } },
    ]);
    expect(checkVariables(scenario).map((e) => `${e.key}: ${e.message}`)).toEqual([
      'steps.0.body.t: variable "later" is saved only later, by step 3: move that step before this one',
      'steps.1.expect.data.x: variable "mine" is saved by this step, after its response: use it from the next step on',
    ]);
  });

  it('knows how many key shares each cluster has', () => {
    const scenario = scenarioOf([{ request: 'PUT x', on: 'west', body: { key: '${west.keys.2}' } }]);
    expect(checkVariables(scenario)[0].message).toBe('variable "west.keys.2": cluster "west" has 2 key shares, west.keys.0 to west.keys.1');
  });

  it('reports an empty ${}', () => {
    const scenario = scenarioOf([{ request: 'GET x', on: 'east', token: '${}' }]);
    expect(checkVariables(scenario)[0]).toMatchObject({ key: 'steps.0.token', message: 'empty variable "${}": write a name between the braces' });
  });

  it('takes the caller\'s built-ins and positions', () => {
    const scenario = scenarioOf([{ request: 'GET x', on: 'east', token: '${vault.token}' }]);
    expect(checkVariables(scenario, (name) => name === 'vault.token')).toEqual([]);
    expect(checkVariables(scenario, () => false, { file: 'f.yaml', locate: (path) => ({ line: path.length, column: 7 }) })).toEqual([
      { file: 'f.yaml', line: 3, column: 7, key: 'steps.0.token', message: expect.stringContaining('unknown variable "vault.token"') },
    ]);
  });

  it('ignores steps where the format does not replace variables', () => {
    const scenario = scenarioOf([{ name: '${not a variable here}', wait: '1s' }]);
    expect(checkVariables(scenario)).toEqual([]);
  });
});
