// What every gallery scenario answers, recorded so that a change to how the clusters talk (the
// message bus of issue #11 item 6) can be shown to keep behaviour: each step's status and body,
// the verdict, and the final replicated data (every cluster's KV data and mounts, every external
// sync store). The event log itself is not part of it: explicit messages may change what it holds.
// `npx tsx test/gallery-outputs.ts` rewrites test/fixtures/gallery-outputs.json (only when the
// change in behaviour is intended, and said so in the commit).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenario, formatScenarioError } from '../src/scenario/loader.js';
import { runScenario } from '../src/scenario/runner.js';

export const GALLERY_DIR = join(import.meta.dirname, '..', 'scenarios');
export const FIXTURE = join(import.meta.dirname, 'fixtures', 'gallery-outputs.json');

export interface GalleryOutput {
  verdict: string;
  steps: { status: number | null; body: unknown }[];
  data: Record<string, { kv: unknown; mounts: string[] }>;
  stores: unknown;
}

export function galleryFiles(): string[] {
  return readdirSync(GALLERY_DIR).filter((f) => /^\d\d-.+\.yaml$/.test(f)).sort();
}

export async function galleryOutput(file: string): Promise<GalleryOutput> {
  const loaded = loadScenario(readFileSync(join(GALLERY_DIR, file), 'utf8'), `scenarios/${file}`);
  if (!loaded.ok) throw new Error(loaded.errors.map(formatScenarioError).join('\n'));
  const result = await runScenario(loaded.scenario);
  const state = result.world.state;
  const data: GalleryOutput['data'] = {};
  for (const cluster of state.clusters) {
    data[cluster.name] = { kv: cluster.storage.kv, mounts: Object.keys(cluster.storage.mounts).sort() };
  }
  // JSON round trip: the fixture compares plain data, as written to disk.
  return JSON.parse(
    JSON.stringify({
      verdict: result.verdict,
      steps: result.steps.map((s) => ({ status: s.response?.status ?? null, body: s.response?.body ?? null })),
      data,
      stores: state.stores,
    }),
  ) as GalleryOutput;
}

if (process.argv[1] && process.argv[1].endsWith('gallery-outputs.ts')) {
  const all: Record<string, GalleryOutput> = {};
  for (const file of galleryFiles()) all[file] = await galleryOutput(file);
  writeFileSync(FIXTURE, JSON.stringify(all, null, 1) + '\n');
  console.log(`wrote ${FIXTURE} (${Object.keys(all).length} scenarios)`);
}
