// The bounded exhaustive explorer: every sequence of operator commands up to a depth, breadth
// first, over a small finite domain (which cluster, which kind, force or not, which wait), from one
// world. Branches are forks of the world (states are immutable, so a fork costs nothing). States are
// deduplicated by a canonical form that treats clusters symmetrically: the clusters of a topology
// are alike, so two states that differ only by a renaming of clusters are one. Breadth first, the
// first violation or forbidden hazard found has a shortest trace; it is exported as a scenario.
//
// The canonical form is an abstraction, as TLC's views are: it keeps what decides what the commands
// and monitors can do next (roles, sets, who follows whom, connection and sync, whether a secondary
// lags its primary, tokens issued and held, links, crashes, which key shares and root tokens work)
// and drops what does not (the values written, WAL numbers, ids, the clock except for token expiry).
import { createHash } from 'node:crypto';
import { modeOf } from '../../models/replication-role.machine.js';
import type { ClusterState, SimState } from '../areas/core/state.js';
import type { World } from '../world.js';
import { linkDown } from '../areas/replication/link.js';
import { ownsFirstLevel } from './shard.js';
import { catalogue } from '../check/catalogue.js';
import type { OperatorCommand } from '../areas/property/command.js';
import {
  capabilitiesFor,
  cloneModel,
  clusterNames,
  enumerateCommands,
  freshOperator,
  heldTokenFor,
  initialModel,
  ModelMismatch,
  redeemOutcome,
  type Capabilities,
  type Model,
} from './commands/index.js';
import { FindingError, keyOwnersOf, Operator, SharedRequests, type Ref } from './commands/operator.js';
import { withModelExpectation, type ScenarioExport } from './export.js';
import { unforbiddenHazards } from './property.js';
import { recordRun } from './property.js';
import type { Finding, Monitor } from '../areas/monitoring/types.js';
import { keyCount } from '../areas/core/keymap.js';
import { startHazards } from './property.js';
import { startModel, startOperator, type ScenarioStart } from './start.js';

export interface ExploreOptions {
  /** Commands per trace, at most. */
  depth: number;
  /** Clusters in the topology (2 to 5); with `start`, its count or absent. */
  clusters?: number;
  /** Explore from the world a scenario built (`--from`; start.ts buildStart) instead of fresh clusters. */
  start?: ScenarioStart;
  /** Hazard ids that count as findings; invariant violations always do. */
  forbid?: readonly string[];
  /** The world's seed (default 1). */
  seed?: number;
  /** Narrow what the commands drive (`kinds: ['dr']`). */
  capabilities?: Partial<Capabilities>;
  /** Only these command families (default all). */
  families?: readonly string[];
  /** Safe runbooks only: no forced promotion, and a promotion only where the set has no primary left. */
  safe?: boolean;
  /** Stop as soon as every combination of DR roles (3^clusters, up to renaming) has been reached. */
  stopWhenRolesCovered?: boolean;
  /**
   * What makes two states one (as TLC's VIEW): `full` (the default) keeps everything that decides
   * what can happen next; `roles` keeps only each cluster's replication modes, which is the product
   * of role machines that xstate/graph traverses (coarse: it merges states that differ in tokens
   * held or sync, so use it to cover roles, not to look for hazards).
   */
  view?: 'full' | 'roles';
  /** Stop after this many distinct states (default: no limit). */
  maxStates?: number;
  /** Called after each depth is done. */
  onLevel?: (level: { depth: number; frontier: number; distinct: number; visited: number }) => void;
  /**
   * Called after every transition with the running counts, so a caller can print progress as TLC
   * does (the explorer reads no clock: the caller decides how often to print).
   */
  onTick?: (tick: ExploreTick) => void;
  /** Asked after every transition; true stops the search (a time limit), with stoppedBy 'limit'. */
  shouldStop?: () => boolean;
  /**
   * One shard of the search (`--shard I/N`): the first level is expanded whole, but only the distinct
   * first-level states of ordinals I-1, I-1+N, … (in breadth-first order) are expanded further; the
   * others are marked seen, as they are another shard's (src/explore/shard.ts).
   */
  shard?: { index: number; count: number };
}

/** The running counts of a search: the depth being expanded, states, and states still queued. */
export interface ExploreTick {
  depth: number;
  visited: number;
  distinct: number;
  /** States waiting to be expanded: the rest of this level's frontier and the next level found so far. */
  queue: number;
}

