// `replsim merge DIR...`: the shard files of one `replsim check --shard I/N` or `replsim explore
// --shard I/N` run (src/explore/shard.ts), checked to belong together and joined. A check's shards
// join in run order: counts summed up to the first failing run, that run's shrunk counterexample —
// what the unsharded run gives. An explore's shards join by the shortest trace (ties to the lower
// shard), the union of their distinct states (each shard lists them: a state two shards both
// reached counts once, so distinct and visited are the unsharded search's) and of the DR role
// combinations reached; hazard tallies are summed (transitions, per shard). Shard files are input: they are validated before anything is summed.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod/v4';
import { HAZARD_IDS, INVARIANT_IDS } from '../scenario/schema.js';
import { joinRanges, type JoinedRuns, type PortableCounterexample, type RangeResult } from './property-runs.js';
import { shardFileError, shardRange, shardsInOrder, type Shard } from './shard.js';

export const SHARD_FILE = /^(check|explore)-shard-(\d+)-of-(\d+)\.json$/;

const count = z.number().int().nonnegative();
const hazards = z.partialRecord(z.enum(HAZARD_IDS), count);
const violations = z.partialRecord(z.enum(INVARIANT_IDS), count);
const shard = z.object({ index: z.number().int().min(1), count: z.number().int().min(1) }).strict().refine((s) => s.index <= s.count, 'index must be at most count');
const scenario = z
  .object({ name: z.string(), description: z.string(), seed: count, clusters: z.array(z.string()), steps: z.array(z.record(z.string(), z.unknown())), header: z.array(z.string()).optional(), hazards: z.array(z.string()).optional(), from: z.object({ file: z.string(), text: z.string() }).strict().optional() })
  .strict();
const finding = z.object({ kind: z.enum(['violation', 'hazard']), id: z.string(), at: z.number(), clusters: z.array(z.string()), message: z.string(), lostKeys: z.array(z.string()).optional() }).strict();

const counterexample = z
  .object({
    kind: z.enum(['violation', 'hazard', 'mismatch', 'error']),
    id: z.string().optional(),
    message: z.string(),
    finding: finding.optional(),
    clusters: count,
    seed: count,
    words: z.array(z.string()),
    run: z.number().int().min(1),
    shrinks: count,
    replay: z.object({ seed: z.number().int(), path: z.string() }).strict(),
    reproduced: z.boolean(),
    scenario,
  })
  .strict();

/** A --from start as a shard file records it: the file as given and a digest of its text (shards of another text do not merge). */
const fromSettings = z.object({ file: z.string(), digest: z.string().regex(/^[0-9a-f]{16}$/) }).strict();

const checkSettings = z.object({ runs: z.number().int().min(1), seed: count, clusters: z.number().int().nullable(), steps: z.number().int().min(1), forbid: z.array(z.enum(HAZARD_IDS)), commands: z.string().optional(), from: fromSettings.optional() }).strict();
export type CheckShardSettings = z.infer<typeof checkSettings>;

const checkShardFile = z
  .object({
    replsim: z.literal('check-shard'),
    version: z.literal(1),
    settings: checkSettings,
    shard,
    verdict: z.enum(['valid', 'invalid']),
    result: z
      .object({ from: count, to: count, runs: count, commands: count, requests: count, refused: count, hazards, violations, finding: counterexample.nullable() })
      .strict(),
  })
  .strict();
export type CheckShardFile = z.infer<typeof checkShardFile>;

const exploreSettings = z.object({ depth: z.number().int().min(1), clusters: z.number().int(), seed: count, forbid: z.array(z.enum(HAZARD_IDS)), maxStates: z.number().int().min(1).nullable(), commands: z.string().optional(), from: fromSettings.optional() }).strict();
export type ExploreShardSettings = z.infer<typeof exploreSettings>;

const exploreFinding = z
  .object({ kind: z.enum(['violation', 'hazard', 'mismatch']), id: z.string().optional(), message: z.string(), trace: z.array(z.string()), reproduced: z.boolean(), scenario })
  .strict();
export type PortableExploreFinding = z.infer<typeof exploreFinding>;

