// Narration for people: what each step asked, what the service answered, which rule applied when
// a request was refused, what changed in the topology, and the invariants and hazards seen. Colour
// on a terminal, none when NO_COLOR is set or output is piped.
import type { Finding } from '../check/types.js';
import type { RunResult, StepRecord } from '../scenario/runner.js';
import { formatMs } from '../scenario/runner.js';
import { redact } from './redact.js';
import { ruleFor } from './rules.js';
import { topologyChanges } from './topology.js';

export interface Style {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
}

const code = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;
export const colour: Style = { bold: code(1, 22), dim: code(2, 22), red: code(31, 39), green: code(32, 39), yellow: code(33, 39), cyan: code(36, 39) };
const id = (s: string) => s;
export const plain: Style = { bold: id, dim: id, red: id, green: id, yellow: id, cyan: id };

/** Colour when writing to a terminal, unless NO_COLOR is set (https://no-color.org). */
export function styleFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv, forceOff = false): Style {
  return stream.isTTY && !forceOff && (env.NO_COLOR === undefined || env.NO_COLOR === '') ? colour : plain;
}

function compact(value: unknown, max = 160, key?: string): string {
  const s = JSON.stringify(redact(value, key));
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}

function findingLine(f: Finding, st: Style): string {
  const what = f.kind === 'hazard' ? st.yellow(`⚠ hazard ${f.id}`) : st.red(`✗ violation ${f.id}`);
  const cost = f.lostKeys?.length ? ` (lost: ${f.lostKeys.join(', ')})` : '';
  return `${what} at ${formatMs(f.at)}: ${f.message}${cost}`;
}

/** The lines narrating one step. */
export function narrateStep(r: StepRecord, st: Style): string[] {
  const n = String(r.index + 1).padStart(2, ' ');
  const label = r.name ? `${st.bold(r.name)} ${st.dim('— ' + r.title)}` : st.bold(r.title);
  const lines = [`${n}. ${label}`];
  const pad = '      ';
  if (r.request) {
    if (r.endpoint) lines.push(pad + st.dim(r.endpoint));
    if (r.request.body !== undefined) lines.push(pad + st.dim('body ' + compact(r.request.body)));
  }
  if (r.response) {
    const { status, body } = r.response;
    const errs = (body as { errors?: string[] } | null)?.errors;
    const statusText = status >= 400 ? st.yellow(String(status)) : st.green(String(status));
    if (Array.isArray(errs)) {
      lines.push(`${pad}→ ${statusText} ${errs.length ? errs.map((e) => e.replace(/\s+/g, ' ').trim()).join('; ') : '(no error text)'}`);
      const rule = ruleFor(errs);
      if (rule) lines.push(`${pad}${st.cyan('rule:')} ${rule}`);
    } else if (body === null) {
      lines.push(`${pad}→ ${statusText} (no content)`);
    } else {
      const b = body as Record<string, unknown>;
      const shown = 'request_id' in b ? { ...(b.data !== null ? { data: b.data } : {}), ...(b.wrap_info ? { wrap_info: b.wrap_info } : {}), ...(b.warnings ? { warnings: b.warnings } : {}) } : b;
      lines.push(`${pad}→ ${statusText} ${compact(shown)}`);
    }
  }
  for (const [k, v] of Object.entries(r.saved)) lines.push(`${pad}${st.dim(`saved ${k} = ${compact(v, 40, r.savedFrom[k])}`)}`);
  for (const change of topologyChanges(r.before, r.after)) lines.push(`${pad}${st.cyan('•')} ${change}`);
  for (const f of r.findings) lines.push(pad + findingLine(f, st));
  if (!r.ok) lines.push(`${pad}${st.red('✗ ' + (r.failure ?? 'failed'))}`);
  return lines;
}

/** The header of a run. */
export function narrateHeader(file: string, name: string, description: string | undefined, seed: number, st: Style): string[] {
  const lines = [`${st.bold('▶ ' + name)} ${st.dim(`(${file}, seed ${seed})`)}`];
  if (description) for (const l of description.trim().split('\n')) lines.push('  ' + st.dim(l));
  return lines;
}

/** The final verdict line and, on failure, why. */
export function narrateVerdict(r: RunResult, st: Style): string[] {
  const hazards = r.findings.filter((f) => f.kind === 'hazard').length;
  const violations = r.findings.filter((f) => f.kind === 'violation').length;
  const expect =
    r.expect === 'pass' ? 'pass' : 'hazard' in r.expect ? `hazard ${r.expect.hazard}` : 'hazards' in r.expect ? `hazards ${r.expect.hazards.join(', ')}` : `violation ${r.expect.violation}`;
  const head = r.verdict === 'valid' ? st.green(st.bold('VALID')) : st.red(st.bold('INVALID'));
  const lines = [
    `${head}: ${r.steps.length} step${r.steps.length === 1 ? '' : 's'}${r.skipped ? ` (${r.skipped} not run)` : ''}, ${hazards} hazard${hazards === 1 ? '' : 's'}, ${violations} violation${violations === 1 ? '' : 's'}, ${r.invariantsChecked.length} invariants checked and ${r.hazardsWatched.length} hazards watched after every step; expected ${expect}`,
  ];
  for (const reason of r.reasons) lines.push('  ' + st.red('• ' + reason));
  return lines;
}