/** A shortest trace to a finding, with the scenario that replays it. */
export interface ExploreFinding {
  kind: 'violation' | 'hazard' | 'mismatch';
  id?: string;
  message: string;
  finding?: Finding;
  /** The commands from the initial world, in an operator's words. */
  trace: string[];
  commands: OperatorCommand[];
  /** Whether running the trace again on a fresh world, with the catalogue's Watch, gave the same finding. */
  reproduced: boolean;
  scenario: ScenarioExport;
}

export interface ExploreResult {
  clusters: number;
  depth: number;
  /** States reached by a transition, duplicates included (each command tried from each distinct state). */
  visited: number;
  /** Distinct states, up to renaming of clusters (the initial state included). */
  distinct: number;
  /** The deepest level explored. */
  depthReached: number;
  /** Every state within `depth` was explored (no finding, no cap, no early stop). */
  complete: boolean;
  /** What stopped the search before it was complete, when nothing was found: maxStates, shouldStop, or every role combination reached. */
  stoppedBy?: 'max-states' | 'limit' | 'roles-covered';
  /**
   * Combinations of DR modes reached, one letter per cluster in the topology's order (`d`isabled,
   * `p`rimary, `s`econdary), renamings of reached ones included; and how many there are (3^clusters).
   */
  roleVectors: { covered: number; total: number; reached: string[] };
  /** Hazards met on the way that were not forbidden, per id (transitions on which each arose). */
  hazards: Record<string, number>;
  finding?: ExploreFinding;
  /**
   * A shard's distinct states (`--shard`), each as a digest of its canonical form with the
   * transitions tried from it (0: not expanded, at the depth bound). Shards overlap below the first
   * level (a state reached under two first-level states is found by both), so `replsim merge` counts
   * the union of these rather than summing `distinct` and `visited` (src/explore/merge-results.ts).
   */
  states?: [digest: string, transitions: number][];
}

interface Node {
  world: World;
  model: Model;
  roots: ReadonlyMap<string, Ref>;
  parent: Node | null;
  command: OperatorCommand | null;
  /** The monitors after they were shown every step of the path to this state, in catalogue order. */
  monitors: Monitor[];
  depth: number;
  /** A shard's digest of the state's canonical form (see ExploreResult.states). */
  digest?: string;
}

