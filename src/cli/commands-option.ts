// `--commands` of check and explore: which operator command families run, and how often, so that
// `--forbid` gates what a team actually allows (no forced promotion, no restart of an old primary…).
//   NAME        that family, at its own weight      NAME=W   that family at weight W (0: left out)
//   -NAME       every family but that one            all      every family (the default; with
//               NAME=W, every family, that one reweighed)
//   safe        safe runbooks: never force a promotion, and promote only a set with no primary
//               left, crashed ones included (demote first)
import { families, FAMILY_NAMES } from '../explore/commands/index.js';
import { readFileSync } from 'node:fs';
import { didYouMean } from '../scenario/schema.js';
import { buildStart, type FromScenario, type ScenarioStart } from '../explore/start.js';

export interface CommandMix {
  /** The families that run (undefined: all). */
  families?: string[];
  /** Weights that differ from the families' own. */
  weights?: Record<string, number>;
  safe: boolean;
  /** The mix as normalised words, for headers, shard files and replay commands. */
  words: string;
}

const MAX_WEIGHT = 100;

export function parseCommands(given: string[] | undefined): { ok: true; mix: CommandMix } | { ok: false; message: string } {
  const none: CommandMix = { safe: false, words: 'all' };
  if (given === undefined) return { ok: true, mix: none };
  const words = given.flatMap((g) => g.split(',')).map((w) => w.trim()).filter((w) => w !== '');
  if (words.length === 0) return { ok: false, message: `--commands needs at least one of all, safe, ${FAMILY_NAMES.join(', ')} (NAME=W for a weight, -NAME to leave one out)` };
  const unknown = (name: string) => {
    const near = didYouMean(name, FAMILY_NAMES);
    return { ok: false as const, message: `--commands: unknown command family "${name}"${near ? `: did you mean "${near}"?` : ''} (families: ${FAMILY_NAMES.join(', ')}; also all, safe, NAME=W, -NAME)` };
  };
  let safe = false;
  let everyFamily = false;
  const named = new Set<string>();
  const left = new Set<string>();
  const weights: Record<string, number> = {};
  for (const w of words) {
    if (w === 'all') {
      everyFamily = true;
      continue;
    }
    if (w === 'safe') {
      safe = true;
      continue;
    }
    if (w.startsWith('-')) {
      const name = w.slice(1);
      if (!FAMILY_NAMES.includes(name)) return unknown(name);
      left.add(name);
      continue;
    }
    const m = /^([a-z-]+)(?:=(\d+))?$/.exec(w);
    if (!m) return { ok: false, message: `--commands: "${w}" is not NAME, NAME=W, -NAME, all or safe` };
    if (!FAMILY_NAMES.includes(m[1])) return unknown(m[1]);
    if (m[2] !== undefined) {
      const weight = Number(m[2]);
      if (weight > MAX_WEIGHT) return { ok: false, message: `--commands: ${m[1]}=${m[2]}: a weight is a whole number from 0 to ${MAX_WEIGHT}` };
      weights[m[1]] = weight;
      if (weight === 0) left.add(m[1]);
      else named.add(m[1]);
    } else named.add(m[1]);
  }
  // Naming families chooses them (unless `all` is named too); only leaving some out keeps the others.
  const chosen = (named.size > 0 && !everyFamily ? FAMILY_NAMES.filter((n) => named.has(n)) : FAMILY_NAMES).filter((n) => !left.has(n));
  if (chosen.length === 0) return { ok: false, message: '--commands leaves no command family to run' };
  const own = Object.fromEntries(families.map((f) => [f.family, f.weight]));
  const kept = Object.fromEntries(Object.entries(weights).filter(([n, w]) => chosen.includes(n) && w !== own[n]));
  const all = chosen.length === FAMILY_NAMES.length;
  const text = [...(all ? ['all'] : chosen.map((n) => (n in kept ? `${n}=${kept[n]}` : n))), ...(all ? Object.entries(kept).map(([n, w]) => `${n}=${w}`) : []), ...(safe ? ['safe'] : [])].join(',');
  return { ok: true, mix: { ...(all ? {} : { families: chosen }), ...(Object.keys(kept).length ? { weights: kept } : {}), safe, words: text } };
}

/**
 * `--from SCENARIO` of check and explore: the file read, loaded and run (its baseline must pass), and
 * the world its steps built kept for the runs. Exit 2 when it cannot be read or loaded (the loader's
 * file:line:column) or with a `--clusters` that is not its count; 1 when its baseline fails.
 */
export async function startFromOption(command: string, file: string, clusters: number | undefined, io: { err: (line: string) => void }): Promise<{ ok: true; from: FromScenario; start: ScenarioStart } | { ok: false; code: number }> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    io.err(`replsim ${command}: --from ${file}: cannot read it: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
    return { ok: false, code: 2 };
  }
  const from: FromScenario = { file, text };
  const built = await buildStart(from);
  if (!built.ok) {
    for (const line of built.problem.lines) io.err(line);
    return { ok: false, code: built.problem.code };
  }
  const start = built.start;
  if (clusters !== undefined && clusters !== start.clusters.length) {
    io.err(`replsim ${command}: --clusters ${clusters} and --from ${file} disagree: the scenario's topology has ${start.clusters.length} clusters the commands drive (${start.clusters.join(', ')}); leave --clusters out with --from`);
    return { ok: false, code: 2 };
  }
  return { ok: true, from, start };
}

/** How a header names a --from start: its clusters, versions and steps. */
export function startWords(start: ScenarioStart): string {
  const versions = start.clusters.map((c) => `${c} ${start.world.state.clusters.named(c).version}`).join(', ');
  const left = start.names.filter((n) => !start.clusters.includes(n));
  return `the world ${start.file} builds (world seed ${start.seed}): ${versions}${left.length ? `; left as it is, without an enterprise licence: ${left.join(', ')}` : ''}`;
}
