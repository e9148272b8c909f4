// The session journal, `session.jsonl` beside history.jsonl in `serve --out DIR`: what the history
// alone does not hold and `serve --resume DIR` needs to go on after a crash — the listeners' ports,
// the recording's base and variables, and after each applied step the generator's position, the
// step as the recording took it and the step's record for results.json. One line is appended per
// step, after the step's events reached history.jsonl and before the client gets its answer, so a
// step in the journal is a step a client may have seen; events past the journal's last step belong
// to a step no client was answered, and a resume leaves them out.
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import type { Finding } from '../areas/monitoring/types.js';
import { InputFileError, readRegularFile } from '../kernel/files.js';
import type { Scenario } from '../scenario/schema.js';
import type { AnswerInfo, RawStep, RecordedRequest, RecordingBase } from './recorder.js';

export const JOURNAL_FORMAT = 'replsim-session/1';
export const JOURNAL_FILE = 'session.jsonl';

export interface JournalHeader {
  format: typeof JOURNAL_FORMAT;
  seed: number;
  clusters: string[];
  /** Each cluster's listener port, and the control listener's. */
  ports: Record<string, number>;
  controlPort: number;
  clock: 'wall' | 'manual';
  speed?: number;
  base: RecordingBase;
  expect: Scenario['expect'];
  /** The recorder's built-in variables and named tokens when serving began. */
  builtins: Record<string, string>;
  namedTokens: Record<string, Record<string, string>>;
  /** Events in the log when serving began (the clusters' creation, and a served scenario's steps), and the generator's position then. */
  startEvents: number;
  startRng: number[];
  /** Where the recording is written on stop. */
  record?: string;
}

/** What the recorder was told of a step. */
export type RecorderCall =
  | { request: RecordedRequest; status: number; body: unknown; info?: AnswerInfo }
  | { wait: number }
  | { fault: RawStep }
  | { omitted: string }
  | null;

/** A step's record for results.json, without the world's states (they are folded again from the history). */
export interface JournalRecord {
  kind: string;
  title: string;
  virtualAt: number;
  virtualMs: number;
  request?: { cluster: string; method: string; path: string; body?: unknown; namespace?: string; token: string };
  response?: { status: number; body: unknown };
  endpoint?: string;
  findings: Finding[];
}

export interface JournalEntry {
  /** Events in the log after the step. */
  events: number;
  /** The generator's position after the step. */
  rng: number[];
  record: JournalRecord;
  recorder: RecorderCall;
}

/** Appends the journal as the session goes (written like history.jsonl: one write per step). */
export class JournalWriter {
  private fd: number | null;

  constructor(file: string, header: JournalHeader, entries: readonly JournalEntry[] = []) {
    this.fd = openSync(file, 'w');
    this.write(JSON.stringify(header) + '\n' + entries.map((e) => JSON.stringify(e) + '\n').join(''));
  }

  append(entry: JournalEntry): void {
    this.write(JSON.stringify(entry) + '\n');
  }

  close(): void {
    if (this.fd === null) return;
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = null;
  }

  private write(text: string): void {
    if (this.fd === null) return;
    const bytes = Buffer.from(text, 'utf8');
    let at = 0;
    while (at < bytes.length) at += writeSync(this.fd, bytes, at, bytes.length - at);
  }
}

/** A journal that cannot be used to resume: the message names the file and line. */
export class JournalError extends Error {}

/** The journal's header and its whole entries (a last line cut short is left out). */
export function readJournal(file: string): { header: JournalHeader; entries: JournalEntry[] } {
  let text: string;
  try {
    // As large as a long session's journal may grow; a file that is not regular is refused by name.
    text = readRegularFile(file, 1 << 30, 'session journal');
  } catch (e) {
    if (e instanceof InputFileError) throw new JournalError(e.message);
    throw e;
  }
  const lines = text.split('\n');
  // The text after the last newline is a line cut short (or nothing).
  lines.pop();
  const parse = (line: string, n: number): unknown => {
    try {
      return JSON.parse(line);
    } catch {
      throw new JournalError(`${file}:${n}: not valid JSON: not a session journal written by replsim serve --out`);
    }
  };
  if (lines.length === 0) throw new JournalError(`${file}: empty: the session wrote no journal`);
  const header = parse(lines[0], 1) as JournalHeader;
  if (header === null || typeof header !== 'object' || header.format !== JOURNAL_FORMAT) throw new JournalError(`${file}:1: not a session journal (format "${JOURNAL_FORMAT}")`);
  const entries = lines.slice(1).map((l, i) => {
    const e = parse(l, i + 2) as JournalEntry;
    if (e === null || typeof e !== 'object' || !Number.isInteger(e.events) || !Array.isArray(e.rng) || typeof e.record !== 'object') throw new JournalError(`${file}:${i + 2}: not a journal entry`);
    return e;
  });
  return { header, entries };
}
