// A run of several files keeps a summary of each file's run once its files are written: what the
// closing table, summary.json, JUnit and the annotations read, and nothing of the world (its log,
// states and step records), so a folder of large runs does not hold every run until the last ends.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/loader.js';
import { runScenario } from '../../src/scenario/runner.js';
import { summaryOf } from '../../src/report/results.js';
import { githubAnnotations } from '../../src/report/ci.js';

const FILE = 'two-failures.yaml';
const TEXT = `name: a run that fails twice
clusters:
  east: {}
steps:
  - request: POST secret/data/app
    on: east
    body: { data: { v: 1 } }
  - name: the wrong status is expected
    request: GET secret/data/app
    on: east
    expect: { status: 404 }
  - request: GET secret/data/missing
    on: east
    expect: { status: 200 }
`;

/** Every object reachable from a value, with the prototype each has. */
function prototypesIn(value: unknown, seen = new Set<object>()): Set<object | null> {
  const protos = new Set<object | null>();
  const walk = (v: unknown) => {
    if (v === null || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    protos.add(Object.getPrototypeOf(v));
    for (const k of Reflect.ownKeys(v)) walk((v as Record<PropertyKey, unknown>)[k]);
  };
  walk(value);
  return protos;
}

describe('summaryOf', () => {
  it('keeps what the reports read, each problem with its step line, and only plain data', async () => {
    const loaded = loadScenario(TEXT, FILE);
    if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
    const result = await runScenario(loaded.scenario, { locate: loaded.locate, keepGoing: true });
    expect(result.verdict).toBe('invalid');
    const summary = summaryOf(result);
    expect(summary).toMatchObject({ name: result.name, seed: result.seed, verdict: 'invalid', reasons: result.reasons, steps: 3, skipped: 0, findings: result.findings });
    expect(summary.problems.map((p) => [p.kind, p.text, p.line])).toEqual(result.problems.map((p) => [p.kind, p.text, p.step?.line]));
    expect(summary.problems.map((p) => p.line)).toEqual([8, 12]);
    // Plain objects and arrays only: no world, step log, timeline or step record (whose getters read the world's states).
    expect([...prototypesIn(summary)].every((p) => p === Object.prototype || p === Array.prototype)).toBe(true);
    expect(githubAnnotations([{ file: FILE, code: 1, result: summary, wallMs: 1 }]).map((l) => l.slice(0, l.indexOf('::', 2)))).toEqual([
      `::error file=${FILE},line=8,title=replsim%3A step`,
      `::error file=${FILE},line=12,title=replsim%3A step`,
    ]);
  });
});