const exploreShardFile = z
  .object({
    replsim: z.literal('explore-shard'),
    // 2: the shard lists its distinct states (a version-1 file summed overlapping shards' counts).
    version: z.literal(2),
    settings: exploreSettings,
    shard,
    verdict: z.enum(['valid', 'invalid', 'unknown']),
    result: z
      .object({
        visited: count,
        distinct: count,
        depthReached: count,
        complete: z.boolean(),
        stoppedBy: z.enum(['max-states', 'limit', 'roles-covered']).nullable(),
        roleVectors: z.object({ covered: count, total: count, reached: z.array(z.string().regex(/^[dps]+$/)) }).strict(),
        hazards,
        finding: exploreFinding.nullable(),
        states: z.array(z.tuple([z.string().regex(/^[0-9a-f]{24}$/), count])),
      })
      .strict(),
  })
  .strict();
export type ExploreShardFile = z.infer<typeof exploreShardFile>;

/** The check shard file's content for a range result. */
export function checkShardContent(settings: CheckShardSettings, s: Shard, result: RangeResult): CheckShardFile {
  return { replsim: 'check-shard', version: 1, settings, shard: s, verdict: result.finding ? 'invalid' : 'valid', result: result as CheckShardFile['result'] };
}

export interface MergedCheck {
  command: 'check';
  settings: CheckShardSettings;
  shards: number;
  files: string[];
  joined: JoinedRuns;
  finding: PortableCounterexample | null;
}

export interface MergedExplore {
  command: 'explore';
  settings: ExploreShardSettings;
  shards: number;
  files: string[];
  visited: number;
  distinct: number;
  depthReached: number;
  complete: boolean;
  stoppedBy: string[];
  roleVectors: { covered: number; total: number; reached: string[] };
  hazards: Record<string, number>;
  finding: PortableExploreFinding | null;
  /** The shard whose trace it is. */
  findingShard: number | null;
  verdict: 'valid' | 'invalid' | 'unknown';
}

type Loaded = { file: string; data: CheckShardFile } | { file: string; data: ExploreShardFile };

/** The shard files named (files, or folders searched for `check|explore-shard-I-of-N.json`), merged; or what is wrong. */
export function mergeShards(inputs: readonly string[]): { ok: true; merged: MergedCheck | MergedExplore } | { ok: false; message: string } {
  if (inputs.length === 0) return { ok: false, message: 'name the folders (or files) holding the shard results, like: replsim merge shards/' };
  const files: string[] = [];
  for (const input of inputs) {
    if (!existsSync(input)) return { ok: false, message: `${input}: no such file or folder` };
    if (statSync(input).isDirectory()) {
      const found = shardFilesUnder(input);
      if (found.length === 0) return { ok: false, message: `${input}: no shard results in it (files named check-shard-I-of-N.json or explore-shard-I-of-N.json, written by --shard I/N --out DIR)` };
      files.push(...found);
    } else files.push(input);
  }
  const loaded: Loaded[] = [];
  for (const file of [...new Set(files)]) {
    const read = loadShard(file);
    if (!read.ok) return read;
    loaded.push(read.loaded);
  }
  const first = loaded[0];
  for (const l of loaded) {
    if (l.data.replsim !== first.data.replsim) return { ok: false, message: `${first.file} is a ${first.data.replsim} result and ${l.file} a ${l.data.replsim} result: merge joins the shards of one run` };
    const differs = differingSetting(first.data.settings, l.data.settings);
    if (differs) return { ok: false, message: `${first.file} and ${l.file} were run with different settings (${differs}): merge joins the shards of one run` };
    if (l.data.shard.count !== first.data.shard.count) return { ok: false, message: `${first.file} is one of ${first.data.shard.count} shards and ${l.file} one of ${l.data.shard.count}: merge joins the shards of one run` };
  }
  const n = first.data.shard.count;
  const inOrder = shardsInOrder(loaded, n);
  if (!inOrder.ok) return inOrder;
  const ordered = inOrder.ordered;
  return first.data.replsim === 'check-shard' ? mergeCheck(ordered as { file: string; data: CheckShardFile }[]) : { ok: true, merged: mergeExplore(ordered as { file: string; data: ExploreShardFile }[]) };
}

function shardFilesUnder(dir: string, depth = 0): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    // CI artifact downloads put each shard in its own folder: look one level down too.
    if (entry.isDirectory() && depth < 1) out.push(...shardFilesUnder(path, depth + 1));
    else if (entry.isFile() && SHARD_FILE.test(entry.name)) out.push(path);
  }
  return out;
}

