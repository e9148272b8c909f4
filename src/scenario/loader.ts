// Reads a scenario file: YAML (or JSON) text to a validated Scenario, or to errors that each name the
// file, line, column and key, as `replsim` prints them before exiting with code 2. Nothing a user writes
// makes this throw.
import { Composer, isAlias, isMap, isScalar, isSeq, LineCounter, Parser, parseDocument, visit, type Document, type YAMLError } from 'yaml';
import type { z } from 'zod/v4';
import { builtinVariableNames, checkVariables, savedBy } from './interpolate.js';
import type { Locate, ScenarioError, ScenarioPath } from './errors.js';
export type { Locate, ScenarioError, ScenarioPath } from './errors.js';
import { parseScenario, type Scenario, type ScenarioOfSteps, type Step, type StepSequence } from './schema.js';
import { checkRecordingEnd, checkRecordingSteps } from './recording-mark.js';
import { depthProblem, documentProblem, SCENARIO_BOUNDS, sizeProblem, textProblem } from './bounds.js';
import { cutSteps, STEPS_PER_CHUNK, type CutText } from './pieces.js';
import { DefaultDeserializer, DefaultSerializer } from 'node:v8';
import { inflateSync } from 'node:zlib';
import { deflateToKeep } from '../kernel/deflate.js';


/** A loaded scenario with a way back to its lines (for runtime messages), or every error found. */
export type LoadResult = { ok: true; scenario: Scenario; locate: Locate } | { ok: false; errors: ScenarioError[] };

/** A loaded scenario whose steps are read from the text as they are asked for, or every error found. */
export type StreamedLoadResult = { ok: true; scenario: ScenarioOfSteps; locate: Locate } | { ok: false; errors: ScenarioError[] };

/** Parses and validates a scenario file's text; `file` is only used in the errors. */
export function loadScenario(text: string, file: string, options: ReadOptions = {}): LoadResult {
  return guarded(file, () => load(text, file, true, options) as LoadResult);
}

export interface ReadOptions {
  /** false: read the text as one document even when it could be read in pieces (tests compare the two). */
  pieces?: boolean;
}

/**
 * As loadScenario, with the same checks and errors, but a large file's steps are not kept: they are
 * read again from `text`, a chunk at a time, each time `scenario.steps` is iterated (a run of a
 * 100,000-step file holds its text, not its steps). A file that cannot be read in pieces (see
 * pieces.ts) keeps its steps as loadScenario does.
 */
export function loadScenarioStreamed(text: string, file: string, options: ReadOptions = {}): StreamedLoadResult {
  return guarded(file, () => load(text, file, false, options));
}

function guarded<R>(file: string, f: () => R): R | { ok: false; errors: ScenarioError[] } {
  try {
    return f();
  } catch (e) {
    // A crash here is replsim's bug, but the user still deserves a line naming the file rather than a stack.
    return { ok: false, errors: [{ file, line: 0, column: 0, key: '', message: `internal error while loading (please report): ${String(e)}` }] };
  }
}

/** One line for a terminal or an editor's problem matcher: `file:line:column: key: message`. */
export function formatScenarioError(e: ScenarioError): string {
  return `${e.file}:${e.line}:${e.column}: ${e.key === '' ? '' : `${readableKey(shortened(e.key))}: `}${shortened(e.message)}`;
}

/** A message quoting a value of a megabyte stays one readable line: its middle is left out. */
function shortened(text: string, max = 1000): string {
  return text.length <= max ? text : `${text.slice(0, max / 2)}… (${(text.length - max).toLocaleString('en-US')} characters left out) …${text.slice(-max / 2)}`;
}

/**
 * A key path as people read it: steps count from 1, as the narration numbers them (`steps.2.tokn`
 * is "step 3: tokn"). ScenarioError.key itself stays the machine path, from 0, as zod and JSON
 * pointers count.
 */
export function readableKey(key: string): string {
  const step = /^steps\.(\d+)(?:\.(.+))?$/.exec(key);
  if (!step) return key;
  return `step ${Number(step[1]) + 1}${step[2] === undefined ? '' : `: ${step[2]}`}`;
}