export function explore(options: ExploreOptions): ExploreResult {
  const start = options.start;
  if (start && options.clusters !== undefined && options.clusters !== start.clusters.length) throw new RangeError(`${start.file} drives ${start.clusters.length} clusters, not ${options.clusters}`);
  if (!start && options.clusters === undefined) throw new RangeError('explore needs a number of clusters or a start');
  const k = start ? start.clusters.length : options.clusters!;
  const names = start ? start.clusters : clusterNames(k);
  if (!Number.isInteger(options.depth) || options.depth < 0) throw new RangeError(`depth must be a whole number of at least 0, not ${options.depth}`);
  const seed = options.seed ?? 1;
  const caps = capabilitiesFor(options.capabilities);
  const forbid = new Set(options.forbid ?? []);
  const commands = enumerateCommands(k, caps, options.families);

  const first = start ? startOperator(start, { watch: false }) : freshOperator(k, seed, { watch: false });
  const keyOwners = start ? start.keyOwners : keyOwnersOf(first.world.state);
  const startingModel = start ? startModel(start, caps, options.safe ?? false) : initialModel(names, caps, options.safe ?? false);
  // From a scenario, the monitors go on from where they watched its steps.
  const monitors = start ? start.monitors.map((f) => f()) : catalogue.map((f) => f());
  const root: Node = { world: first.world, model: startingModel, roots: new Map(), parent: null, command: null, monitors, depth: 0 };

  const result: ExploreResult = {
    clusters: k,
    depth: options.depth,
    visited: 0,
    distinct: 1,
    depthReached: 0,
    complete: false,
    roleVectors: { covered: 0, total: 3 ** k, reached: [] },
    hazards: {},
  };
  const formOf = options.view === 'roles' ? (state: SimState, m: Readonly<Model>) => rolesForm(state, m) : canonicalForm;
  const seen = new Set<string>([formOf(root.world.state, root.model, root.roots)]);
  const roleVectors = new Set<string>();
  const cover = (state: SimState) => {
    for (const v of permutationsOf(names.map((n) => modeOf(state.clusters.named(n).replication.dr.role)[0]))) roleVectors.add(v.join(''));
    result.roleVectors.covered = roleVectors.size;
  };
  // A shard lists its distinct states (ExploreResult.states): digest → transitions tried from it.
  const states = options.shard ? new Map<string, number>() : null;
  const digestOf = (form: string) => createHash('sha256').update(form).digest('hex').slice(0, 24);
  if (states) {
    root.digest = digestOf([...seen][0]);
    states.set(root.digest, 0);
  }
  const done = () => {
    result.roleVectors.reached = [...roleVectors].sort();
    if (states) result.states = [...states];
    return result;
  };
  cover(root.world.state);

  const finish = (n: Node, cause: Pick<ExploreFinding, 'kind' | 'id' | 'message' | 'finding'>): ExploreResult => {
    result.depthReached = n.depth;
    result.finding = traceTo(n, cause, { k, seed, caps, forbid: [...forbid], depth: options.depth, start });
    return done();
  };

  let frontier: Node[] = [root];
  /** Distinct first-level states so far, in breadth-first order (a shard keeps every count-th). */
  let firstLevel = 0;
  for (let depth = 1; depth <= options.depth && frontier.length > 0; depth++) {
    const next: Node[] = [];
    for (const [at, node] of frontier.entries()) {
      if (states && node.digest) states.set(node.digest, 0);
      const visitedBefore = result.visited;
      // Commands that resolve to the same act on this state (the same cluster picked) are tried once.
      const tried = new Set<string>();
      // The commands tried from this state send some requests alike (a DR operation token's): each is sent once.
      const shared = new SharedRequests();
      for (const command of commands) {
        if (options.shouldStop?.()) {
          result.depthReached = depth;
          result.stoppedBy = 'limit';
          return done();
        }
        if (!command.check(node.model)) continue;
        // A refusal changes nothing (the property runs check that it does not): no new state.
        if (command.predict(node.model) === 'refuse') continue;
        const act = command.describe(node.model);
        if (tried.has(act)) continue;
        tried.add(act);

        const model = cloneModel(node.model);
        const op = new Operator(node.world.fork(), { watch: false, keyOwners, generatedRoots: node.roots, shared });
        const child: Node = { world: op.world, model, roots: op.generatedRoots, parent: node, command, monitors: node.monitors, depth };
        try {
          command.run(model, op);
        } catch (e) {
          if (!(e instanceof ModelMismatch)) throw e;
          return finish(child, { kind: 'mismatch', message: e.message });
        }
        child.world = op.world;
        result.visited++;
        if (states && node.digest) states.set(node.digest, result.visited - visitedBefore);
        options.onTick?.({ depth, visited: result.visited, distinct: result.distinct, queue: frontier.length - at - 1 + next.length });
        // The parent's monitors, forked, are shown this command's step: they remember the path.
        child.monitors = node.monitors.map((m) => m.fork());
        const observation = op.lastObservation!;
        for (const f of child.monitors.flatMap((m) => m.observe(observation))) {
          if (f.kind === 'violation' || forbid.has(f.id)) return finish(child, { kind: f.kind, id: f.id, message: f.message, finding: f });
          result.hazards[f.id] = (result.hazards[f.id] ?? 0) + 1;
        }
        const form = formOf(op.world.state, model, op.generatedRoots);
        if (seen.has(form)) continue;
        seen.add(form);
        if (depth === 1 && options.shard && !ownsFirstLevel(options.shard, firstLevel++)) continue;
        result.distinct++;
        if (states) {
          child.digest = digestOf(form);
          states.set(child.digest, 0);
        }
        next.push(child);
        cover(op.world.state);
        if (options.stopWhenRolesCovered && roleVectors.size === result.roleVectors.total) {
          result.depthReached = depth;
          result.stoppedBy = 'roles-covered';
          return done();
        }
        if (options.maxStates !== undefined && result.distinct >= options.maxStates) {
          result.depthReached = depth;
          result.stoppedBy = 'max-states';
          return done();
        }
      }
    }
    result.depthReached = depth;
    frontier = next;
    options.onLevel?.({ depth, frontier: next.length, distinct: result.distinct, visited: result.visited });
  }
  result.complete = true;
  return done();
}

