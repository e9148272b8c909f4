// The operator-level commands, gathered from the areas (each area's `commands/`): the families
// fast-check draws from and the explorer enumerates, what the API can drive today (probed, not assumed), and the topology every property
// run and explorer starts from.
import fc from 'fast-check';
import type { ClusterSpec, Topology } from '../../areas/cluster/genesis.js';
import { World } from '../../world.js';
import { AREAS } from '../../areas.js';
import { gather } from '../../kernel/area.js';
import type { CommandFamily, OperatorCommand } from '../../areas/property/command.js';
import { CLUSTER_NAMES, MAX_CLUSTERS, MIN_CLUSTERS, type Capabilities, type Kind } from '../../areas/property/model.js';
import { keyOwnersOf, Operator, type OperatorOptions } from './operator.js';
import { memoBounded, once } from '../../kernel/memo.js';

export { OperatorCommand, type CommandFamily, type Prediction } from '../../areas/property/command.js';
export * from '../../areas/property/model.js';
export { FindingError, Operator, Ref, type ScriptStep } from './operator.js';

/** Every command family (each area's, src/areas.ts), in the order the explorer tries them. */
export const families: CommandFamily[] = gather(AREAS, 'commands');

export const FAMILY_NAMES = families.map((f) => f.family);

/** The families that change replication roles: enough to cover the product of role machines. */
export const ROLE_FAMILIES = ['enable-primary', 'issue-secondary-token', 'enable-secondary', 'promote', 'demote', 'disable'];

function selectFamilies(names?: readonly string[]): CommandFamily[] {
  if (!names) return families;
  const unknown = names.filter((n) => !FAMILY_NAMES.includes(n));
  if (unknown.length) throw new RangeError(`unknown command families: ${unknown.join(', ')} (known: ${FAMILY_NAMES.join(', ')})`);
  return families.filter((f) => names.includes(f.family));
}

/**
 * fast-check's command arbitraries, each repeated by its weight (fc.commands picks among them
 * evenly): the family's own, or the one `weights` gives it (0 leaves it out).
 */
export function commandArbitraries(caps: Capabilities, names?: readonly string[], weights?: Readonly<Record<string, number>>): fc.Arbitrary<OperatorCommand>[] {
  return selectFamilies(names).flatMap((f) => {
    const arb = f.arbitrary(caps);
    const weight = weights && Object.hasOwn(weights, f.family) ? weights[f.family] : f.weight;
    return arb ? Array.from({ length: weight }, () => arb) : [];
  });
}

/** Every command over a topology of `k` clusters: the explorer's finite domain. */
export function enumerateCommands(k: number, caps: Capabilities, names?: readonly string[]): OperatorCommand[] {
  return selectFamilies(names).flatMap((f) => f.enumerate(k, caps));
}

// ---------------------------------------------------------------------------------------------------
// What the API can drive

/**
 * Which kinds and endpoints the commands can drive, asked of the API once per process on a
 * throwaway world: performance replication and its paths filters are used only once they answer
 * something other than 501 (not built).
 */
export const probeCapabilities: () => Capabilities = once((): Capabilities => {
  const w = World.create({ a: {}, b: {} }, { seed: 1 });
  const token = w.state.operators.a.rootToken;
  const perf = w.request('a', { method: 'POST', path: 'sys/replication/performance/primary/enable', token });
  const kinds: Kind[] = perf.status === 501 ? ['dr'] : ['dr', 'performance'];
  let pathsFilter = false;
  if (perf.status >= 200 && perf.status < 300) {
    const filter = w.request('a', { method: 'POST', path: 'sys/replication/performance/primary/paths-filter/probe', body: { mode: 'deny', paths: ['apps/'] }, token });
    pathsFilter = filter.status !== 501;
  }
  return { kinds, pathsFilter };
});

/** The capabilities probed, narrowed by a caller (`kinds: ['dr']`); never widened past what the API answers. */
export function capabilitiesFor(wanted?: Partial<Capabilities>): Capabilities {
  const api = probeCapabilities();
  return {
    kinds: wanted?.kinds ? api.kinds.filter((k) => wanted.kinds!.includes(k)) : api.kinds,
    pathsFilter: api.pathsFilter && (wanted?.pathsFilter ?? true),
  };
}

// ---------------------------------------------------------------------------------------------------
// Topologies

/** What every cluster of a property topology holds: two replicated KV-v2 mounts and a local one. */
export const PROPERTY_CLUSTER: ClusterSpec = { mounts: { secret: 'kv-v2', apps: 'kv-v2', cache: { type: 'kv-v2', local: true } } };

/**
 * The versions of a property topology are mixed, as in an upgrade under way, so that a newer primary
 * replicating to an older secondary (hazard newer-primary) is reached: west runs a newer version than
 * the default, north an older one; the others the default.
 */
export const PROPERTY_VERSIONS: Readonly<Record<string, string>> = { west: '1.17.0', north: '1.15.0' };

/** One cluster of a property topology, by name. */
export function propertyCluster(name: string): ClusterSpec {
  const version = PROPERTY_VERSIONS[name];
  return version ? { ...PROPERTY_CLUSTER, version } : PROPERTY_CLUSTER;
}

export function clusterNames(k: number): string[] {
  if (!Number.isInteger(k) || k < MIN_CLUSTERS || k > MAX_CLUSTERS) throw new RangeError(`a topology has ${MIN_CLUSTERS} to ${MAX_CLUSTERS} clusters, not ${k}`);
  return CLUSTER_NAMES.slice(0, k);
}

export function propertyTopology(k: number): Topology {
  return Object.fromEntries(clusterNames(k).map((n) => [n, propertyCluster(n)]));
}

// Creating a world draws every cluster's keys and tokens (milliseconds); a fork of one created
// world is the same world (same state, same generator position) at no cost.
const template = memoBounded((key: string) => {
  const [k, seed] = key.split('|').map(Number);
  const world = World.create(propertyTopology(k), { seed });
  return { world, keyOwners: keyOwnersOf(world.state) };
}, 32);

/** A fresh world of `k` clusters and that seed, as `World.create` would build it, and an operator for it. */
export function freshOperator(k: number, seed: number, options: Omit<OperatorOptions, 'history' | 'keyOwners'> = {}): Operator {
  const t = template(`${k}|${seed}`);
  return new Operator(t.world.fork(), { ...options, history: t.world.log, keyOwners: t.keyOwners });
}