function load(text: string, file: string, keepSteps: boolean, options: ReadOptions): LoadResult | StreamedLoadResult {
  // A recording cut short is refused first: its YAML may well parse, one step short.
  const cut = checkRecordingEnd(text, file);
  if (cut) return { ok: false, errors: [cut] };
  // A file that reads cleanly in pieces is taken so; any problem is found and reported by reading it whole.
  const pieces = options.pieces === false ? null : readInPieces(text, file, keepSteps);
  if (pieces) return pieces;
  const lineCounter = new LineCounter();
  const position = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  // Size and nesting first: the YAML library's composer recurses, and a file past the bounds would
  // exhaust its stack or the memory.
  const tooBig = textProblem(text);
  if (tooBig) {
    return { ok: false, errors: [{ file, ...lineAndColumn(text, tooBig.offset), key: '', message: tooBig.message }] };
  }
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    // Prose or another format fed by mistake (`run README.md` via stdin) gives dozens of YAML errors;
    // one line saying what the file is not serves better, with the first error for the doubtful.
    if (!startsLikeAMap(text)) {
      const first = yamlError(doc.errors[0], doc, file, position);
      return { ok: false, errors: [{ ...first, key: '', message: `not a scenario file: it is not YAML with name, clusters and steps (first YAML error: ${first.message.replace(/^YAML syntax: /, '')})` }] };
    }
    return { ok: false, errors: doc.errors.map((e) => yamlError(e, doc, file, position)) };
  }
  const bound = documentProblem(doc);
  if (bound) return { ok: false, errors: [{ file, ...position(bound.offset), key: pathAt(doc, bound.offset).join('.'), message: bound.message }] };
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 1000 });
  } catch (e) {
    return { ok: false, errors: [{ file, line: 1, column: 1, key: '', message: `cannot read the YAML: ${(e as Error).message}` }] };
  }
  if (data === null || data === undefined) {
    return { ok: false, errors: [{ file, line: 1, column: 1, key: '', message: 'the file is empty: a scenario needs at least name, clusters and steps' }] };
  }
  const locate: Locate = (path) => position(offsetOf(doc, path, false));
  const foreign = notAScenario(data);
  if (foreign) return { ok: false, errors: [{ file, line: 1, column: 1, key: '', message: foreign }] };
  const parsed = parseScenario(data);
  if (!parsed.success) {
    const errors = parsed.error.issues.flatMap((issue) => issueErrors(issue, doc, file, position));
    return { ok: false, errors: tidy(errors) };
  }
  const variableErrors = checkVariables(parsed.data, undefined, { file, locate });
  if (variableErrors.length > 0) return { ok: false, errors: tidy(variableErrors) };
  const miscounted = checkRecordingSteps(text, file, parsed.data.steps.length, (i) => locate(['steps', i]).line);
  if (miscounted) return { ok: false, errors: [miscounted] };
  const compact = compactLocate(text, doc, parsed.data.steps.length, lineCounter);
  return { ok: true, scenario: keepSteps ? parsed.data : keptCompact(parsed.data), locate: compact };
}

/**
 * A locate that keeps where each step and each top-level key starts and the file's text, not the
 * YAML document (which weighs some 40 times the file: 280 MB for a file of 100,000 steps, kept as
 * long as the run). Steps and top-level keys are what a run locates (a step's line in narration and
 * results, `expect`'s line in CI reports); a path inside a step parses the text again, once per ask.
 */
function compactLocate(text: string, doc: Document, steps: number, lineCounter: LineCounter): Locate {
  const stepLine = new Int32Array(steps);
  const stepColumn = new Int32Array(steps);
  for (let i = 0; i < steps; i++) {
    const where = positionIn(lineCounter, offsetOf(doc, ['steps', i], false));
    stepLine[i] = where.line;
    stepColumn[i] = where.column;
  }
  return keptLocate(doc, lineCounter, stepLine, stepColumn, (path) => positionIn(lineCounter, offsetOf(parseDocument(text), path, false)));
}

/**
 * A locate from what a loaded file keeps: where the document's top-level keys (`doc`, counted by
 * `lineCounter`) and each step start, and `deeper` for any other path (the text parsed again). The
 * answer holds neither `doc` nor the scope that made it: a run of a large file would keep them.
 */
