// The files a run writes with --out: results.json (verdict, seed, every step's request and
// response, invariants and hazards, state hash) and history.jsonl (the world's event log).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResult, StepRecord } from '../scenario/runner.js';
import { writeHistory } from '../world/persist.js';
import { reportHtml } from './report-html.js';
import { reportModel } from './report-model.js';
import { sequenceMarkdown } from './sequence.js';

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
    // An `inspect` step: the store it read and what it held then (#13).
    ...(s.inspected ? { inspected: s.inspected } : {}),
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
    // The external stores behind sync destinations, as the run left them (#13): outside every cluster.
    stores: r.world.state.stores,
  };
}

/**
 * Writes results.json and history.jsonl into a folder (made if needed), and the pictures of the run:
 * report.html (the page trainers open) and sequence.md (a Mermaid sequence diagram).
 */
export function writeRunFiles(dir: string, file: string, r: RunResult, description?: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'results.json'), JSON.stringify(resultsJson(file, r), null, 2) + '\n');
  writeHistory(join(dir, 'history.jsonl'), r.world.history());
  const model = reportModel(file, r, description);
  writeFileSync(join(dir, 'report.html'), reportHtml(model));
  writeFileSync(join(dir, 'sequence.md'), sequenceMarkdown(model));
}