/** The finding with its trace, re-run from a fresh world with the Watch and exported as a scenario. */
function traceTo(
  node: Node,
  cause: Pick<ExploreFinding, 'kind' | 'id' | 'message' | 'finding'>,
  run: { k: number; seed: number; caps: Capabilities; forbid: string[]; depth: number; start?: ScenarioStart },
): ExploreFinding {
  const commands: OperatorCommand[] = [];
  for (let n: Node | null = node; n && n.command; n = n.parent) commands.push(n.command);
  commands.reverse();
  const replayed = recordRun(run.k, run.seed, commands, { caps: run.caps, forbid: run.forbid, start: run.start });
  const names = run.start ? run.start.clusters : clusterNames(run.k);
  const trace = replayed.ran.map((c) => c.toString());
  const again = replayed.error;
  const reproduced =
    cause.kind === 'mismatch' ? again instanceof ModelMismatch : again instanceof FindingError && again.finding.id === cause.id && again.finding.kind === cause.kind;
  const what = cause.id ? `${cause.kind} ${cause.id}` : cause.kind;
  return {
    ...cause,
    trace,
    commands,
    reproduced,
    scenario: {
      name: `shortest trace to ${what}`,
      description: [
        `Found by replsim explore on ${names.join(', ')} (${run.start ? `after the steps of ${run.start.file}` : `seed ${run.seed}`}): a shortest sequence of operator commands to ${what}:`,
        ...trace.map((w, i) => `  ${i + 1}. ${w}`),
        `Then: ${cause.message}`,
        cause.kind === 'mismatch'
          ? 'Where the service answered against the model, the step expects what the model predicted, so it fails until the cause is fixed.'
          : 'It expects to pass, so it fails until the cause is fixed.',
      ].join('\n'),
      seed: run.start ? run.start.seed : run.seed,
      clusters: names,
      // A model mismatch's step expects what the model predicted, so the file fails until they agree.
      steps: withModelExpectation(replayed.steps, again instanceof ModelMismatch ? again.expected : undefined),
      hazards: startHazards(run.start, unforbiddenHazards(replayed.operator.findings, run.forbid)),
      ...(run.start ? { from: { file: run.start.file, text: run.start.text } } : {}),
      // The command as typed: --depth is required, and --forbid decides what counts as a finding.
      header: [`Shortest trace (${commands.length} commands) found by replsim explore ${exploreFlags(run)}.`],
    },
  };
}

/** The `replsim explore` flags that find the same trace again. */
function exploreFlags(run: { k: number; seed: number; forbid: string[]; depth: number; start?: ScenarioStart }): string {
  return [`--depth ${run.depth}`, run.start ? `--from ${run.start.file}` : `--clusters ${run.k}`, `--seed ${run.seed}`, ...(run.forbid.length ? [`--forbid ${run.forbid.join(' ')}`] : [])].join(' ');
}

// ---------------------------------------------------------------------------------------------------
// The canonical form

/** One cluster's part of a state: fields without names, and references to other clusters by index. */
interface ClusterRecord {
  /** Everything that names no other cluster, as text. */
  local: string;
  /** References to other clusters (indices), in a fixed order: whom it follows, whose keys and tokens it holds, tokens issued and held. */
  refs: number[];
  /** Replication set ids it belongs to, per kind (raw `cluster_id`s, renamed by order of appearance). */
  sets: string[];
}

function clusterRecords(state: SimState, m: Readonly<Model>, roots: ReadonlyMap<string, Ref>): ClusterRecord[] {
  const names = m.clusters;
  const index = (name: string | null | undefined) => (name == null ? -1 : names.indexOf(name));
  const rootKeys = new Map(names.map((n) => [state.clusters.named(n).storage.keyring.rootKeyHex, n] as const));
  return names.map((name) => {
    const c = state.clusters.named(name);
    const local: unknown[] = [m.up[name] ? 1 : 0, m.followed[name] ? 1 : 0, c.generation.value, Object.keys(c.storage.mounts).length, kvCount(c.storage.kv)];
    const refs: number[] = [];
    const sets: string[] = [];
    for (const kind of m.capabilities.kinds) {
      const r = c.replication[kind];
      const following = r.role === 'secondary.following' && r.primary !== null;
      const primary = following ? state.clusters.get(r.primary!) : null;
      local.push(r.role, r.connected ? 1 : 0, r.synced ? 1 : 0, r.syncState, primary && r.lastRemoteWal < primary.wal.last ? 'behind' : '', following && linkDown(state, kind, c) ? 'down' : '');
      local.push(m.learned[kind][name] ? 1 : 0, r.mirroredPerformance ? r.mirroredPerformance.role : '-');
      refs.push(following ? index(r.primary) : -1);
      sets.push(r.role === 'disabled' ? '' : r.clusterId);
      // Tokens issued, by the cluster they were issued for, with what became of each.
      const issued = Object.values(r.issued)
        .map((i) => ({ to: index(i.id.replace(/-\d+$/, '')), status: `${i.revoked ? 'r' : i.usedBy ? 'u' : 'a'}${i.filter ? i.filter.mode : ''}` }))
        .sort((a, b) => a.to - b.to || (a.status < b.status ? -1 : 1));
      local.push(issued.length);
      for (const i of issued) {
        refs.push(i.to);
        local.push(i.status);
      }
      // The credentials it presents (the token it activated with) and whether they are revoked.
      const cred = m.credentials[kind][name];
      const credToken = typeof cred === 'number' ? m.tokens[cred] : undefined;
      refs.push(credToken ? index(credToken.issuer) : -1);
      local.push(credToken ? `c${String(credToken.revoked)}${credToken.superseded ? 's' : ''}` : cred === 'unknown' ? 'c?' : 'c-', r.revokedCredentials?.length ?? 0);
      // The newest token the operator holds for this cluster, and whether it would still work.
      const held = heldTokenFor(m, kind, name);
      refs.push(held ? index(held.issuer) : -1);
      local.push(held ? redeemOutcome(m, held, name) : '-');
    }
    // Whose key shares open its keyring, and which root token works there.
    refs.push(index(rootKeys.get(c.storage.keyring.rootKeyHex)));
    const owner = names.find((n) => state.operators[n].rootToken in c.storage.tokens);
    refs.push(index(owner));
    const generated = roots.get(name);
    local.push(generated && generated.value in c.storage.tokens ? 'g' : '');
    return { local: local.join(';'), refs, sets };
  });
}

