// The steps an area declares (src/areas/core/steps.ts) reach every reader from their declaration
// alone: the scenario schema and its JSON Schema, the runner, `serve`'s control listener, `replsim
// ctl`. Each area's fault is driven here through each reader, and a step the world refuses changes
// nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { AREA_STEPS } from '../../src/areas.js';
import { ctlStep } from '../../src/cli/serve.js';
import { parseScenario, scenarioJsonSchema, STEP_ACTIONS } from '../../src/scenario/schema.js';
import { serve, type ServeHandle } from '../../src/serve/serve.js';
import { CONTROL_ACTIONS } from '../../src/serve/session.js';
import { WorldUsageError } from '../../src/world.js';
import { createDestination, syncWorld } from './sync/helpers.js';

let handle: ServeHandle | undefined;
afterEach(async () => {
  await handle?.stop();
  handle = undefined;
});

/** Each area's faults and inspections, as a scenario writes them, with the event each records. */
const WRITTEN = {
  corrupt: { step: { corrupt: { on: 'east', tree: 'replicated', page: 3, subpage: 17 } }, event: 'merkle-corrupted', ctl: ['east', 'replicated', '3', '17'] },
  reload: { step: { reload: { on: 'east', enableUnauthenticatedAccess: ['rekey'] } }, event: 'server-config-reloaded' },
  'destination-fault': { step: { 'destination-fault': { on: 'east', type: 'codehost', name: 'gh1', fault: 'unreachable' } }, event: 'sync-destination-faulted', ctl: ['east', 'codehost', 'gh1', 'unreachable'] },
  inspect: { step: { inspect: { store: 'codehost/gh1' } }, event: null },
} as const;

describe('steps the areas declare', () => {
  it('are the ones this test writes, each a step action of the schema and of its JSON Schema', () => {
    expect([...AREA_STEPS.keys()].sort()).toEqual(Object.keys(WRITTEN).sort());
    const schema = JSON.stringify(scenarioJsonSchema());
    for (const action of AREA_STEPS.keys()) {
      expect(STEP_ACTIONS).toContain(action);
      expect(schema).toContain(`"required":["${action}"]`);
    }
  });

  it('parse, run and record their event; a fault the world cannot apply changes nothing', () => {
    const w = syncWorld({ east: { version: '2.0.0' } });
    // A sync destination for the fault and the inspection to name.
    createDestination(w, 'codehost', 'gh1');
    for (const [action, { step, event }] of Object.entries(WRITTEN)) {
      const parsed = parseScenario({ name: 't', clusters: { east: {} }, steps: [step] });
      expect(parsed.success, action).toBe(true);
      const s = parsed.success ? parsed.data.steps[0] : null;
      expect(s?.kind).toBe(action);
      const before = w.log.length;
      const read = w.areaStep(s as never);
      if (event) expect(w.log.slice(before).map((e) => e.type)).toEqual([event]);
      else expect(read).toMatchObject({ store: 'codehost/gh1' });
    }
    const before = { events: w.log.length, hash: w.stateHash() };
    expect(() => w.areaStep({ kind: 'corrupt', on: 'nowhere', tree: 'local', page: 0, subpage: 0 })).toThrow(WorldUsageError);
    expect(() => w.areaStep({ kind: 'corrupt', on: 'east', tree: 'local', page: 0, subpage: 256 })).toThrow(/subpage one from 0 to 255/);
    expect(() => w.areaStep({ kind: 'destination-fault', on: 'east', destinationType: 'codehost', destination: 'gh2', fault: 'none' })).toThrow(/no sync destination codehost\/gh2/);
    expect(() => w.areaStep({ kind: 'reload', on: 'east', enableUnauthenticatedAccess: ['unseal'] })).toThrow(/"unseal" is not an endpoint family/);
    expect({ events: w.log.length, hash: w.stateHash() }).toEqual(before);
  });

  it('every fault is a control action of serve, every inspection is not, and `replsim ctl` writes the faults that have a command line', () => {
    for (const declared of AREA_STEPS.values()) {
      expect(CONTROL_ACTIONS.includes(declared.action), declared.action).toBe(!declared.inspects);
      const written = WRITTEN[declared.action];
      if (!declared.ctl || !('ctl' in written)) continue;
      expect(ctlStep(declared.action, [...written.ctl])).toEqual(written.step);
      expect(ctlStep(declared.action, ['east'])).toBe(`usage: replsim ctl ${declared.ctl.usage}`);
    }
    expect(ctlStep('corupt', [])).toMatch(/unknown ctl command "corupt": use .*corrupt, destination-fault, scenario/);
  });

  it("serve's control listener applies an area's fault from its declaration and refuses a bad one, naming the key", async () => {
    handle = await serve({ clusters: ['east', 'west'], clock: 'manual' });
    const h = handle;
    const post = (b: unknown) =>
      fetch(`${h.control.url}/v1/step`, { method: 'POST', body: JSON.stringify(b), headers: { Authorization: `Bearer ${h.control.secret}` } }).then(async (r) => [r.status, r.ok ? (await r.json()).step : (await r.json()).errors?.[0]]);
    expect(await post(WRITTEN.corrupt.step)).toEqual([200, "corrupt east's replicated merkle tree at page 3, subpage 17"]);
    expect(h.world.log.at(-1)).toMatchObject({ type: 'merkle-corrupted', cluster: 'east', page: 3, subpage: 17 });
    const before = h.world.log.length;
    expect(await post({ corrupt: { on: 'east', tree: 'sideways', page: 3, subpage: 17 } })).toEqual([400, expect.stringContaining('tree')]);
    expect(await post({ inspect: { store: 'codehost/gh1' } })).toEqual([400, expect.stringContaining('a control command needs one of')]);
    expect(h.world.log.length).toBe(before);
  });
});
