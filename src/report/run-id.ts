// Every file of a run carries the run's id (src/kernel/persist.ts RunId): results.json as its `run`
// field, report.html and sequence.md as a last line `<!-- replsim-run {…} -->`, history.jsonl by its
// own lines (the seed of its first event, the links of its first and last event lines, the closing
// line's state hash). A folder whose files name different runs — a run killed after rewriting some
// of them, files copied together by hand — is reported by `replay` and `run`.
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryFileError, readHistory, runIdOf, type RunId } from '../kernel/persist.js';

const MARK = '<!-- replsim-run ';

/** The line report.html and sequence.md end with. */
export function runMark(id: RunId): string {
  return `${MARK}${JSON.stringify(id)} -->\n`;
}

/** The files of an --out folder that carry a run id, besides history.jsonl. */
export const RUN_FILES = ['results.json', 'report.html', 'sequence.md'] as const;

/** Up to `max` bytes of a regular file, from its start or its end; null when absent or not a regular file. */
function readPart(path: string, max: number, from: 'start' | 'end'): string | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return null;
    const length = Math.min(max, stat.size);
    const buf = Buffer.alloc(length);
    readSync(fd, buf, 0, length, from === 'start' ? 0 : stat.size - length);
    return buf.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function asRunId(value: unknown): RunId | null {
  if (value === null || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (typeof v.start !== 'string' || typeof v.last !== 'string' || typeof v.events !== 'number') return null;
  return { seed: typeof v.seed === 'number' ? v.seed : null, events: v.events, start: v.start, last: v.last, stateHash: typeof v.stateHash === 'string' ? v.stateHash : null };
}

/** The run id a file of the folder carries: a RunId, `none` (the file has none) or null (no such file). */
export function fileRunId(dir: string, name: (typeof RUN_FILES)[number]): RunId | 'none' | null {
  const path = join(dir, name);
  if (!existsSync(path)) return null;
  if (name === 'results.json') {
    // `run` is among the first keys of results.json: its head is enough, however long the file.
    const head = readPart(path, 64 << 10, 'start');
    if (head === null) return 'none';
    const at = head.indexOf('"run": {');
    const end = at < 0 ? -1 : head.indexOf('}', at);
    if (end < 0) return 'none';
    try {
      return asRunId(JSON.parse(head.slice(at + 7, end + 1))) ?? 'none';
    } catch {
      return 'none';
    }
  }
  const tail = readPart(path, 4096, 'end');
  const at = tail === null ? -1 : tail.lastIndexOf(MARK);
  if (tail === null || at < 0) return 'none';
  const close = tail.indexOf(' -->', at);
  try {
    return asRunId(JSON.parse(tail.slice(at + MARK.length, close))) ?? 'none';
  } catch {
    return 'none';
  }
}

/** Two ids name the same run. */
export function sameRun(a: RunId, b: RunId): boolean {
  return a.seed === b.seed && a.events === b.events && a.start === b.start && a.last === b.last && a.stateHash === b.stateHash;
}

/** A run id as people read it. */
export function describeRun(id: RunId): string {
  const ended = id.stateHash === null ? 'not ended (no closing line)' : `ended with state hash ${id.stateHash.slice(0, 12)}…`;
  return `seed ${id.seed ?? '?'}, ${id.events} events from ${id.start.slice(0, 12) || '?'}… to ${id.last.slice(0, 12) || '?'}…, ${ended}`;
}

/**
 * Why the files of an --out folder do not all belong to one run (empty when they do, or when the
 * folder holds none). `history` is the history's id when the caller read it already.
 */
export function mixedRuns(dir: string, history?: RunId | null): string[] {
  let historyId = history ?? null;
  if (history === undefined && existsSync(join(dir, 'history.jsonl'))) {
    try {
      historyId = runIdOf(readHistory(join(dir, 'history.jsonl'), undefined, { incomplete: true }));
    } catch (e) {
      if (!(e instanceof HistoryFileError)) throw e;
      return [`history.jsonl cannot be read (${e.message}), so the folder's files cannot be matched to it`];
    }
  }
  const ids: { name: string; id: RunId | 'none' }[] = [];
  if (historyId) ids.push({ name: 'history.jsonl', id: historyId });
  for (const name of RUN_FILES) {
    const id = fileRunId(dir, name);
    if (id !== null) ids.push({ name, id });
  }
  const reference = ids.find((f) => f.id !== 'none');
  if (!reference || reference.id === 'none') return ids.length > 1 ? [`${ids.map((f) => f.name).join(', ')} carry no run id: they cannot be matched to one another`] : [];
  const refId = reference.id;
  const problems: string[] = [];
  for (const f of ids) {
    if (f === reference) continue;
    if (f.id === 'none') problems.push(`${f.name} carries no run id (written by an older replsim, or not by replsim)`);
    else if (!sameRun(f.id, refId)) problems.push(`${f.name} is of another run than ${reference.name}: ${describeRun(f.id)}; ${reference.name}: ${describeRun(refId)}`);
  }
  return problems;
}
