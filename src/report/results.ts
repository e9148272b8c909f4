// The files a run writes with --out: results.json (verdict, seed, every step's request and
// response with its file line and times, invariants and hazards, state hash) and history.jsonl (the
// world's event log); a run of several files also writes summary.json beside their sub-folders.
// `format` numbers the shape of these files: a reader checks it before trusting the fields.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResult, StepRecord } from '../scenario/runner.js';
import { writeHistory } from '../kernel/persist.js';
import { reportHtml } from './report-html.js';
import { reportModel } from './report-model.js';
import { sequenceMarkdown } from './sequence.js';

/** The shape of results.json and summary.json; raised when a field changes meaning or goes away. */
export const RESULTS_FORMAT = 1;

/** One step as results.json and `--json` show it (no world states); `index` counts from 1. */
export function stepJson(s: StepRecord) {
  return {
    index: s.index + 1,
    line: s.line ?? null,
    name: s.name ?? null,
    kind: s.kind,
    title: s.title,
    request: s.request ?? null,
    response: s.response ?? null,
    endpoint: s.endpoint ?? null,
    // A refused step's registered refusal: `code`, the spec `rule` it applies and that rule's `words`.
    rule: s.refusal ?? null,
    // An `inspect` step: the store it read and what it held then (#13).
    ...(s.inspected ? { inspected: s.inspected } : {}),
    ok: s.ok,
    failure: s.failure ?? null,
    findings: s.findings,
    virtual: { atMs: s.virtualAt, durationMs: s.virtualMs },
    wallMs: s.wallMs === undefined ? null : roundMs(s.wallMs),
  };
}

/** Wall times to the microsecond: more digits only say how noisy the clock is. */
export function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

export function resultsJson(file: string, r: RunResult) {
  return {
    format: RESULTS_FORMAT,
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
    virtualMs: r.virtualMs,
    wallMs: r.wallMs === undefined ? null : roundMs(r.wallMs),
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

/** What a multi-file run knows about one file, for summary.json, JUnit and the summary table. */
export interface FileOutcome {
  file: string;
  /** 0 valid, 1 invalid, 2 not run (unreadable, invalid file, or the run stopped with an error). */
  code: 0 | 1 | 2;
  result?: RunResult;
  /** Why the file was not run, one line per problem, each `file:line:column: …` when known. */
  errors?: string[];
  /** The sub-folder of --out its results went to (relative to --out). */
  outDir?: string;
  /** Wall time spent on the file (ms), for display and JUnit. */
  wallMs: number;
  /** The line of the file's `expect` key (or line 1), where an expectation that did not come true points. */
  expectLine?: number;
}

export function summaryJson(outcomes: FileOutcome[]) {
  const count = (c: number) => outcomes.filter((o) => o.code === c).length;
  return {
    format: RESULTS_FORMAT,
    exit: Math.max(0, ...outcomes.map((o) => o.code)),
    counts: { files: outcomes.length, valid: count(0), invalid: count(1), notRun: count(2) },
    files: outcomes.map((o) => ({
      file: o.file,
      exit: o.code,
      verdict: o.code === 0 ? 'valid' : o.code === 1 ? 'invalid' : 'not-run',
      name: o.result?.name ?? null,
      seed: o.result?.seed ?? null,
      steps: o.result?.steps.length ?? null,
      hazards: o.result ? o.result.findings.filter((f) => f.kind === 'hazard').map((f) => f.id) : [],
      violations: o.result ? o.result.findings.filter((f) => f.kind === 'violation').map((f) => f.id) : [],
      reasons: o.result?.reasons ?? o.errors ?? [],
      results: o.outDir === undefined ? null : join(o.outDir, 'results.json'),
      wallMs: roundMs(o.wallMs),
    })),
  };
}

/** Writes DIR/summary.json. */
export function writeSummary(dir: string, outcomes: FileOutcome[]): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'summary.json');
  writeFileSync(path, JSON.stringify(summaryJson(outcomes), null, 2) + '\n');
  return path;
}
