// Narration for people: what each step asked, what the service answered, which rule applied when
// a request was refused, what changed in the topology, and the invariants and hazards seen. Colour
// on a terminal, none when NO_COLOR is set or output is piped, forced by FORCE_COLOR or --color.
import { styleText } from 'node:util';
import type { Finding } from '../areas/monitoring/types.js';
import type { RunResult, StepRecord } from '../scenario/runner.js';
import { formatMs } from '../kernel/clock.js';
import { redact } from './redact.js';
import { topologyChanges } from '../scenario/picture.js';
import { AREA_STEPS } from '../areas.js';
import type { AreaStepAction } from '../areas/core/steps.js';

export interface Style {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
}

// The escapes come from node's util.styleText. Whether to colour at all is decided once here, from
// the flag, the environment and the stream, the way node itself decides (FORCE_COLOR, NO_COLOR,
// the terminal's colour depth), so tests can pass their own environment; styleText is then asked for
// the escapes without looking at process.stdout again (validateStream: false).
type Format = Parameters<typeof styleText>[0];
const paint = (format: Format) => (s: string) => styleText(format, s, { validateStream: false });
export const colour: Style = { bold: paint('bold'), dim: paint('dim'), red: paint('red'), green: paint('green'), yellow: paint('yellow'), cyan: paint('cyan') };
const id = (s: string) => s;
export const plain: Style = { bold: id, dim: id, red: id, green: id, yellow: id, cyan: id };

/** What a stream may tell about colours: a terminal's WriteStream answers hasColors. */
export interface ColourStream {
  isTTY?: boolean;
  hasColors?: (count?: number, env?: NodeJS.ProcessEnv) => boolean;
}

/**
 * Whether to colour: `--color` / `--no-color` (flag true/false) win; then FORCE_COLOR (any value
 * but "0" and "false" turns colour on, even in a CI log that is not a terminal); then NO_COLOR
 * (https://no-color.org, any non-empty value turns it off); else a terminal that has colours.
 */
export function wantsColour(stream: ColourStream, env: NodeJS.ProcessEnv, flag?: boolean): boolean {
  if (flag !== undefined) return flag;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (stream.isTTY !== true) return false;
  return typeof stream.hasColors === 'function' ? stream.hasColors(16, env) : env.TERM !== 'dumb';
}

/** The style for a stream: see wantsColour. */
export function styleFor(stream: ColourStream, env: NodeJS.ProcessEnv, flag?: boolean): Style {
  return wantsColour(stream, env, flag) ? colour : plain;
}

/** Service error texts can span lines ("1 error occurred:\n\t* ..."): one line each for the layout. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function compact(value: unknown, max = 160, key?: string): string {
  const s = JSON.stringify(redact(value, key));
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}

/**
 * The part of `value` that an expectation names: its keys, level by level, array elements by
 * position. Whatever the expectation names is kept whole; what it does not name is left out.
 */
export function projectOnto(value: unknown, expected: unknown): unknown {
  if (Array.isArray(expected) && Array.isArray(value)) return value.slice(0, expected.length).map((v, i) => projectOnto(v, expected[i]));
  if (expected && typeof expected === 'object' && !Array.isArray(expected) && value && typeof value === 'object' && !Array.isArray(value)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(expected)) if (Object.hasOwn(value, k)) out[k] = projectOnto((value as Record<string, unknown>)[k], (expected as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

/**
 * A response body on one line, cut at `max` characters, except that the fields the step's `expect`
 * names are never cut away: when the whole body does not fit, the line shows exactly those fields
 * and says that others were left out. `verbose` shows the whole body.
 */
function shownBody(value: unknown, expected: Record<string, unknown> | undefined, verbose: boolean, max = 160): string {
  const whole = JSON.stringify(redact(value));
  if (verbose || whole.length <= max) return whole;
  if (expected === undefined) return compact(value, max);
  return `${JSON.stringify(redact(projectOnto(value, expected)))} (the fields expect names; more left out, --verbose shows all)`;
}

export interface NarrationOptions {
  /** Whole request and response bodies, never cut. */
  verbose?: boolean;
}

function findingLine(f: Finding, st: Style): string {
  const what = f.kind === 'hazard' ? st.yellow(`⚠ hazard ${f.id}`) : st.red(`✗ violation ${f.id}`);
  const cost = f.lostKeys?.length ? ` (lost: ${f.lostKeys.join(', ')})` : '';
  return `${what} at ${formatMs(f.at)}: ${oneLine(f.message)}${cost}`;
}

/** The lines narrating one step. */
export function narrateStep(r: StepRecord, st: Style, options: NarrationOptions = {}): string[] {
  const verbose = options.verbose === true;
  const n = String(r.index + 1).padStart(2, ' ');
  const label = r.name ? `${st.bold(r.name)} ${st.dim('— ' + r.title)}` : st.bold(r.title);
  const lines = [`${n}. ${label}`];
  const pad = '      ';
  if (r.request) {
    if (r.endpoint) lines.push(pad + st.dim(r.endpoint));
    if (r.request.body !== undefined) lines.push(pad + st.dim('body ' + (verbose ? JSON.stringify(redact(r.request.body)) : compact(r.request.body))));
  }
  if (r.response) {
    const { status, body } = r.response;
    const errs = (body as { errors?: string[] } | null)?.errors;
    const statusText = status >= 400 ? st.yellow(String(status)) : st.green(String(status));
    if (Array.isArray(errs)) {
      lines.push(`${pad}→ ${statusText} ${errs.length ? errs.map((e) => oneLine(String(e))).join('; ') : '(no error text)'}`);
      if (r.refusal) lines.push(`${pad}${st.cyan('rule:')} ${r.refusal.words}`);
    } else if (body === null) {
      lines.push(`${pad}→ ${statusText} (no content)`);
    } else {
      const b = body as Record<string, unknown>;
      const shown = 'request_id' in b && !verbose ? { ...(b.data !== null ? { data: b.data } : {}), ...(b.wrap_info ? { wrap_info: b.wrap_info } : {}), ...(b.auth ? { auth: b.auth } : {}), ...(b.warnings ? { warnings: b.warnings } : {}) } : b;
      lines.push(`${pad}→ ${statusText} ${shownBody(shown, r.expected, verbose)}`);
    }
  }
  // An inspection: what it read, in its area's words.
  const read = r.inspected && AREA_STEPS.get(r.kind as AreaStepAction)?.narrate?.(r.inspected.contents, (value) => compact(value));
  if (read) lines.push(`${pad}→ ${read}`);
  for (const [k, v] of Object.entries(r.saved)) lines.push(`${pad}${st.dim(`saved ${k} = ${compact(v, 40, r.savedFrom[k])}`)}`);
  for (const change of r.picture?.changes ?? topologyChanges(r.before, r.after)) lines.push(`${pad}${st.cyan('•')} ${change}`);
  for (const f of r.findings) lines.push(pad + findingLine(f, st));
  if (!r.ok) lines.push(`${pad}${st.red('✗ ' + oneLine(r.failure ?? 'failed'))}`);
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
  for (const reason of r.reasons) lines.push('  ' + st.red('• ' + oneLine(reason)));
  return lines;
}