function loadShard(file: string): { ok: true; loaded: Loaded } | { ok: false; message: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    return { ok: false, message: `${file}: not a shard result (${e instanceof SyntaxError ? `not JSON: ${e.message}` : (e as Error).message})` };
  }
  const kind = (raw as { replsim?: unknown } | null)?.replsim;
  const schema = kind === 'check-shard' ? checkShardFile : kind === 'explore-shard' ? exploreShardFile : null;
  if (!schema) return { ok: false, message: `${file}: not a shard result (its "replsim" key should be "check-shard" or "explore-shard")` };
  const parsed = schema.safeParse(raw, { error: shardFileError });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, message: `${file}: ${issue.path.length ? `at ${issue.path.join('.')}: ` : ''}${issue.message}` };
  }
  return { ok: true, loaded: { file, data: parsed.data } as Loaded };
}

/** The first setting two shard files disagree on, as "--seed 1 vs 2"; null when they agree. */
function differingSetting(a: Record<string, unknown>, b: Record<string, unknown>): string | null {
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const x = JSON.stringify(a[key]);
    const y = JSON.stringify(b[key]);
    if (x !== y) return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${x} vs ${y}`;
  }
  return null;
}

function mergeCheck(shards: { file: string; data: CheckShardFile }[]): { ok: true; merged: MergedCheck } | { ok: false; message: string } {
  const { settings } = shards[0].data;
  for (const s of shards) {
    const want = shardRange(settings.runs, s.data.shard);
    if (s.data.result.from !== want.from || s.data.result.to !== want.to) return { ok: false, message: `${s.file}: shard ${s.data.shard.index} of ${s.data.shard.count} of ${settings.runs} runs covers runs ${want.from + 1} to ${want.to}, not ${s.data.result.from + 1} to ${s.data.result.to}` };
  }
  const joined = joinRanges(settings.seed, settings.runs, shards.map((s) => s.data.result as RangeResult));
  if (!joined.ok) return { ok: false, message: joined.message };
  return { ok: true, merged: { command: 'check', settings, shards: shards.length, files: shards.map((s) => s.file), joined: joined.joined, finding: joined.joined.finding } };
}

function mergeExplore(shards: { file: string; data: ExploreShardFile }[]): MergedExplore {
  const { settings } = shards[0].data;
  const reached = new Set<string>();
  const tally: Record<string, number> = {};
  let best: { finding: PortableExploreFinding; shard: number } | null = null;
  const merged: MergedExplore = { command: 'explore', settings, shards: shards.length, files: shards.map((s) => s.file), visited: 0, distinct: 0, depthReached: 0, complete: true, stoppedBy: [], roleVectors: { covered: 0, total: shards[0].data.result.roleVectors.total, reached: [] }, hazards: tally, finding: null, findingShard: null, verdict: 'valid' };
  // Shards overlap below the first level: a state reached under first-level states of two shards is
  // found (and expanded) by both. The union of their states is the unsharded search's, each counted
  // once, with the transitions tried from it in the shard that expanded it (the one that reached it
  // soonest: where it lay at the depth bound it was not expanded, 0).
  const states = new Map<string, number>();
  for (const { data } of shards) for (const [digest, transitions] of data.result.states) states.set(digest, Math.max(states.get(digest) ?? 0, transitions));
  merged.distinct = states.size;
  for (const transitions of states.values()) merged.visited += transitions;
  for (const { data } of shards) {
    const r = data.result;
    merged.depthReached = Math.max(merged.depthReached, r.depthReached);
    if (!r.complete && !r.finding) merged.complete = false;
    if (r.stoppedBy) merged.stoppedBy.push(`shard ${data.shard.index}: ${r.stoppedBy}`);
    for (const v of r.roleVectors.reached) reached.add(v);
    for (const [id, n] of Object.entries(r.hazards)) tally[id] = (tally[id] ?? 0) + n;
    // The shortest trace; between equally short ones, the lower shard's (shards are in order).
    if (r.finding && (!best || r.finding.trace.length < best.finding.trace.length)) best = { finding: r.finding, shard: data.shard.index };
  }
  merged.roleVectors.reached = [...reached].sort();
  merged.roleVectors.covered = reached.size;
  merged.finding = best?.finding ?? null;
  merged.findingShard = best?.shard ?? null;
  merged.verdict = best ? 'invalid' : merged.complete ? 'valid' : 'unknown';
  return merged;
}
