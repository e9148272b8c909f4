// Where a scenario file's `steps` are, so that a large file is read a few steps at a time instead of
// as one YAML document (the YAML library's syntax tree weighs some 75 times the text, its document
// some 35 times: a recording of 100,000 steps, 7.5 MB, took 1.35 GB to parse whole).
//
// The cut is found on the text's lines: a top-level `steps:` key with nothing after it on its line,
// then a block list, each item opening with `-` at the list's indentation. Everything an item holds
// (block scalars, flow collections, continued lines) is indented more than its `-`, so an item runs
// to the next line at that indentation. The cut is only a proposal: the loader reads the head (the
// text without the steps' lines) and each chunk of steps as documents of their own, and takes them
// only when each reads cleanly and they fit together (the head's `steps` is this key and empty,
// each chunk holds the items counted here). Anything else is read whole, as before.
//
// The head leaves the steps' lines out rather than leaving them blank: a key after the steps is as
// many lines further down in the text as the steps held (`removed`). A head of 100,000 blank lines
// made the YAML parser keep 100,000 tokens at once, and V8 then allocated the parser's objects
// straight into the old generation for every chunk after it (allocation-site pretenuring): read
// without the schema check, a 100,000-step file peaked 126 MB above the start so, 26 MB without.

/** A run of consecutive steps: its offsets in the text, the line it starts on (from 1), its first step and count. */
export interface StepChunk {
  start: number;
  end: number;
  line: number;
  first: number;
  count: number;
}

/** A scenario text cut at its steps. */
export interface CutText {
  /** The text without the steps' lines: every key but `steps`, the keys after them `removed.lines` lines higher. */
  head: string;
  /** Where the steps' lines were taken out (an offset of `head`), and how many lines they were. */
  removed: { at: number; lines: number };
  /** The offset of the `steps` key in the text (and in `head`). */
  stepsKey: number;
  chunks: StepChunk[];
  /** Steps in all. */
  steps: number;
}

/**
 * Steps read together: few enough that a chunk's YAML syntax tree and document die young. The YAML
 * library allocates some 60 KB a step of short-lived objects around them (its lexer and parser are
 * generators); a chunk of 256 steps stayed alive through the scavenges its own parse caused, and
 * reached the old generation. A 100,000-step file loaded in 155–172 MB above the start at 256 a
 * chunk, 130–137 MB at 8 or 16 (147–170 at 32 and 64); the head's check per chunk costs no time
 * that shows.
 */
export const STEPS_PER_CHUNK = 16;

const STEPS_KEY = /^steps:[ \t]*(?:#[^\n]*)?$/m;

/** The text's steps as chunks of lines, or null when its steps are not a block list under a top-level `steps:` line. */
export function cutSteps(text: string, perChunk = STEPS_PER_CHUNK): CutText | null {
  // Directives (`%TAG`) change how the steps read; a lone carriage return is a line break the line scan would miss.
  if (/^%/m.test(text) || /\r(?!\n)/.test(text)) return null;
  const key = STEPS_KEY.exec(text);
  if (!key) return null;
  const stepsKey = key.index;
  let at = text.indexOf('\n', stepsKey);
  if (at < 0) return null;
  at++;
  let line = lineNumber(text, at);
  let indent = -1;
  let regionStart = -1;
  let regionEnd = text.length;
  // Where each item starts, as two arrays of small integers (V8 keeps those unboxed): an object a
  // step (100,000 of them for a large file) lived through the whole scan and reached the old
  // generation, 10 MB of garbage there.
  const startOffset: number[] = [];
  const startLine: number[] = [];
  while (at < text.length) {
    let next = text.indexOf('\n', at);
    if (next < 0) next = text.length;
    const l = text.slice(at, next).replace(/\r$/, '');
    const body = l.trimStart();
    if (body !== '' && !body.startsWith('#')) {
      const spaces = l.length - body.length;
      const opens = /^-(?:[ \t]|$)/.test(body) && !l.slice(0, spaces).includes('\t');
      if (indent < 0) {
        // The first line after the key must open the list.
        if (!opens) return null;
        indent = spaces;
        regionStart = at;
      }
      if (spaces < indent || (spaces === indent && !opens)) {
        regionEnd = at;
        break;
      }
      if (spaces === indent) {
        startOffset.push(at);
        startLine.push(line);
      }
    }
    at = next + 1;
    line++;
  }
  const count = startOffset.length;
  if (count === 0) return null;
  const chunks: StepChunk[] = [];
  for (let first = 0; first < count; first += perChunk) {
    const n = Math.min(perChunk, count - first);
    const end = first + n < count ? startOffset[first + n] : regionEnd;
    chunks.push({ start: startOffset[first], end, line: startLine[first], first, count: n });
  }
  let lines = 0;
  for (let i = text.indexOf('\n', regionStart); i >= 0 && i < regionEnd; i = text.indexOf('\n', i + 1)) lines++;
  // The region is whole lines (it starts and ends at a line's start, or ends the text), so what follows
  // it keeps its columns and moves up by the line breaks it held.
  // A string of its own, not slices of the text: V8 keeps a slice's whole parent alive, and the
  // head (and its document) is kept for the run, where the text is not.
  const head = Buffer.from(text.slice(0, regionStart) + text.slice(regionEnd), 'utf8').toString('utf8');
  return { head, removed: { at: regionStart, lines }, stepsKey, chunks, steps: count };
}

function lineNumber(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
