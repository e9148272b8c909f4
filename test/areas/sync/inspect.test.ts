// The `inspect` step (#13): a scenario reads what the external store behind a destination holds,
// checks it with a partial match, and results.json records it, with every store of the world.
// A `partition` may cut the path between a cluster and a store.
import { describe, expect, it } from 'vitest';
import { resultsJson } from '../../../src/report/results.js';
import { loadScenario } from '../../../src/scenario/loader.js';
import { runScenario } from '../../../src/scenario/runner.js';

const HEAD = `
name: inspect
expect: pass
clusters: { east: {} }
steps:
  - name: a secret
    request: POST secret/data/app/web
    on: east
    body: { data: { API_KEY: k1 } }
  - name: a destination
    request: POST sys/sync/destinations/codehost/gh1
    on: east
    body: { access_token: t, repository_owner: o, repository_name: r }
`;

async function run(steps: string) {
  const loaded = loadScenario(HEAD + steps, 'inspect.yaml');
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
  return runScenario(loaded.scenario);
}

describe('the inspect step', () => {
  it('shows the store before and after a sync; results.json has the step and the stores', async () => {
    const r = await run(`
  - name: nothing there yet
    inspect: { store: codehost/gh1 }
    expect: { secrets: {}, operations: 0, writers: [] }
  - name: associate
    request: POST sys/sync/destinations/codehost/gh1/associations/set
    on: east
    body: { mount: secret, secret_name: app/web }
  - name: the job runs
    wait: 5s
  - name: the secret is there, written by east
    inspect: { store: codehost/gh1 }
    expect: { secrets: { "/^VAULT_KV_.*_APP_WEB_API_KEY$/": k1 }, operations: 1, writers: [east] }
`);
    // A regular expression is a value matcher, not a key matcher: the key must be named. So this file fails at step 6.
    expect(r.steps.at(5)!.ok).toBe(false);
    expect(r.steps.at(5)!.failure).toMatch(/^store codehost\/gh1: /);
    expect(r.steps.at(2)!.title).toBe('inspect external store codehost/gh1');
    expect(r.steps.at(2)!.events).toEqual([]);
    const json = resultsJson('inspect.yaml', r);
    expect(json.steps[2]).toMatchObject({ kind: 'inspect', inspected: { store: 'codehost/gh1', contents: { secrets: {}, operations: 0 } } });
    expect(json.steps[0]).not.toHaveProperty('inspected');
    expect(Object.values(json.stores['codehost/gh1'].secrets)).toEqual(['k1']);
  });

  it('passes with the external name written out, and a partition between the cluster and the store shows as UNKNOWN', async () => {
    const loaded = loadScenario(HEAD, 'x.yaml');
    if (!loaded.ok) throw new Error('head');
    const probe = await runScenario(loaded.scenario);
    const accessor = probe.world.state.clusters.named('east').storage.mounts['secret/'].accessor.toUpperCase();
    const r = await run(`
  - name: the path to the store is cut
    partition: [east, codehost/gh1]
  - name: associate
    request: POST sys/sync/destinations/codehost/gh1/associations/set
    on: east
    body: { mount: secret, secret_name: app/web }
  - name: the job runs and gets no answer
    wait: 3s
  - name: the cluster cannot tell
    request: GET sys/sync/associations/secret/app/web
    on: east
    expect: { data: { associated_destinations: { codehost/gh1: { sync_status: UNKNOWN, last_error: /network path from east is cut/ } } } }
  - name: nothing reached the store
    inspect: { store: codehost/gh1 }
    expect: { secrets: {}, operations: 0 }
  - name: heal
    heal: [east, codehost/gh1]
  - name: the retry
    wait: 10s
  - name: delivered
    inspect: { store: codehost/gh1 }
    expect: { secrets: { VAULT_${accessor}_APP_WEB_API_KEY: k1 }, operations: 1, writers: [east], fault: none }
`);
    expect(r.reasons).toEqual([]);
    expect(r.verdict).toBe('valid');
  });

  it('refuses a malformed store at load, naming the form; an unknown one fails at run time naming the stores', async () => {
    const bad = loadScenario(HEAD + `
  - name: wrong
    inspect: { store: gh1 }
  - name: wrong partition
    partition: [east, nowhere/gh1]
`, 'bad.yaml');
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.errors.map((e) => e.message).join('\n')).toMatch(/a store is named <type>\/<name>/);
    expect(bad.errors.map((e) => e.key)).toEqual(['steps.2.inspect.store', 'steps.3.partition.1']);
    const r = await run(`
  - name: another store
    inspect: { store: codehost/gh2 }
`);
    expect(r.steps.at(2)!.failure).toBe('no external store "codehost/gh2" (stores: codehost/gh1)');
  });
});