function keptLocate(doc: Document, lineCounter: Lines, stepLine: Int32Array, stepColumn: Int32Array, deeper: Locate): Locate {
  const top = new Map<string, number>();
  if (isMap(doc.contents)) for (const pair of doc.contents.items) if (isScalar(pair.key)) top.set(String(pair.key.value), offsetOf(doc, [String(pair.key.value)], false));
  const root = start(doc.contents as YamlNode) ?? 0;
  return (path) => {
    if (path.length === 0) return positionIn(lineCounter, root);
    if (path.length === 1) return positionIn(lineCounter, top.get(String(path[0])) ?? root);
    const index = Number(path[1]);
    if (path.length === 2 && path[0] === 'steps' && /^\d+$/.test(String(path[1])) && index < stepLine.length) return { line: stepLine[index], column: stepColumn[index] };
    return deeper(path);
  };
}

/** A piece of the text read as a YAML document of its own, its lines counted, its expanded size measured. */
interface Piece {
  doc: Document;
  lineCounter: LineCounter;
  chars: number;
}

/** The piece read, or null when it has any problem (a bound, a YAML error, an alias): the whole text is read then. */
function readPiece(text: string, bounds: typeof SCENARIO_BOUNDS): Piece | null {
  // Parsed once: its syntax tree is measured, then composed (parseDocument would parse it again).
  const lineCounter = new LineCounter();
  const tokens = [...new Parser(lineCounter.addNewLine).parse(text)];
  if (depthProblem(tokens, bounds)) return null;
  const docs = [...new Composer({ prettyErrors: false }).compose(tokens, true, text.length)];
  if (docs.length !== 1) return null;
  const doc = docs[0];
  if (doc.errors.length > 0) return null;
  // An alias may name an anchor of another piece, and the alias limit counts the whole file's.
  let alias = false;
  visit(doc, {
    Alias() {
      alias = true;
      return visit.BREAK;
    },
  });
  if (alias) return null;
  const measured = { chars: 0 };
  if (documentProblem(doc, bounds, measured)) return null;
  return { doc, lineCounter, chars: measured.chars };
}

/**
 * The scenario read in pieces (pieces.ts): the head and each chunk of steps as documents of their
 * own, their values put together, then the same checks as a file read whole. Null when the text
 * does not cut, when a piece has any problem, or when the checks find any: the whole text is read
 * then, and its errors are the ones reported. A file that passes gives the same scenario and lines
 * either way; its pieces' documents are let go, only where each step starts is kept.
 */
function readInPieces(text: string, file: string, keepSteps: boolean): LoadResult | StreamedLoadResult | null {
  if (sizeProblem(text)) return null;
  const cut = cutSteps(text);
  if (!cut) return null;
  const head = readPiece(cut.head, SCENARIO_BOUNDS);
  if (!head || !isMap(head.doc.contents)) return null;
  // The cut must be the head's own `steps` key, left empty.
  const key = head.doc.contents.items.find((p) => isScalar(p.key) && p.key.value === 'steps');
  if (!key || start(key.key) !== cut.stepsKey || !(key.value === null || (isScalar(key.value) && key.value.value === null))) return null;
  // A chunk's list stands for the file's `steps` list, one level deeper in the file.
  const inner = { ...SCENARIO_BOUNDS, maxDepth: SCENARIO_BOUNDS.maxDepth - 1 };
  // The whole document's expanded size is at most the sum of its pieces' (the head's empty `steps` counts more than an empty list).
  let chars = head.chars;
  const headData: unknown = head.doc.toJS();
  if (headData === null || typeof headData !== 'object' || Array.isArray(headData) || notAScenario(headData)) return null;
  const stepLine = new Int32Array(cut.steps);
  const stepColumn = new Int32Array(cut.steps);
  const lines = headLines(head.lineCounter, cut.removed);
  const locate = piecesLocate(text, cut, head.doc, lines, stepLine, stepColumn);
  // Each chunk is checked as a scenario of the head and its steps: the schema's rules are a step's
  // own or between a step and the head, so the file passes when every chunk does. A variable may be
  // saved by a step of an earlier chunk: those are carried on.
  const saved = new Set<string>();
  let builtin: ((name: string) => boolean) | undefined;
  let first: Scenario | undefined;
  const steps: Step[] | KeptSteps = keepSteps ? [] : new KeptSteps();
  for (const chunk of cut.chunks) {
    const piece = readPiece(text.slice(chunk.start, chunk.end), inner);
    if (!piece || !isSeq(piece.doc.contents) || piece.doc.contents.items.length !== chunk.count) return null;
    chars += piece.chars;
    if (chars > SCENARIO_BOUNDS.maxExpandedChars) return null;
    for (let j = 0; j < chunk.count; j++) {
      const at = start(piece.doc.contents.items[j]);
      const where = at === undefined ? positionIn(lines, cut.stepsKey) : positionIn(piece.lineCounter, at, chunk.line - 1);
      stepLine[chunk.first + j] = where.line;
      stepColumn[chunk.first + j] = where.column;
    }
    const parsed = parseScenario({ ...headData, steps: piece.doc.toJS() });
    if (!parsed.success) return null;
    first ??= parsed.data;
    if (builtin === undefined) {
      const names = new Set(builtinVariableNames(parsed.data));
      builtin = (name) => names.has(name) || saved.has(name);
    }
    if (checkVariables(parsed.data, builtin).length > 0) return null;
    for (const step of parsed.data.steps) for (const name of savedBy(step)) saved.add(name);
    if (Array.isArray(steps)) steps.push(...parsed.data.steps);
    else steps.add(parsed.data.steps);
  }
  if (!first || checkRecordingSteps(text, file, cut.steps, (i) => stepLine[i])) return null;
  const { steps: _firstSteps, ...rest } = first;
  return { ok: true, scenario: { ...rest, steps }, locate };
}

