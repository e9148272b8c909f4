// `--shard I/N`: one of N deterministic parts of a run, for a CI matrix (one job per shard, then
// `replsim merge`). A check's shard I runs the contiguous runs floor((I-1)·R/N) .. floor(I·R/N) of
// its R runs: each run is drawn from the seed and its index alone, so shards joined in run order
// equal the unsharded run (counts summed up to the first failing run, that run's counterexample).
// An explore's shard I expands, below the first level, only the distinct first-level states of
// ordinals I-1, I-1+N, I-1+2N … in breadth-first order (src/check/explore.ts): every state within the
// depth lies below some first-level state, so the shards together explore every state, and the
// shortest trace over the shards is as short as the unsharded search's.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Shard {
  /** From 1. */
  index: number;
  count: number;
}

/** The most shards a run may be cut into. */
export const MAX_SHARDS = 1000;

/** How a shard file's missing key is worded when it is refused (zod words the rest: "expected number, received string"). */
export function shardFileError(issue: { input?: unknown }): string | undefined {
  return issue.input === undefined ? 'required' : undefined;
}

/** "I/N" as typed: I from 1 to N, N from 1 to MAX_SHARDS; a message naming the problem otherwise. */
export function parseShard(text: string): { ok: true; shard: Shard } | { ok: false; message: string } {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) return { ok: false, message: `--shard takes I/N, the shard's number and how many there are, like 2/4; got "${text}"` };
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > MAX_SHARDS) return { ok: false, message: `--shard ${text.trim()}: N must be from 1 to ${MAX_SHARDS}` };
  if (index < 1 || index > count) return { ok: false, message: `--shard ${text.trim()}: I must be from 1 to ${count}` };
  return { ok: true, shard: { index, count } };
}

/** The runs of a check's shard: indexes `from` (from 0) to `to` (excluded). Empty when there are fewer runs than shards. */
export function shardRange(runs: number, shard: Shard): { from: number; to: number } {
  return { from: Math.floor(((shard.index - 1) * runs) / shard.count), to: Math.floor((shard.index * runs) / shard.count) };
}

/** Whether the explorer's shard keeps the first-level state of this ordinal (from 0, in breadth-first order). */
export function ownsFirstLevel(shard: Shard, ordinal: number): boolean {
  return ordinal % shard.count === shard.index - 1;
}

/** The file a shard writes in its --out folder. */
export function shardFileName(command: 'check' | 'explore', shard: Shard): string {
  return `${command}-shard-${shard.index}-of-${shard.count}.json`;
}

/** Writes a shard's result as JSON in `dir` (made if missing); returns the file's path. */
export function writeShardFile(dir: string, command: 'check' | 'explore', shard: Shard, content: object): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, shardFileName(command, shard));
  writeFileSync(file, JSON.stringify(content, null, 2) + '\n');
  return file;
}

/**
 * Shard results in shard order, each shard given once and none missing (`n` shards in all), or why
 * not: the check `replsim merge` makes of check, explore and whatif shards alike.
 */
export function shardsInOrder<T extends { file: string; data: { shard: { index: number } } }>(loaded: readonly T[], n: number): { ok: true; ordered: T[] } | { ok: false; message: string } {
  const byIndex = new Map<number, T>();
  for (const l of loaded) {
    const twice = byIndex.get(l.data.shard.index);
    if (twice) return { ok: false, message: `shard ${l.data.shard.index} of ${n} is given twice: ${twice.file} and ${l.file}` };
    byIndex.set(l.data.shard.index, l);
  }
  const missing = Array.from({ length: n }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length) return { ok: false, message: `shard${missing.length === 1 ? '' : 's'} ${missing.join(', ')} of ${n} ${missing.length === 1 ? 'is' : 'are'} missing: merge needs every shard's result` };
  return { ok: true, ordered: Array.from({ length: n }, (_, i) => byIndex.get(i + 1)!) };
}
