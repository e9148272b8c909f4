import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/kernel/canonical.js';
import { World, WorldUsageError } from '../../../src/world.js';
import { loadScenario } from '../../../src/scenario/loader.js';
import { runScenario } from '../../../src/scenario/runner.js';
import { createDestination, expectOk, removeAssociation, setAssociation, statusOf, storeOf, syncWorld, writeSecret } from './helpers.js';

/** A run with every kind of sync event: configure, set, jobs that fail and succeed, a re-sync, remove, purge. */
function busyWorld(seed: number): World {
  const w = syncWorld({ seed });
  writeSecret(w, 'app/web', { API_KEY: 'k1' });
  writeSecret(w, 'db', { pw: 'x' });
  createDestination(w, 'codehost', 'gh1');
  createDestination(w, 'cloudone-sm', 's1');
  expectOk(setAssociation(w, 'codehost', 'gh1', 'secret', 'app/web'));
  expectOk(setAssociation(w, 'cloudone-sm', 's1', 'secret', 'db'));
  w.areaStep({ kind: 'destination-fault', on: 'east', destinationType: 'codehost', destination: 'gh1', fault: 'unreachable' });
  w.advance(8_000);
  w.areaStep({ kind: 'destination-fault', on: 'east', destinationType: 'codehost', destination: 'gh1', fault: 'none' });
  writeSecret(w, 'db', { pw: 'y' });
  w.advance(30_000);
  expectOk(removeAssociation(w, 'codehost', 'gh1', 'secret', 'app/web'));
  w.request('east', { method: 'DELETE', path: 'sys/sync/destinations/cloudone-sm/s1?purge=true', token: w.tokenNamed('east', 'root') });
  w.advance(10_000);
  return w;
}

describe('sync: replay and determinism', () => {
  it('replaying the log rebuilds the same world, external stores and statuses included', () => {
    const w = busyWorld(3);
    const types = new Set<string>(w.log.map((e) => e.type));
    for (const t of ['sync-destination-configured', 'sync-association-set', 'sync-association-removed', 'sync-attempted', 'sync-destination-faulted', 'sync-destination-purge-started'])
      expect(types.has(t), t).toBe(true);
    const replayed = World.replay(JSON.parse(JSON.stringify(w.log)));
    expect(replayed.stateHash()).toBe(w.stateHash());
    expect(replayed.state.clusters.named('east').sync).toEqual(w.state.clusters.named('east').sync);
    expect(storeOf(replayed, 'codehost', 'gh1')).toEqual({});
    expect(statusOf(replayed, 'codehost', 'gh1', 'secret', 'app/web')).toBe('UNSYNCED');
  });

  it('the same steps and seed give a byte-identical log', () => {
    expect(canonicalJson(busyWorld(5).log)).toBe(canonicalJson(busyWorld(5).log));
  });

  it('the fault is an event in the log, so replay reproduces the failure it caused', () => {
    const w = syncWorld();
    writeSecret(w, 'a', { k: 'v' });
    createDestination(w, 'codehost', 'gh1');
    w.areaStep({ kind: 'destination-fault', on: 'east', destinationType: 'codehost', destination: 'gh1', fault: 'unauthorized' });
    expect(w.log.at(-1)).toMatchObject({ type: 'sync-destination-faulted', cluster: 'east', destination: 'codehost/gh1', fault: 'unauthorized' });
    expectOk(setAssociation(w, 'codehost', 'gh1', 'secret', 'a'));
    w.advance(3_000);
    const replayed = World.replay(w.log);
    expect(statusOf(replayed, 'codehost', 'gh1', 'secret', 'a')).toBe('CLIENT_SIDE_ERROR');
  });
});

describe('the destination-fault fault', () => {
  it('naming an unknown destination is a usage error that names what exists, and changes nothing', () => {
    const w = syncWorld();
    expect(() => w.areaStep({ kind: 'destination-fault', on: 'east', destinationType: 'codehost', destination: 'gh1', fault: 'unreachable' })).toThrow(WorldUsageError);
    expect(() => w.areaStep({ kind: 'destination-fault', on: 'east', destinationType: 'codehost', destination: 'gh1', fault: 'unreachable' })).toThrow(/has no sync destination codehost\/gh1 \(it has none/);
    createDestination(w, 'cloudone-sm', 's1');
    const hash = w.stateHash();
    const logged = w.log.length;
    expect(() => w.areaStep({ kind: 'destination-fault', on: 'east', destinationType: 'codehost', destination: 'gh1', fault: 'none' })).toThrow(/its destinations: cloudone-sm\/s1/);
    expect(() => w.areaStep({ kind: 'destination-fault', on: 'nowhere', destinationType: 'codehost', destination: 'gh1', fault: 'none' })).toThrow(/unknown cluster "nowhere"/);
    expect(() => w.areaStep({ kind: 'destination-fault', on: 'east', destinationType: 'cloudone-sm', destination: 's1', fault: 'flaky' as 'none' })).toThrow(/not one of unreachable, unauthorized, none/);
    expect(w.log.length).toBe(logged);
    expect(w.stateHash()).toBe(hash);
  });

  it('a destination in a namespace is named "<namespace>/<name>"', () => {
    const w = syncWorld();
    w.request('east', { method: 'POST', path: 'sys/sync/destinations/codehost/gh1', namespace: 'team-a', body: { access_token: 't', repository_owner: 'o', repository_name: 'r' }, token: w.tokenNamed('east', 'teamA') });
    w.areaStep({ kind: 'destination-fault', on: 'east', destinationType: 'codehost', destination: 'team-a/gh1', fault: 'unreachable' });
    expect(w.state.stores['team-a/codehost/gh1'].fault).toBe('unreachable');
  });

  it('a scenario with destination-fault steps runs: it is no longer refused before running', async () => {
    const text = `
name: fault step
expect: pass
clusters: { east: {} }
steps:
  - name: a secret
    request: POST secret/data/a
    on: east
    body: { data: { k: v } }
  - name: a destination
    request: POST sys/sync/destinations/codehost/gh1
    on: east
    body: { access_token: t, repository_owner: o, repository_name: r }
  - name: it goes down
    destination-fault: { on: east, type: codehost, name: gh1, fault: unreachable }
  - name: associate
    request: POST sys/sync/destinations/codehost/gh1/associations/set
    on: east
    body: { mount: secret, secret_name: a }
  - name: time passes
    wait: 3s
  - name: failed
    request: GET sys/sync/associations/secret/a
    on: east
    expect: { data: { associated_destinations: { codehost/gh1: { sync_status: EXTERNAL_SERVICE_ERROR } } } }
  - name: a fault on a destination that does not exist
    destination-fault: { on: east, type: codehost, name: nope, fault: none }
`;
    const loaded = loadScenario(text, 'fault.yaml');
    if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
    const result = await runScenario(loaded.scenario);
    expect(result.steps.map((s) => s.ok)).toEqual([true, true, true, true, true, true, false]);
    expect(result.steps.at(2)!.title).toBe('make sync destination codehost/gh1 on east unreachable');
    expect(result.steps.at(2)!.events.map((e) => e.type)).toEqual(['sync-destination-faulted']);
    expect(result.steps.at(6)!.failure).toMatch(/has no sync destination codehost\/nope/);
    expect(result.verdict).toBe('invalid');
  });
});
