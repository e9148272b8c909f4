// A run takes each step's picture (scenario/picture.ts) as the step ends, and the report draws its
// steps from those pictures: writing report.html and sequence.md never folds a step's states again
// from the checkpoints (that pass made a second copy of every state the run went through).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportModel, reportStream } from '../../src/report/report-model.js';
import { loadScenario } from '../../src/scenario/loader.js';
import { runScenario, type RunResult, type StepRecord } from '../../src/scenario/runner.js';
import type { StepLog } from '../../src/scenario/step-spill.js';

const GALLERY = join(__dirname, '..', '..', 'scenarios');

async function gallery(file: string): Promise<RunResult> {
  const loaded = loadScenario(readFileSync(join(GALLERY, file), 'utf8'), file);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  return runScenario(loaded.scenario, { locate: loaded.locate });
}

/** The run's records, each of whose states throws when read (the first step's `before` excepted: the initial topology). */
function withoutStates(r: RunResult): RunResult {
  const sealed = (s: StepRecord, i: number): StepRecord =>
    Object.create(s, {
      before: { get: () => (i === 0 ? s.before : fail('before', i)), enumerable: true },
      after: { get: () => fail('after', i), enumerable: true },
    }) as StepRecord;
  const steps = r.steps;
  const log = {
    length: steps.length,
    at: (i: number) => {
      const s = steps.at(i);
      return s && sealed(s, i < 0 ? i + steps.length : i);
    },
    *[Symbol.iterator]() {
      let i = 0;
      for (const s of steps) yield sealed(s, i++);
    },
  } as unknown as StepLog<StepRecord>;
  return { ...r, steps: log };
}

function fail(which: string, i: number): never {
  throw new Error(`the report read step ${i + 1}'s ${which} state`);
}

describe("the report draws each step from the picture taken as it ended", () => {
  // Roles, lag and messages (07), stores and a failover (24), a performance secondary (11).
  for (const file of ['07-dr-unplanned-failover.yaml', '24-sync-dr-failover.yaml', '11-perf-failover-failback.yaml']) {
    it(`${file}: every step's topology and changes, without reading its states`, async () => {
      const r = await gallery(file);
      for (const s of r.steps) expect(s.picture).toBeDefined();
      const drawn = reportModel(file, r);
      expect(reportModel(file, withoutStates(r))).toEqual(drawn);
      expect(() => [...reportStream(file, withoutStates(r)).steps()]).not.toThrow();
    });
  }

  it('a record made by hand, without a picture, is pictured from its states: the same drawing', async () => {
    const r = await gallery('07-dr-unplanned-failover.yaml');
    const bare: StepRecord[] = r.steps.map((s) => ({ ...s, before: s.before, after: s.after, events: s.events, picture: undefined }));
    expect(bare.every((s) => s.picture === undefined)).toBe(true);
    const log = bare as unknown as StepLog<StepRecord>;
    expect(reportModel('x', { ...r, steps: log })).toEqual(reportModel('x', r));
  });
});
