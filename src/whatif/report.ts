// What `replsim whatif` shows of its variants: the matrix of runbook step × fault kind (the
// terminal's table, report.html's heat map), one JSON object per placement, JUnit with one testcase
// per placement, and the GitHub Actions annotation on the step where the first fatal placement starts.
import { create } from 'xmlbuilder2';
import type { Step } from '../scenario/schema.js';
import type { Outcome, VariantResult } from './engine.js';
import { FAULT_KINDS, faultLabel, placementLabel, type FaultKind } from './faults.js';

/** One cell of the matrix: the variants whose first fault is of this kind, placed at this step. */
export interface Cell {
  ok: number;
  stopped: number;
  unsafe: number;
  /** The variants' numbers, in plan order. */
  variants: number[];
}

export interface Matrix {
  kinds: FaultKind[];
  /** One row per runbook step, and a last one for "after the last step". */
  rows: { step: number; title: string; line?: number; cells: Partial<Record<FaultKind, Cell>> }[];
}

const RANK: Record<Outcome, number> = { ok: 0, stopped: 1, unsafe: 2 };

/** The worst outcome of a cell. */
export function worst(c: Cell): Outcome {
  return c.unsafe > 0 ? 'unsafe' : c.stopped > 0 ? 'stopped' : 'ok';
}

export function stepTitle(s: Step | undefined): string {
  if (!s) return 'after the last step';
  if (s.name) return s.name;
  switch (s.kind) {
    case 'request':
      return `${s.method} ${s.path} on ${s.on}`;
    case 'wait':
      return `wait ${s.ms}ms`;
    default:
      return s.kind;
  }
}

export function buildMatrix(results: readonly VariantResult[], steps: readonly Step[], lineOf: (i: number) => number | undefined): Matrix {
  const used = new Set<FaultKind>();
  const rows: Matrix['rows'] = [];
  for (let i = 0; i <= steps.length; i++) rows.push({ step: i, title: stepTitle(steps[i]), ...(lineOf(i) ? { line: lineOf(i) } : {}), cells: {} });
  for (const r of results) {
    const first = r.faults[0];
    const kind = first.fault.kind;
    used.add(kind);
    const row = rows[Math.min(first.placement.step, steps.length)];
    const cell = (row.cells[kind] ??= { ok: 0, stopped: 0, unsafe: 0, variants: [] });
    cell[r.outcome]++;
    cell.variants.push(r.n);
  }
  return { kinds: FAULT_KINDS.filter((k) => used.has(k)), rows };
}

/** The terminal table: one line per step that has placements, one column per fault kind. */
export function matrixLines(m: Matrix, paint: { red: (s: string) => string; yellow: (s: string) => string; dim: (s: string) => string }): string[] {
  const width = 14;
  const cellText = (c: Cell | undefined): string => {
    if (!c) return '-'.padEnd(width);
    const n = c.ok + c.stopped + c.unsafe;
    const text = c.unsafe > 0 ? `UNSAFE ${c.unsafe}/${n}` : c.stopped > 0 ? `stop ${c.stopped}/${n}` : `ok ${n}`;
    const padded = text.padEnd(width);
    return c.unsafe > 0 ? paint.red(padded) : c.stopped > 0 ? paint.yellow(padded) : padded;
  };
  const lines = [`${'step'.padEnd(42)}${m.kinds.map((k) => k.padEnd(width)).join('')}`];
  for (const row of m.rows) {
    if (m.kinds.every((k) => !row.cells[k])) continue;
    const label = `${String(row.step + 1).padStart(3)} ${row.title}`;
    const cut = label.length > 40 ? label.slice(0, 39) + '…' : label;
    lines.push(`${cut.padEnd(42)}${m.kinds.map((k) => cellText(row.cells[k])).join('')}`);
  }
  return lines;
}

/** A variant's faults as people read them: "partition east|west before step 8". */
export function variantWords(r: VariantResult, steps: readonly Step[]): string {
  return r.faults.map((p) => `${faultLabel(p.fault)} ${placementLabel(p.placement, steps)}`).join(', then ');
}

/** The JSON object of one placement. */
export function variantJson(r: VariantResult, steps: readonly Step[]) {
  return {
    type: 'placement',
    n: r.n,
    faults: r.faults.map((p) => ({ kind: p.fault.kind, fault: faultLabel(p.fault), step: p.placement.step + 1, ...(p.placement.offsetMs ? { offsetMs: p.placement.offsetMs } : {}), at: placementLabel(p.placement, steps) })),
    outcome: r.outcome,
    cause: r.cause,
    reason: r.reason,
    step: r.step === null ? null : r.step + 1,
    /** The variant's length as a scenario (the runbook's steps it ran, and the steps inserted). */
    length: r.actions.length,
    findings: r.findings.map((f) => ({ kind: f.kind, id: f.id })),
  };
}

const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** The GitHub Actions annotation on the runbook step where the first fatal placement starts. */
export function whatifAnnotation(file: string, line: number | undefined, message: string): string {
  const props = [...(file === '<stdin>' ? [] : [`file=${escapeProperty(file)}`]), ...(line ? [`line=${line}`] : []), `title=${escapeProperty('replsim whatif: unsafe')}`];
  return `::error ${props.join(',')}::${escapeData(message.replace(/\s+/g, ' ').trim())}`;
}

/** JUnit XML: one testcase per placement; an unsafe one is a <failure>, a stopped one too under --strict. */
export function whatifJunit(file: string, results: readonly VariantResult[], steps: readonly Step[], lineOf: (i: number) => number | undefined, strict: boolean): string {
  const failing = (r: VariantResult) => r.outcome === 'unsafe' || (strict && r.outcome === 'stopped');
  const counts = { tests: String(results.length), failures: String(results.filter(failing).length), errors: '0' };
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('testsuites', { name: 'replsim whatif', ...counts, time: '0.000' });
  const suite = root.ele('testsuite', { name: `replsim whatif ${file}`, ...counts, skipped: '0', time: '0.000' });
  for (const r of results) {
    const tc = suite.ele('testcase', { name: `${r.n}: ${variantWords(r, steps)}`, classname: file, time: '0.000' });
    if (failing(r)) {
      const line = r.step === null ? undefined : lineOf(r.step);
      tc.ele('failure', { message: r.reason.replace(/\s+/g, ' '), type: r.outcome === 'unsafe' ? (r.cause ?? 'unsafe') : 'stopped' }).txt(`${file}:${line ?? 1}: ${r.reason}`);
    }
    tc.ele('system-out').txt(`outcome ${r.outcome}${r.reason ? `: ${r.reason}` : ''}`);
  }
  return root.end({ prettyPrint: true }) + '\n';
}

/** Sorts outcomes worst first (for choosing what to show first). */
export function byOutcome(a: VariantResult, b: VariantResult): number {
  return RANK[b.outcome] - RANK[a.outcome] || a.n - b.n;
}
