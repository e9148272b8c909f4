// The numbered tutorial for trainers (docs/tutorial/NN-*.md): every chapter builds on a gallery
// scenario that passes, its pictures are what replsim generates from that scenario now, and every
// exercise (docs/tutorial/exercises/*.yaml: the changed scenario, with the answer as its `expect`)
// gives the answer the chapter states. The README lists every chapter.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fillPictures, picturedScenarios } from '../src/report/tutorial.js';
import { formatScenarioError, loadScenario } from '../src/scenario/loader.js';
import { runScenario } from '../src/scenario/runner.js';

const ROOT = join(__dirname, '..');
const DIR = join(ROOT, 'docs', 'tutorial');
const chapters = readdirSync(DIR).filter((f) => /^\d\d-.+\.md$/.test(f)).sort();
const exercises = readdirSync(join(DIR, 'exercises')).filter((f) => f.endsWith('.yaml')).sort();

async function runFile(file: string) {
  const loaded = loadScenario(readFileSync(join(ROOT, file), 'utf8'), file);
  if (!loaded.ok) throw new Error(loaded.errors.map(formatScenarioError).join('\n'));
  return runScenario(loaded.scenario);
}

describe('tutorial', () => {
  it('has at least eight numbered chapters, each listed in the README', () => {
    expect(chapters.length).toBeGreaterThanOrEqual(8);
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const c of chapters) expect(readme, c).toContain(`docs/tutorial/${c}`);
  });

  it.each(chapters)('%s: its pictures are generated from its scenarios as they run now (npx tsx scripts/tutorial.ts)', async (chapter) => {
    const text = readFileSync(join(DIR, chapter), 'utf8');
    expect(picturedScenarios(text).length, 'a chapter draws at least one run').toBeGreaterThan(0);
    expect(await fillPictures(text, ROOT)).toBe(text);
    for (const f of picturedScenarios(text)) expect((await runFile(f)).reasons, f).toEqual([]);
  });

  it.each(chapters)('%s: has exercises, each with a checked answer file', (chapter) => {
    const text = readFileSync(join(DIR, chapter), 'utf8');
    const named = [...text.matchAll(/exercises\/(\S+?\.yaml)/g)].map((m) => m[1]);
    expect(named.length, 'at least one exercise').toBeGreaterThan(0);
    for (const e of named) expect(exercises, e).toContain(e);
  });

  it.each(exercises)('exercise %s gives the answer the chapter states', async (exercise) => {
    const run = await runFile(`docs/tutorial/exercises/${exercise}`);
    expect(run.reasons).toEqual([]);
    expect(run.verdict).toBe('valid');
  });
});
