// `replsim merge` for the shards of one `replsim whatif --shard I/N --out DIR` run: every shard once,
// run with the same file and settings, their placements joined in plan order — the unsharded run's
// placements, numbers and outcomes. The shortest fatal variant is run again from the runbook (the
// plan is the same for every shard) to be written as a scenario.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod/v4';
import { shardFileError, shardsInOrder } from '../explore/shard.js';

export const WHATIF_SHARD = /^whatif-shard-(\d+)-of-(\d+)\.json$/;

const placement = z.object({ type: z.literal('placement'), n: z.number().int().min(1), outcome: z.enum(['unsafe', 'stopped', 'ok']), reason: z.string(), step: z.number().int().nullable(), length: z.number().int() }).passthrough();
const shardFile = z
  .object({
    format: z.literal(1),
    command: z.literal('whatif'),
    file: z.string(),
    settings: z.object({ faults: z.number(), kinds: z.array(z.string()), forbid: z.array(z.string()), seed: z.number(), budget: z.number() }).strict(),
    shard: z.object({ index: z.number().int().min(1), count: z.number().int().min(1) }),
    variants: z.number().int().min(0),
    range: z.object({ from: z.number().int(), to: z.number().int() }),
    results: z.array(placement),
  })
  .passthrough();
export type WhatifShard = z.infer<typeof shardFile>;
export type MergedPlacement = z.infer<typeof placement>;

/** The whatif shard files in the inputs (files, or folders and the folders one level below them). */
export function whatifShardFiles(inputs: readonly string[]): string[] {
  const out: string[] = [];
  const scan = (dir: string, depth: number) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.isFile() && WHATIF_SHARD.test(e.name)) out.push(join(dir, e.name));
      else if (e.isDirectory() && depth === 0) scan(join(dir, e.name), 1);
    }
  };
  for (const i of inputs) {
    if (!existsSync(i)) continue;
    if (statSync(i).isDirectory()) scan(i, 0);
    else if (WHATIF_SHARD.test(i.split(/[\\/]/).pop() ?? '')) out.push(i);
  }
  return [...new Set(out)];
}

export interface MergedWhatif {
  file: string;
  settings: WhatifShard['settings'];
  shards: number;
  variants: number;
  results: MergedPlacement[];
}

/** The shards joined, or what is wrong with them. */
export function mergeWhatif(files: readonly string[]): { ok: true; merged: MergedWhatif } | { ok: false; message: string } {
  const loaded: { file: string; data: WhatifShard }[] = [];
  for (const f of files) {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(f, 'utf8'));
    } catch (e) {
      return { ok: false, message: `${f}: not a whatif shard result: ${(e as Error).message}` };
    }
    const parsed = shardFile.safeParse(data, { error: shardFileError });
    if (!parsed.success) return { ok: false, message: `${f}: not a whatif shard result (${parsed.error.issues[0].path.join('.')}: ${parsed.error.issues[0].message})` };
    loaded.push({ file: f, data: parsed.data });
  }
  const first = loaded[0];
  for (const l of loaded) {
    const same = l.data.file === first.data.file && JSON.stringify(l.data.settings) === JSON.stringify(first.data.settings) && l.data.variants === first.data.variants;
    if (!same) return { ok: false, message: `${first.file} and ${l.file} are shards of different whatif runs (the file, the settings or the plan differ): merge joins the shards of one run` };
    if (l.data.shard.count !== first.data.shard.count) return { ok: false, message: `${first.file} is one of ${first.data.shard.count} shards and ${l.file} one of ${l.data.shard.count}` };
  }
  const n = first.data.shard.count;
  const inOrder = shardsInOrder(loaded, n);
  if (!inOrder.ok) return inOrder;
  const results = inOrder.ordered.flatMap((l) => l.data.results);
  if (results.some((r, i) => r.n !== i + 1) || results.length !== first.data.variants) return { ok: false, message: 'the shards do not hold every variant of the plan once, in order: a shard file was cut short or edited' };
  return { ok: true, merged: { file: first.data.file, settings: first.data.settings, shards: n, variants: first.data.variants, results } };
}