/** What a position's line and column are read from: a LineCounter, or the head's (headLines). */
type Lines = Pick<LineCounter, 'linePos'>;

/** The head's lines as the text's: a position at or after where the steps' lines were left out is that many lines further down (pieces.ts). */
function headLines(counter: LineCounter, removed: CutText['removed']): Lines {
  return {
    linePos(offset) {
      const at = counter.linePos(offset);
      return offset >= removed.at ? { line: at.line + removed.lines, col: at.col } : at;
    },
  };
}

function positionIn(lineCounter: Lines, offset: number, lineShift = 0): { line: number; column: number } {
  const { line, col } = lineCounter.linePos(offset);
  return { line: line + lineShift, column: col };
}

/** Chunks of steps whose text is deflated together for piecesLocate: a deeper path inflates its block alone. */
const CHUNKS_KEPT_TOGETHER = 64;

/**
 * compactLocate for a text read in pieces: the same answers, from the head's top-level keys, each
 * step's start, and for a deeper path the piece that holds it parsed again. The steps' text is kept
 * deflated, CHUNKS_KEPT_TOGETHER chunks a block, not as the file's text: a deeper path is asked for
 * when a step fails, and the text of a 100,000-step file (7.5 MB) would stay live through the run.
 */
function piecesLocate(text: string, cut: CutText, headDoc: Document, lineCounter: Lines, stepLine: Int32Array, stepColumn: Int32Array): Locate {
  const { head: headText, chunks } = cut;
  const blocks: Buffer[] = [];
  for (let b = 0; b < chunks.length; b += CHUNKS_KEPT_TOGETHER) {
    const last = chunks[Math.min(b + CHUNKS_KEPT_TOGETHER, chunks.length) - 1];
    blocks.push(deflateToKeep(Buffer.from(text.slice(chunks[b].start, last.end), 'utf8')));
  }
  return keptLocate(headDoc, lineCounter, stepLine, stepColumn, (path) => {
    const index = Number(path[1]);
    if (path[0] === 'steps' && /^\d+$/.test(String(path[1])) && index < stepLine.length) {
      const at = chunks.findIndex((c) => index < c.first + c.count);
      const chunk = chunks[at];
      const block = Math.floor(at / CHUNKS_KEPT_TOGETHER);
      // Offsets count the text's UTF-16 units; the block's text is the very slice of it they count in.
      const from = chunks[block * CHUNKS_KEPT_TOGETHER].start;
      const piece = inflateSync(blocks[block]).toString('utf8').slice(chunk.start - from, chunk.end - from);
      const lines = new LineCounter();
      const offset = offsetOf(parseDocument(piece, { lineCounter: lines }), [index - chunk.first, ...path.slice(2)], false);
      return positionIn(lines, offset, chunk.line - 1);
    }
    return positionIn(lineCounter, offsetOf(parseDocument(headText), path, false));
  });
}

/** The scenario with its steps kept compact (KeptSteps). */
function keptCompact(scenario: Scenario): ScenarioOfSteps {
  const { steps, ...rest } = scenario;
  const kept = new KeptSteps();
  kept.add(steps);
  return { ...rest, steps: kept };
}

/** Steps deflated together: enough for deflate to find the steps' repetitions. */
const STEPS_KEPT_TOGETHER = 256;

