// `replsim whatif FILE`: is this runbook safe when things go wrong? Runs the runbook as written (it
// must pass), then every variant with faults placed between its steps and inside its waits, judges
// each (unsafe / stopped at a guard / ok), prints the matrix of step × fault kind and the verdict,
// and writes the shortest fatal variant as a scenario `replsim run` reproduces. Exit 0 robust,
// 1 fragile or a baseline that fails, 2 misuse (nothing written).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Command } from 'commander';
import { formatScenarioError, loadScenario } from '../scenario/loader.js';
import { didYouMean, HAZARD_IDS } from '../scenario/schema.js';
import { runScenario } from '../scenario/runner.js';
import { styleFor } from '../report/narrate.js';
import { parseShard, shardRange, type Shard } from '../explore/shard.js';
import { Whatif, type VariantResult, type WhatifSettings } from '../whatif/engine.js';
import { runVariants } from '../whatif/workers.js';
import { FAULT_KINDS, parseKinds, type FaultKind } from '../whatif/faults.js';
import { mergeWhatif } from '../whatif/merge.js';
import { publishVerdict } from './ci-out.js';
import type { Scenario } from '../scenario/schema.js';
import { variantYaml } from '../whatif/export.js';
import { heatmapHtml } from '../whatif/heatmap.js';
import { buildMatrix, matrixLines, variantJson, variantWords, whatifAnnotation, whatifJunit } from '../whatif/report.js';
import { wholeNumber } from './check.js';
import { count, formatWall } from './progress.js';
import { colourOptions, type Io } from './run.js';

export interface WhatifOptions {
  faults: number;
  kinds?: string[];
  forbid?: string[];
  seed?: number;
  budget: number;
  workers?: number;
  shard?: string;
  out?: string;
  json?: boolean;
  junit?: string;
  strict?: boolean;
  color?: boolean;
}

/** The hazards forbidden when --forbid is not given (a revoked secondary re-admitted is the invariant revoked-stays-barred: always fatal). */
export const DEFAULT_FORBID = ['two-primaries', 'lost-writes'] as const;

export function registerWhatif(program: Command, io: Io, setExit: (code: number) => void): void {
  const command = program
    .command('whatif')
    .description('run a runbook with faults placed between its steps and inside its waits: is it safe when things go wrong?')
    .argument('<file>', 'the runbook: a scenario file (format 1) that passes as written')
    .option('--faults <n>', 'faults per variant: 1 (every placement) or 2 (every pair up to --budget, else a seeded sample)', wholeNumber('--faults', 1, 2), 1)
    .option('--kinds <kind...>', `fault kinds to place (${FAULT_KINDS.join(', ')}); default: all that replsim simulates`)
    .option('--forbid <hazard...>', `hazards that make a variant unsafe (default ${DEFAULT_FORBID.join(', ')}); invariant violations (revoked-stays-barred among them) always do`)
    .option('--seed <n>', "the worlds' seed and the pair sample's (default: the file's)", wholeNumber('--seed', 0))
    .option('--budget <n>', 'most pairs tried with --faults 2 before sampling', wholeNumber('--budget', 1), 20_000)
    .option('--workers <n>', 'threads running the variants (default 1); the variants, outcomes and exported file are the same for any number', wholeNumber('--workers', 1, 256))
    .option('--shard <i/n>', 'run only shard I of N of the variants (a CI matrix job); writes DIR/whatif-shard-I-of-N.json with --out')
    .option('--out <dir>', 'write report.html (the heat map), the shortest fatal variant as whatif-<n>.yaml, and whatif.json')
    .option('--json', 'print one JSON object per placement, then one with the verdict')
    .option('--junit <file>', 'write JUnit XML: one testcase per placement')
    .option('--strict', 'fail (exit 1) also when a placement stopped at one of the runbook\'s guards');
  colourOptions(command);
  command.action(async (file: string, opts: WhatifOptions) => setExit(await whatifCommand(file, opts, io)));
}

