// Builds the clusters a world starts with, from a topology (the scenario file's `clusters` block)
// and the seeded generator. Every random value (ids, tokens, root key, shares) is drawn here, once,
// and written into the `world-created` event, so replay rebuilds the same clusters without drawing.
import { initialGenerationAttempt } from '../../../models/generation-attempt.machine.js';
import type { Rng } from '../../kernel/prng.js';
import { asFolder, namespaceOfPath } from './paths.js';
import { splitRootKey } from './crypto/shamir.js';
import type { WorldCreated } from './events.js';
import { emptyPluginCatalog } from '../plugins/plugins.js';
import { emptyReplication, type ClusterState, type License, type MountEntry, type MountType, type Policy, type TokenEntry } from './state.js';
import { emptySyncState } from '../sync/sync.js';

export interface ClusterSpec {
  version?: string;
  license?: License;
  keyShares?: number;
  keyThreshold?: number;
  namespaces?: string[];
  mounts?: Record<string, MountType | { type: MountType; local?: boolean }>;
  tokens?: Record<string, { namespace?: string; policy: Policy }>;
}

/** Cluster name → its options, as in a scenario file. */
export type Topology = Record<string, ClusterSpec>;

export const DEFAULT_VERSION = '1.16.0';

/** A service token: `hvs.` and 24 base62 characters, as the service issues them. */
export function newServiceToken(rng: Rng): string {
  return 'hvs.' + rng.base62(24);
}

function buildCluster(name: string, spec: ClusterSpec, rng: Rng): { cluster: ClusterState; rootToken: string; keys: string[]; named: Record<string, string> } {
  const keyShares = spec.keyShares ?? 5;
  const keyThreshold = spec.keyThreshold ?? 3;
  const rootKeyHex = Buffer.from(rng.bytes(32)).toString('hex');
  const keys = splitRootKey(rootKeyHex, keyShares, keyThreshold, rng);

  const namespaces: ClusterState['storage']['namespaces'] = {};
  // A namespace `team-a/dev` implies its parent `team-a`.
  const nsPaths = new Set<string>();
  for (const ns of spec.namespaces ?? []) {
    const parts = asFolder(ns).split('/').filter(Boolean);
    for (let i = 1; i <= parts.length; i++) nsPaths.add(parts.slice(0, i).join('/') + '/');
  }
  for (const path of [...nsPaths].sort()) namespaces[path] = { path, id: rng.base62(5) };

  const mounts: Record<string, MountEntry> = {};
  for (const [rawPath, m] of Object.entries(spec.mounts ?? { secret: 'kv-v2' })) {
    const path = rawPath.replace(/^\/+|\/+$/g, '') + '/';
    const type = typeof m === 'string' ? m : m.type;
    const local = typeof m === 'string' ? false : m.local === true;
    mounts[path] = {
      path,
      type,
      local,
      accessor: 'kv_' + Buffer.from(rng.bytes(4)).toString('hex'),
      uuid: rng.uuid(),
      namespace: namespaceOfPath(path, Object.keys(namespaces)),
    };
  }

  const tokens: Record<string, TokenEntry> = {};
  const named: Record<string, string> = {};
  const rootToken = newServiceToken(rng);
  named.root = rootToken;
  tokens[rootToken] = { id: rootToken, accessor: rng.base62(24), name: 'root', namespace: '', policy: 'root' };
  for (const [tokenName, t] of Object.entries(spec.tokens ?? {})) {
    const id = newServiceToken(rng);
    tokens[id] = { id, accessor: rng.base62(24), name: tokenName, namespace: asFolder(t.namespace), policy: t.policy };
    named[tokenName] = id;
  }

  const cluster: ClusterState = {
    name,
    version: spec.version ?? DEFAULT_VERSION,
    license: spec.license ?? 'enterprise',
    apiAddr: `https://${name}.replsim.test:8200`,
    clusterAddr: `https://${name}.replsim.test:8201`,
    storage: { namespaces, mounts, kv: {}, tokens, keyring: { rootKeyHex, threshold: keyThreshold, shares: keyShares } },
    wal: { last: 0, lastAt: 0 },
    replication: { dr: emptyReplication(), performance: emptyReplication() },
    generation: initialGenerationAttempt(keyThreshold),
    drOperationToken: null,
    merkle: { corrupted: { replicated: {}, local: {} }, lastReindexAt: null, lastCorruptionCheckAt: null, reindexUntil: null },
    signingSeed: Buffer.from(rng.bytes(32)).toString('hex'),
    secondaryKeys: {},
    sync: emptySyncState(),
    plugins: emptyPluginCatalog(),
  };
  return { cluster, rootToken, keys, named };
}

/** The first event of every world: its clusters as initialised, with every drawn value. */
export function genesisEvent(topology: Topology, seed: number, rng: Rng, latencyMs: number): WorldCreated {
  const clusters: ClusterState[] = [];
  const operators: WorldCreated['operators'] = {};
  // Sorted, so that the order clusters are written in a file does not change what each one draws.
  for (const name of Object.keys(topology).sort()) {
    const built = buildCluster(name, topology[name], rng);
    clusters.push(built.cluster);
    operators[name] = { rootToken: built.rootToken, keys: built.keys, tokens: built.named };
  }
  return { type: 'world-created', at: 0, seed, latencyMs, clusters, operators };
}