/**
 * Steps kept compact: serialized as they come (v8's structured clone keeps every value as the schema
 * made it), every STEPS_KEPT_TOGETHER of them deflated together, some tens of bytes a step;
 * iterating inflates one block at a time. Reading them again from the text would parse the YAML
 * twice.
 *
 * A serializer numbers the objects it writes and writes an object met again (a YAML alias) as a
 * reference to its number, so what one serializer wrote is read back by one deserializer of its
 * own: a step read by a deserializer that had read other steps before took its alias from them.
 * A serializer keeps every value it wrote until it is released, so each writes the few steps of one
 * piece, which then die young; a buffer a step, kept until its block was deflated, reached the
 * old generation (some 90 bytes a step there).
 */
class KeptSteps implements StepSequence {
  /** Deflated blocks: each the bytes of its parts one after the other, and each part's length and steps. */
  private readonly blocks: { bytes: Buffer; parts: { bytes: number; steps: number }[] }[] = [];
  /** The open block's parts, each what one serializer wrote (a header, then its steps). */
  private open: { bytes: Buffer; steps: number }[] = [];
  length = 0;

  add(steps: readonly Step[]): void {
    // A piece's worth to a serializer (pieces.ts), so the objects it keeps die with the piece.
    for (let from = 0; from < steps.length; from += STEPS_PER_CHUNK) {
      const part = steps.slice(from, from + STEPS_PER_CHUNK);
      const writer = new DefaultSerializer();
      writer.writeHeader();
      for (const step of part) writer.writeValue(step);
      this.open.push({ bytes: writer.releaseBuffer(), steps: part.length });
      this.length += part.length;
      if (this.open.reduce((n, p) => n + p.steps, 0) >= STEPS_KEPT_TOGETHER) this.close();
    }
  }

  private close(): void {
    if (this.open.length === 0) return;
    const parts = this.open.map((p) => ({ bytes: p.bytes.length, steps: p.steps }));
    this.blocks.push({ bytes: deflateToKeep(Buffer.concat(this.open.map((p) => p.bytes))), parts });
    this.open = [];
  }

  *[Symbol.iterator](): Iterator<Step> {
    this.close();
    for (const { bytes, parts } of this.blocks) {
      const all = inflateSync(bytes);
      let at = 0;
      for (const part of parts) {
        const reader = new DefaultDeserializer(all.subarray(at, at + part.bytes));
        reader.readHeader();
        for (let i = 0; i < part.steps; i++) yield reader.readValue() as Step;
        at += part.bytes;
      }
    }
  }
}

type Position = (offset: number) => { line: number; column: number };