function parseForbid(given: string[] | undefined): { ok: true; ids: string[] } | { ok: false; message: string } {
  if (given === undefined) return { ok: true, ids: [...DEFAULT_FORBID] };
  const ids = given.flatMap((g) => g.split(',')).map((g) => g.trim()).filter((g) => g !== '');
  for (const id of ids) {
    if ((HAZARD_IDS as readonly string[]).includes(id)) continue;
    const near = didYouMean(id, HAZARD_IDS);
    return { ok: false, message: `unknown hazard "${id}"${near ? `: did you mean "${near}"?` : ''} (--forbid takes ${HAZARD_IDS.join(', ')})` };
  }
  return { ok: true, ids: [...new Set(ids)] };
}

export async function whatifCommand(file: string, opts: WhatifOptions, io: Io): Promise<number> {
  const json = opts.json === true;
  const st = styleFor(io.stdout, io.env, json ? false : opts.color);
  const fail = (message: string) => {
    io.err(`replsim whatif: ${message}`);
    return 2;
  };
  // Every usage error is found before anything runs or is written.
  const kinds = parseKinds(opts.kinds, (w, valid) => didYouMean(w, valid) ?? null);
  if (!kinds.ok) return fail(kinds.message);
  const forbid = parseForbid(opts.forbid);
  if (!forbid.ok) return fail(forbid.message);
  let shard: Shard | undefined;
  if (opts.shard !== undefined) {
    const parsed = parseShard(opts.shard);
    if (!parsed.ok) return fail(parsed.message);
    if (opts.out === undefined) return fail("--shard needs --out DIR: the shard's result is written there");
    shard = parsed.shard;
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return fail(`${file}: cannot read: ${(e as Error).message}`);
  }
  const loaded = loadScenario(text, file);
  if (!loaded.ok) {
    for (const e of loaded.errors) io.err(formatScenarioError(e));
    io.err(`${file}: not run: ${loaded.errors.length} error${loaded.errors.length === 1 ? '' : 's'} in the file`);
    return 2;
  }
  const scenario = loaded.scenario;
  const seed = opts.seed ?? scenario.seed;
  const faults = opts.faults === 2 ? 2 : 1;
  const settings: WhatifSettings = { faults, kinds: kinds.kinds, forbid: forbid.ids, seed, budget: opts.budget };
  const whatif = new Whatif(scenario, settings, loaded.locate);
  const lineOf = (i: number) => (i < scenario.steps.length ? loaded.locate(['steps', i]).line || undefined : undefined);
  const started = performance.now();

  const { result: baseline, singles, pruned } = await whatif.baseline();
  if (!baseline.ok) {
    if (json) io.out(JSON.stringify({ type: 'verdict', verdict: 'baseline-fails', reasons: baseline.reasons }));
    else {
      io.out(st.red(`baseline fails: ${file} does not pass as written, so no variant was run`));
      for (const r of baseline.reasons) io.out(`  • ${r}`);
      io.out(st.dim(`see it step by step: npx replsim run ${file} --seed ${seed}`));
    }
    return 1;
  }
  const plan = whatif.plan(singles, pruned);
  const range = shard ? shardRange(plan.variants.length, shard) : { from: 0, to: plan.variants.length };
  const tried = range.to - range.from;
  const pairWords = plan.pairs.mode === 'none' ? '' : plan.pairs.mode === 'exhaustive' ? `, and all ${count(plan.pairs.total)} pairs (exhaustive)` : `, and a seeded sample of ${count(opts.budget)} of the ${count(plan.pairs.total)} pairs (sampled: more than --budget ${count(opts.budget)})`;
  const prunedWords = `pruned: ${count(pruned.neverTalk)} between nodes that never talk, ${count(pruned.quiet)} quiet offsets inside waits, ${count(pruned.noEffect)} with no effect, ${count(pruned.symmetric)} symmetric`;
  if (!json) {
    io.out(`${st.bold('replsim whatif')} ${file}: the baseline passes (${scenario.steps.length} steps); seed ${seed}`);
    io.out(`placements: ${count(singles.length)} single faults${pairWords}; ${prunedWords}`);
    if (shard) io.out(`shard ${shard.index} of ${shard.count}: variants ${range.from + 1} to ${range.to}`);
  }

  const results: VariantResult[] = [];
  let lastQuarter = 0;
  await runVariants({ whatif, plan, picture: baseline.picture, range, workers: opts.workers ?? 1, runbook: { file, text, settings } }, (r) => {
    results.push(r);
    if (json) io.out(JSON.stringify(variantJson(r, scenario.steps)));
    // Progress goes to stderr, so stdout stays the result (and --json one object a line).
    const quarter = Math.floor((results.length / Math.max(1, tried)) * 4);
    if (quarter > lastQuarter && results.length < tried) {
      lastQuarter = quarter;
      io.err(`  ${count(results.length)}/${count(tried)} variants, ${formatWall(performance.now() - started)}`);
    }
  });
  const wallMs = performance.now() - started;
  const unsafe = results.filter((r) => r.outcome === 'unsafe');
  const stopped = results.filter((r) => r.outcome === 'stopped');
  const fragile = unsafe.length > 0;
  const code = fragile || (opts.strict && stopped.length > 0) ? 1 : 0;
  const verdict = fragile ? 'fragile' : 'robust';
  const matrix = buildMatrix(results, scenario.steps, lineOf);
  // The shortest fatal variant: the fewest steps to show it, the first in plan order among equals.
  const fatal = unsafe.slice().sort((a, b) => a.actions.length - b.actions.length || a.n - b.n)[0];
  const first = unsafe[0];
  const summary = `${count(results.length)} placements tried: ${count(unsafe.length)} unsafe, ${count(stopped.length)} stopped at a guard, ${count(results.length - unsafe.length - stopped.length)} ok (${formatWall(wallMs)})`;

  let exported: string | null = null;
  let reproduced: string | null = null;
  const written: string[] = [];
  if (opts.out !== undefined) {
    try {
      mkdirSync(opts.out, { recursive: true });
      if (fatal && !shard) ({ path: exported, check: reproduced } = await writeVariant(opts.out, file, text, fatal, scenario.steps, seed));
      const page = heatmapHtml({ file, verdict: `${verdict}${fragile ? `: ${unsafe.length} placement${unsafe.length === 1 ? '' : 's'} unsafe` : ''}`, summary, matrix, results, steps: scenario.steps });
      writeFileSync(join(opts.out, 'report.html'), page);
      written.push(join(opts.out, 'report.html'));
      const content = { format: 1, command: 'whatif', file, settings: { faults, kinds: kinds.kinds, forbid: forbid.ids, seed, budget: opts.budget }, shard: shard ?? null, variants: plan.variants.length, range, pairs: plan.pairs, pruned, verdict, results: results.map((r) => variantJson(r, scenario.steps)) };
      const name = shard ? `whatif-shard-${shard.index}-of-${shard.count}.json` : 'whatif.json';
      writeFileSync(join(opts.out, name), JSON.stringify(content, null, 1) + '\n');
      written.push(join(opts.out, name));
    } catch (e) {
      io.err(`replsim whatif: cannot write to ${opts.out}: ${(e as Error).message}`);
      return 2;
    }
  }
  if (opts.junit !== undefined) {
    try {
      mkdirSync(dirname(resolve(opts.junit)), { recursive: true });
      writeFileSync(opts.junit, whatifJunit(file, results, scenario.steps, lineOf, opts.strict === true));
      written.push(opts.junit);
    } catch (e) {
      io.err(`replsim whatif: cannot write --junit ${opts.junit}: ${(e as Error).message}`);
      return 2;
    }
  }

  if (json) {
    io.out(
      JSON.stringify({
        type: 'verdict',
        verdict,
        exitCode: code,
        placements: results.length,
        unsafe: unsafe.length,
        stopped: stopped.length,
        ok: results.length - unsafe.length - stopped.length,
        singles: singles.length,
        pairs: plan.pairs,
        pruned,
        shard: shard ?? null,
        first: first ? variantJson(first, scenario.steps) : null,
        exported,
        wallMs: Math.round(wallMs),
      }),
    );
  } else {
    io.out('');
    for (const l of matrixLines(matrix, st)) io.out(l);
    io.out('');
    io.out(summary);
    if (fragile) {
      io.out(st.red(`fragile: ${unsafe.length} placement${unsafe.length === 1 ? '' : 's'} unsafe; the first: ${variantWords(first, scenario.steps)}`));
      io.out(`  → ${first.reason}`);
      if (exported) {
        io.out(`wrote ${exported} (the shortest fatal variant)`);
        if (reproduced) io.out(reproduced);
        io.out(`replay it with: npx replsim run ${exported}`);
      } else if (!shard) io.out(st.dim('--out DIR writes the shortest fatal variant as DIR/whatif-<n>.yaml'));
    } else {
      io.out(st.green(`robust: no placement unsafe${stopped.length ? ` (${stopped.length} stopped at one of the runbook's guards${opts.strict ? ', which --strict counts as failures' : ''})` : ''}`));
    }
    for (const w of written) io.out(st.dim(`wrote ${w}`));
  }
  // GitHub Actions annotates the runbook's line where the first fatal placement starts.
  if (io.env.GITHUB_ACTIONS === 'true' && first) {
    const line = lineOf(Math.min(first.faults[0].placement.step, scenario.steps.length - 1));
    (json ? io.err : io.out)(whatifAnnotation(file, line, `${variantWords(first, scenario.steps)}: ${first.reason}`));
  }
  return code;
}

/** Writes a fatal variant as `DIR/whatif-<n>.yaml` and runs it as `replsim run` would. */
async function writeVariant(dir: string, file: string, text: string, fatal: VariantResult, steps: Scenario['steps'], seed: number): Promise<{ path: string; check: string }> {
  const path = join(dir, `whatif-${fatal.n}.yaml`);
  const header = [`Written by replsim whatif ${file} (variant ${fatal.n}): ${variantWords(fatal, steps)}.`, `It ended unsafe: ${fatal.reason.replace(/\s+/g, ' ')}`, `Replay: npx replsim run ${path}`];
  writeFileSync(path, variantYaml(text, fatal, header, seed));
  return { path, check: await reproduces(path, fatal) };
}

/**
 * `replsim merge` of whatif shards: the verdict of the whole run; with --out the shortest fatal
 * variant is run again from the runbook (the plan is the same in every shard) and written.
 */
export async function mergeWhatifCommand(files: string[], opts: { out?: string; json?: boolean; junit?: string; color?: boolean }, io: Io): Promise<number> {
  const st = styleFor(io.stdout, io.env, opts.json ? false : opts.color);
  const merged = mergeWhatif(files);
  if (!merged.ok) {
    io.err(`replsim merge: ${merged.message}`);
    return 2;
  }
  const m = merged.merged;
  const unsafe = m.results.filter((r) => r.outcome === 'unsafe');
  const stopped = m.results.filter((r) => r.outcome === 'stopped').length;
  const verdict = unsafe.length ? 'fragile' : 'robust';
  const fatal = unsafe.slice().sort((a, b) => a.length - b.length || a.n - b.n)[0];
  let exported: string | null = null;
  if (fatal && opts.out !== undefined) {
    let text: string;
    try {
      text = readFileSync(m.file, 'utf8');
    } catch (e) {
      io.err(`replsim merge: the runbook ${m.file} cannot be read to write the fatal variant: ${(e as Error).message}`);
      return 2;
    }
    const loaded = loadScenario(text, m.file);
    if (!loaded.ok) {
      io.err(`replsim merge: the runbook ${m.file} no longer loads: ${formatScenarioError(loaded.errors[0])}`);
      return 2;
    }
    const s = m.settings;
    const whatif = new Whatif(loaded.scenario, { faults: s.faults === 2 ? 2 : 1, kinds: s.kinds as FaultKind[], forbid: s.forbid, seed: s.seed, budget: s.budget }, loaded.locate);
    const { result: baseline, singles, pruned } = await whatif.baseline();
    const plan = whatif.plan(singles, pruned);
    let again: VariantResult | null = null;
    if (baseline.ok && plan.variants.length === m.variants) await whatif.run(plan, baseline.picture, { from: fatal.n - 1, to: fatal.n }, (r) => (again = r));
    if (!again || (again as VariantResult).outcome !== 'unsafe') {
      io.err(`replsim merge: ${m.file} changed since the shards ran: variant ${fatal.n} is not what they recorded`);
      return 2;
    }
    mkdirSync(opts.out, { recursive: true });
    const w = await writeVariant(opts.out, m.file, text, again, loaded.scenario.steps, s.seed);
    exported = w.path;
    if (!opts.json) io.out(`${w.check}`);
  }
  const summary = `${count(m.results.length)} placements tried in ${m.shards} shards: ${count(unsafe.length)} unsafe, ${count(stopped)} stopped at a guard, ${count(m.results.length - unsafe.length - stopped)} ok`;
  if (opts.json) io.out(JSON.stringify({ type: 'verdict', command: 'whatif', verdict, file: m.file, shards: m.shards, placements: m.results.length, unsafe: unsafe.length, stopped, first: unsafe[0] ?? null, exported }));
  else {
    io.out(`${st.bold('replsim merge')}: ${m.shards} shard${m.shards === 1 ? '' : 's'} of replsim whatif ${m.file} --faults ${m.settings.faults} --seed ${m.settings.seed}`);
    io.out(summary);
    if (unsafe.length) {
      io.out(st.red(`fragile: ${unsafe.length} placement${unsafe.length === 1 ? '' : 's'} unsafe; the first (variant ${unsafe[0].n}): ${unsafe[0].reason}`));
      if (exported) io.out(`wrote ${exported} (the shortest fatal variant); replay it with: npx replsim run ${exported}`);
    } else io.out(st.green('robust: no placement unsafe'));
  }
  const ci = publishVerdict(io, opts, {
    command: 'replsim merge',
    name: `${m.shards} shards of replsim whatif ${m.file} --seed ${m.settings.seed}`,
    verdict: unsafe.length ? 'invalid' : 'valid',
    ...(unsafe.length ? { finding: { type: 'unsafe', message: `variant ${unsafe[0].n}: ${unsafe[0].reason}`, file: exported } } : {}),
    wallMs: 0,
  });
  return Math.max(unsafe.length ? 1 : 0, ci);
}

/** Runs the written variant as `replsim run` would: does it fail as the variant did? */
async function reproduces(path: string, v: VariantResult): Promise<string> {
  const loaded = loadScenario(readFileSync(path, 'utf8'), path);
  if (!loaded.ok) return `warning: the written variant does not load: ${formatScenarioError(loaded.errors[0])}`;
  const run = await runScenario(loaded.scenario, { locate: loaded.locate });
  if (run.verdict === 'valid') return `warning: replsim run on it passes: the variant does not reproduce from the file`;
  const ids = v.findings.map((f) => f.id);
  const same = v.cause === 'stuck' || v.cause === 'error' ? true : run.findings.some((f) => ids.includes(f.id));
  return same ? `checked: replsim run on it fails (${run.reasons[0]})` : `warning: replsim run on it fails otherwise (${run.reasons[0]})`;
}
