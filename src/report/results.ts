// The files a run writes with --out: results.json (verdict, seed, every step's request and
// response, invariants and hazards, state hash) and history.jsonl (the world's event log).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResult, StepRecord } from '../scenario/runner.js';
import { writeHistory } from '../world/persist.js';

/** One step as results.json and `--json` show it (no world states). */
export function stepJson(s: StepRecord) {
  return {
    index: s.index + 1,
    name: s.name ?? null,
    kind: s.kind,
    title: s.title,
    request: s.request ?? null,
    response: s.response ?? null,
    endpoint: s.endpoint ?? null,
    ok: s.ok,
    failure: s.failure ?? null,
    findings: s.findings,
  };
}

export function resultsJson(file: string, r: RunResult) {
  return {
    file,
    name: r.name,
    valid: r.verdict === 'valid',
    verdict: r.verdict,
    reasons: r.reasons,
    seed: r.seed,
    expect: r.expect,
    steps: r.steps.map(stepJson),
    skipped: r.skipped,
    invariants: { checked: r.invariantsChecked, violations: r.findings.filter((f) => f.kind === 'violation') },
    hazards: { watched: r.hazardsWatched, arisen: r.findings.filter((f) => f.kind === 'hazard') },
    stateHash: r.stateHash,
  };
}

/** Writes results.json and history.jsonl into a folder (made if needed). */
export function writeRunFiles(dir: string, file: string, r: RunResult): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'results.json'), JSON.stringify(resultsJson(file, r), null, 2) + '\n');
  writeHistory(join(dir, 'history.jsonl'), r.world.history());
}