/** The line and column of an offset, from the text alone (before any YAML document exists). */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf('\n'); at >= 0 && at < offset; at = text.indexOf('\n', at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

// A scenario is a map: its first line that is not blank, a comment or a directive opens one, as a YAML
// key (`name: …`) or a JSON object (`{`). Markdown, prose or a list start otherwise.
function startsLikeAMap(text: string): boolean {
  const first = text.split(/\r?\n/).find((l) => l.trim() !== '' && !/^\s*#/.test(l) && !/^(---|%)/.test(l));
  return first === undefined || /^\s*(\{|["']?[\w.-]+["']?\s*:)/.test(first);
}
const SCENARIO_KEYS = ['name', 'description', 'seed', 'expect', 'clusters', 'steps', 'format'];

/** Why a map is some other file than a scenario (a results.json, a CI workflow), or null. */
function notAScenario(data: unknown): string | null {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return null;
  const keys = Object.keys(data);
  if (keys.length === 0 || keys.some((k) => SCENARIO_KEYS.includes(k))) return null;
  const shown = keys.slice(0, 5).join(', ') + (keys.length > 5 ? ', …' : '');
  return `not a scenario file: a scenario is a map with name, clusters and steps at the top; this one has ${shown}`;
}

function yamlError(e: YAMLError, doc: Document, file: string, position: Position): ScenarioError {
  const offset = e.pos[0];
  // Only a duplicate key leaves the tree whole enough for its key path to mean something.
  const key = e.code === 'DUPLICATE_KEY' ? pathAt(doc, offset).join('.') : '';
  const message =
    e.code === 'MULTIPLE_DOCS'
      ? 'a scenario file holds one YAML document: remove the "---" that starts a second one'
      : e.code === 'DUPLICATE_KEY'
        ? 'this key is given twice in the same map: keep one'
        : `YAML syntax: ${e.message}`;
  return { file, ...position(offset), key, message };
}

function issueErrors(issue: z.core.$ZodIssue, doc: Document, file: string, position: Position): ScenarioError[] {
  // A YAML value's keys are strings and its indexes numbers: a path into it holds no symbol.
  const at = issue.path as ScenarioPath;
  // zod's own unknown-keys issue lists several keys at the map; the schema's own is one key at the key.
  if (issue.code === 'unrecognized_keys' && issue.path.length > 0 && issue.path[issue.path.length - 1] === issue.keys[0] && issue.keys.length === 1) {
    return [{ file, ...position(offsetOf(doc, at, true)), key: at.join('.'), message: issue.message }];
  }
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => {
      const path = [...at, key];
      return { file, ...position(offsetOf(doc, path, true)), key: path.join('.'), message: `unknown key "${key}"` };
    });
  }
  const message =
    issue.path.length === 0 && issue.code === 'invalid_type'
      ? `a scenario file is a map with name, clusters and steps at the top; ${issue.message.replace(/^expected a map, /, '')}`
      : issue.message;
  return [{ file, ...position(offsetOf(doc, at, false)), key: at.join('.'), message }];
}

// Errors in the order of the file, each once (a value can fail the same way on two routes through a union).
function tidy(errors: ScenarioError[]): ScenarioError[] {
  const seen = new Set<string>();
  return errors
    .filter((e) => {
      const id = `${e.key}\u0000${e.message}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    })
    .sort((a, b) => a.line - b.line || a.column - b.column);
}

type YamlNode = unknown;

function resolve(node: YamlNode, doc: Document): YamlNode {
  // An alias's errors belong to the anchored node it stands for; a cycle of aliases cannot occur in a valid
  // document, but the bound keeps a broken one from looping.
  for (let i = 0; i < 100 && isAlias(node); i++) node = node.resolve(doc);
  return node;
}

function start(node: YamlNode): number | undefined {
  return node !== null && typeof node === 'object' && 'range' in node && Array.isArray(node.range) ? (node.range[0] as number) : undefined;
}

// The offset of a key path: a value that is a scalar points at the value (it is what is wrong); a map, a
// list or an empty value points at its key, which is where the reader looks; a key that is not there
// points at the nearest key that is. `atKey` points at the key even when the value is a scalar.
function offsetOf(doc: Document, path: ScenarioPath, atKey: boolean): number {
  let node: YamlNode = doc.contents;
  let anchor = start(node) ?? 0;
  for (let i = 0; i < path.length; i++) {
    node = resolve(node, doc);
    const segment = path[i];
    const last = i === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
      if (!pair) return anchor;
      const keyOffset = start(pair.key) ?? anchor;
      const value = resolve(pair.value, doc);
      if (last) return !atKey && isScalar(value) && value.value !== null ? (start(value) ?? keyOffset) : keyOffset;
      anchor = keyOffset;
      node = pair.value;
    } else if (isSeq(node) && /^\d+$/.test(String(segment))) {
      const item: YamlNode = node.items[Number(segment)];
      if (item === undefined) return anchor;
      anchor = start(resolve(item, doc)) ?? anchor;
      node = item;
    } else {
      return anchor;
    }
  }
  return anchor;
}

// The key path of the deepest node that holds an offset, so a YAML error can name its key too.
function pathAt(doc: Document, offset: number): (string | number)[] {
  const path: (string | number)[] = [];
  let node: YamlNode = doc.contents;
  for (let depth = 0; depth < 1000; depth++) {
    if (isMap(node)) {
      const pair = node.items.find((p) => {
        const from = start(p.key);
        const value = p.value as YamlNode;
        const to = value !== null && typeof value === 'object' && 'range' in value && Array.isArray(value.range) ? (value.range[2] as number) : undefined;
        return from !== undefined && from <= offset && (to === undefined || offset <= to);
      });
      if (!pair || !isScalar(pair.key)) return path;
      path.push(String(pair.key.value));
      node = pair.value;
    } else if (isSeq(node)) {
      const index = node.items.findIndex((item) => {
        const range = item !== null && typeof item === 'object' && 'range' in item && Array.isArray(item.range) ? (item.range as number[]) : undefined;
        return range !== undefined && range[0] <= offset && offset <= range[2];
      });
      if (index < 0) return path;
      path.push(index);
      node = node.items[index];
    } else {
      return path;
    }
  }
  return path;
}
