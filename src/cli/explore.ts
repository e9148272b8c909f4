// `replsim explore`: bounded exhaustive exploration. Every sequence of operator commands up to a
// depth, breadth first, states deduplicated up to renaming of clusters; the shortest trace to an
// invariant violation or a forbidden hazard is printed (or written with --out) as a scenario file.
// Exit 0 when none is found within the depth, 1 when one is, 2 misuse.
import { join } from 'node:path';
import type { Command } from 'commander';
import { MAX_CLUSTERS, MIN_CLUSTERS } from '../check/commands/index.js';
import { explore, type ExploreResult } from '../check/explore.js';
import { scenarioYaml, writeScenario } from '../check/export.js';
import { styleFor } from '../report/narrate.js';
import { HAZARD_IDS } from '../scenario/schema.js';
import { forbiddenHazards, wholeNumber } from './check.js';
import type { Io } from './run.js';

export interface ExploreCommandOptions {
  depth: number;
  clusters: number;
  forbid?: string[];
  seed: number;
  out?: string;
  color?: boolean;
}

export function registerExplore(program: Command, io: Io, setExit: (code: number) => void): void {
  program
    .command('explore')
    .description('explore every sequence of operator commands up to a depth, breadth first, and print the shortest trace to a violation or a forbidden hazard')
    .requiredOption('--depth <d>', 'commands per trace, at most', wholeNumber('--depth', 1, 50))
    .requiredOption('--clusters <k>', `clusters in the topology, ${MIN_CLUSTERS} to ${MAX_CLUSTERS}`, wholeNumber('--clusters', MIN_CLUSTERS, MAX_CLUSTERS))
    .option('--forbid <hazard...>', `hazards that count as findings (${HAZARD_IDS.join(', ')}); invariant violations always do`)
    .option('--seed <n>', "the world's seed", wholeNumber('--seed', 0), 1)
    .option('--out <dir>', 'write the shortest trace to DIR/trace.yaml instead of printing it')
    .option('--no-color', 'no colour even on a terminal (NO_COLOR is honoured too)')
    .action((opts: ExploreCommandOptions) => setExit(exploreCommand(opts, io)));
}

export function exploreCommand(opts: ExploreCommandOptions, io: Io): number {
  const st = styleFor(io.stdout, io.env, opts.color === false);
  const forbid = forbiddenHazards(opts.forbid);
  if (!forbid.ok) {
    io.err(`replsim explore: ${forbid.message}`);
    return 2;
  }
  io.out(`${st.bold('replsim explore')}: depth ${opts.depth}, ${opts.clusters} clusters, seed ${opts.seed}${forbid.ids.length ? `, forbidden: ${forbid.ids.join(', ')}` : ''}`);
  const result: ExploreResult = explore({
    depth: opts.depth,
    clusters: opts.clusters,
    forbid: forbid.ids,
    seed: opts.seed,
    onLevel: (l) => io.out(st.dim(`  depth ${l.depth}: ${l.distinct.toLocaleString('en-US')} distinct states, ${l.visited.toLocaleString('en-US')} visited, ${l.frontier.toLocaleString('en-US')} new`)),
  });
  const n = (x: number) => x.toLocaleString('en-US');
  io.out(`states visited: ${n(result.visited)}; distinct (up to renaming of clusters): ${n(result.distinct)}; depth reached: ${result.depthReached}`);
  io.out(`DR role combinations reached: ${result.roleVectors.covered} of ${result.roleVectors.total}`);
  const hazards = Object.entries(result.hazards);
  if (hazards.length) io.out(`hazards met (not forbidden): ${hazards.map(([id, c]) => `${id} ${c}x`).join(', ')}`);

  const f = result.finding;
  if (!f) {
    io.out(st.green(`valid: no invariant violated${forbid.ids.length ? ' and no forbidden hazard' : ''} within depth ${opts.depth}`));
    return 0;
  }
  const what = f.id ? `${f.kind} ${f.id}` : 'the service answered against the model';
  io.out(st.red(`invalid: shortest trace to ${what} (${f.trace.length} command${f.trace.length === 1 ? '' : 's'}):`));
  f.trace.forEach((w, i) => io.out(`  ${String(i + 1).padStart(2)}. ${w}`));
  io.out(`then: ${f.message.trim()}`);
  if (!f.reproduced) io.out(st.yellow('warning: running the trace again with the catalogue did not give the same finding'));
  if (opts.out) {
    const file = join(opts.out, 'trace.yaml');
    writeScenario(opts.out, { ...f.scenario, header: [...(f.scenario.header ?? []), `Replay: npx replsim run ${file}`] }, 'trace.yaml');
    io.out(`wrote ${file} (${f.scenario.steps.length} steps)`);
    io.out('replay it with:');
    io.out(`  npx replsim run ${file}`);
  } else {
    io.out(`as a scenario (${f.scenario.steps.length} steps; --out DIR writes it to DIR/trace.yaml):`);
    io.out('');
    for (const line of scenarioYaml(f.scenario).trimEnd().split('\n')) io.out(line);
  }
  return 1;
}