function kvCount(kv: ClusterState['storage']['kv']): number {
  let n = 0;
  for (const mount in kv) n += keyCount(kv[mount]);
  return n;
}

/**
 * The state's canonical form: its clusters' records under the renaming that gives the smallest
 * text. Only renamings that keep the clusters sorted by their name-free part are tried, which
 * leaves one for clusters that differ and all of them only among clusters that look alike.
 */
export function canonicalForm(state: SimState, m: Readonly<Model>, roots: ReadonlyMap<string, Ref>): string {
  const records = clusterRecords(state, m, roots);
  const links: [number, number][] = [];
  for (const key of Object.keys(state.network.cut)) {
    const bar = key.indexOf('|');
    links.push([m.clusters.indexOf(key.slice(0, bar)), m.clusters.indexOf(key.slice(bar + 1))]);
  }
  let best: string | null = null;
  for (const order of orderings(records.map((r) => r.local))) {
    const text = renderUnder(records, order, links);
    if (best === null || text < best) best = text;
  }
  return best!;
}

/** The records in the order given (order[new index] = old index), references and sets renamed to match. */
function renderUnder(records: ClusterRecord[], order: number[], links: [number, number][]): string {
  const rename = new Array<number>(order.length);
  for (let i = 0; i < order.length; i++) rename[order[i]] = i;
  const setNames = new Map<string, number>();
  let text = '';
  for (const old of order) {
    const r = records[old];
    text += r.local + '|';
    for (const x of r.refs) text += (x < 0 ? x : rename[x]) + ',';
    text += '|';
    for (const id of r.sets) {
      if (id === '') text += '-,';
      else {
        let n = setNames.get(id);
        if (n === undefined) setNames.set(id, (n = setNames.size));
        text += n + ',';
      }
    }
    text += '\n';
  }
  const cut = links.map(([a, b]) => (rename[a] < rename[b] ? `${rename[a]}-${rename[b]}` : `${rename[b]}-${rename[a]}`)).sort();
  return text + cut.join(',');
}

/** The `roles` view: each cluster's mode per kind, as a multiset (names do not matter). */
export function rolesForm(state: SimState, m: Readonly<Model>): string {
  return m.clusters
    .map((n) => m.capabilities.kinds.map((kind) => modeOf(state.clusters.named(n).replication[kind].role)[0]).join(''))
    .sort()
    .join(',');
}

/** Orderings of indices that sort the keys (ties in every order). */
function orderings(keys: string[]): number[][] {
  // Most states have clusters that all differ: one ordering, found by a plain sort.
  const byKey = keys.map((_, i) => i).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0));
  let ties = false;
  for (let i = 1; i < byKey.length && !ties; i++) ties = keys[byKey[i]] === keys[byKey[i - 1]];
  if (!ties) return [byKey];
  const sorted = keys.map((key, i) => ({ key, i })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  // Groups of equal keys, each permuted in every way.
  const groups: number[][] = [];
  for (const { key, i } of sorted) {
    const last = groups[groups.length - 1];
    if (last && keys[last[0]] === key) last.push(i);
    else groups.push([i]);
  }
  let out: number[][] = [[]];
  for (const g of groups) out = out.flatMap((prefix) => permutationsOf(g).map((p) => [...prefix, ...p]));
  return out;
}

/** Every ordering of a list. */
export function permutationsOf<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [items.slice()];
  const out: T[][] = [];
  items.forEach((item, i) => {
    for (const rest of permutationsOf([...items.slice(0, i), ...items.slice(i + 1)])) out.push([item, ...rest]);
  });
  return out;
}
