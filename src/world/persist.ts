// JSONL persistence of the event log: one event a line, in log order, canonical so that the same
// run writes the same bytes.
import { readFileSync, writeFileSync } from 'node:fs';
import { canonicalJson } from './canonical.js';

/** The log as JSONL text, one canonical JSON event per line. */
export function toJsonl(events: readonly unknown[]): string {
  let out = '';
  for (const e of events) out += canonicalJson(e) + '\n';
  return out;
}

export function writeJsonl(file: string, events: readonly unknown[]): void {
  writeFileSync(file, toJsonl(events));
}

export class HistoryFileError extends Error {}

/** Reads a JSONL log; a line that is not a JSON object is an error naming the file and line. */
export function readJsonl<E>(file: string): E[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new HistoryFileError(`${file}: cannot read: ${(err as Error).message}`);
  }
  return parseJsonl<E>(text, file);
}

export function parseJsonl<E>(text: string, file = '<history>'): E[] {
  const events: E[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new HistoryFileError(`${file}:${i + 1}: not valid JSON: ${(err as Error).message}`);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value) || typeof (value as { type?: unknown }).type !== 'string')
      throw new HistoryFileError(`${file}:${i + 1}: not an event (a JSON object with a "type")`);
    events.push(value as E);
  }
  return events;
}
