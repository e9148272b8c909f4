// The files a run writes with --out: results.json (verdict, seed, every step's request and
// response with its file line and times, invariants and hazards, state hash) and history.jsonl (the
// world's event log); a run of several files also writes summary.json beside their sub-folders.
// `format` numbers the shape of these files: a reader checks it before trusting the fields.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Problem, RunResult, StepRecord } from '../scenario/runner.js';
import { HistoryAppender, type RunId } from '../kernel/persist.js';
import { whileWriting, writeFileAtomic } from '../kernel/files.js';
import { mixedRuns, RUN_FILES, runMark } from './run-id.js';
import { reportHtmlChunks } from './report-html.js';
import { reportStream } from './report-model.js';
import { sequenceMarkdownChunks } from './sequence.js';

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
    // An `inspect` step: the store it read and what it held then.
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

export function resultsJson(file: string, r: RunResult, run?: RunId) {
  return resultsFields(file, r, r.steps.map(stepJson), run);
}

/** results.json's fields, with `steps` as given. */
function resultsFields<S>(file: string, r: RunResult, steps: S, run?: RunId) {
  return {
    format: RESULTS_FORMAT,
    // The run's id, which every file of the run carries (src/report/run-id.ts): kept near the top,
    // where it is read without reading the whole file.
    ...(run ? { run } : {}),
    file,
    name: r.name,
    valid: r.verdict === 'valid',
    verdict: r.verdict,
    reasons: r.reasons,
    seed: r.seed,
    expect: r.expect,
    steps,
    skipped: r.skipped,
    invariants: { checked: r.invariantsChecked, violations: r.findings.filter((f) => f.kind === 'violation') },
    hazards: { watched: r.hazardsWatched, arisen: r.findings.filter((f) => f.kind === 'hazard') },
    virtualMs: r.virtualMs,
    wallMs: r.wallMs === undefined ? null : roundMs(r.wallMs),
    stateHash: r.stateHash,
    // The external stores behind sync destinations, as the run left them: outside every cluster.
    stores: r.world.state.stores,
  };
}

/** A stand-in for the steps in results.json's text: a key followed by it cannot occur inside a string. */
const STEPS_MARK = '\u0000steps';

/**
 * results.json's text (as JSON.stringify(resultsJson(…), null, 2) and a line end) in pieces, each
 * step's made as it is read: a run of 100,000 steps never holds them all, nor the whole text.
 */
export function* resultsJsonChunks(file: string, r: RunResult, run?: RunId): Generator<string> {
  const text = JSON.stringify(resultsFields(file, r, STEPS_MARK, run), null, 2) + '\n';
  const key = `"steps": ${JSON.stringify(STEPS_MARK)}`;
  const at = text.indexOf(key);
  if (r.steps.length === 0) {
    yield text.slice(0, at) + '"steps": []' + text.slice(at + key.length);
    return;
  }
  yield text.slice(0, at) + '"steps": [\n';
  let first = true;
  for (const s of r.steps) {
    // A step is an element of a list two levels in: its lines indented by four spaces more.
    yield (first ? '    ' : ',\n    ') + JSON.stringify(stepJson(s), null, 2).replace(/\n/g, '\n    ');
    first = false;
  }
  yield '\n  ]' + text.slice(at + key.length);
}

/**
 * Writes results.json and history.jsonl into a folder (made if needed), and the pictures of the run:
 * report.html (the page trainers open) and sequence.md (a Mermaid sequence diagram).
 */
export function writeRunFiles(dir: string, file: string, r: RunResult, description?: string): void {
  RunFiles.open(dir).finish(file, r, description);
}

/**
 * The files of one run in an --out folder, written as the run goes. Opening removes the previous
 * run's results and pictures and starts history.jsonl afresh, so the folder never mixes two runs;
 * `follow` appends each step's events to the history as they are committed; `finish` closes the
 * history and writes results.json, report.html and sequence.md, each under a temporary name then
 * renamed, each carrying the run's id. A run stopped before `finish` leaves a history of the events
 * it committed, without its closing line, and nothing else.
 */
export class RunFiles {
  private constructor(
    readonly dir: string,
    readonly history: HistoryAppender,
    /** What the folder held before, when its files were of different runs (they were replaced). */
    readonly replaced: string[],
  ) {}

  static open(dir: string, sync: { now?: () => number; everyMs?: number } = {}): RunFiles {
    mkdirSync(dir, { recursive: true });
    let replaced: string[] = [];
    try {
      replaced = mixedRuns(dir);
    } catch {
      // A folder whose files cannot even be read is replaced all the same.
    }
    for (const name of RUN_FILES) rmSync(join(dir, name), { force: true });
    return new RunFiles(dir, new HistoryAppender(join(dir, 'history.jsonl'), sync), replaced);
  }

  /** Appends the events of the world's log not written yet. */
  follow(log: readonly unknown[]): void {
    this.history.follow(log);
  }

  /** The history as it stands, without its closing line (a run stopped before its end). */
  release(): void {
    this.history.release();
  }

  /** Closes the history and writes the run's other files; returns the paths written. */
  finish(file: string, r: RunResult, description?: string): string[] {
    return whileWriting(() => {
      const id = this.history.close(r.world.log, r.world.history().end!);
      // Each file is written in pieces as the run's records are read back one at a time (step-spill.ts).
      const report = reportStream(file, r, description);
      const mark = runMark(id);
      writeFileAtomic(join(this.dir, 'results.json'), resultsJsonChunks(file, r, id));
      writeFileAtomic(join(this.dir, 'report.html'), concat(reportHtmlChunks(report), [mark]));
      writeFileAtomic(join(this.dir, 'sequence.md'), concat(sequenceMarkdownChunks(report), ['\n', mark]));
      return ['results.json', 'history.jsonl', 'report.html', 'sequence.md'].map((n) => join(this.dir, n));
    });
  }
}

function* concat(...parts: Iterable<string>[]): Generator<string> {
  for (const p of parts) yield* p;
}

/**
 * What a run of several files keeps of one file's run once that file's own files are written: what
 * summary.json, JUnit, the annotations and the closing table read. Not the world, its log or the
 * step records (a problem keeps its step's line, not the step): a folder of large runs would
 * otherwise hold every file's world until the last file ends.
 */
export interface RunSummary {
  name: string;
  seed: number;
  verdict: RunResult['verdict'];
  reasons: string[];
  problems: { kind: Problem['kind']; text: string; line?: number }[];
  /** Steps run. */
  steps: number;
  skipped: number;
  findings: RunResult['findings'];
}

/** The summary of a run, holding nothing of its world. */
export function summaryOf(r: RunResult): RunSummary {
  return {
    name: r.name,
    seed: r.seed,
    verdict: r.verdict,
    reasons: r.reasons,
    problems: r.problems.map((p) => ({ kind: p.kind, text: p.text, ...(p.step?.line ? { line: p.step.line } : {}) })),
    steps: r.steps.length,
    skipped: r.skipped,
    findings: r.findings,
  };
}

/** What a multi-file run knows about one file, for summary.json, JUnit and the summary table. */
export interface FileOutcome {
  file: string;
  /** 0 valid, 1 invalid, 2 not run (unreadable, invalid file, or the run stopped with an error). */
  code: 0 | 1 | 2;
  result?: RunSummary;
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
      steps: o.result?.steps ?? null,
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
  writeFileAtomic(path, JSON.stringify(summaryJson(outcomes), null, 2) + '\n');
  return path;
}
