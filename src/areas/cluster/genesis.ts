// Builds the clusters a world starts with, from a topology (the scenario file's `clusters` block)
// and the seeded generator. Every random value (ids, tokens, root key, shares) is drawn here, once,
// and written into the `world-created` event, so replay rebuilds the same clusters without drawing.
import { initialGenerationAttempt } from '../../../models/generation-attempt.machine.js';
import type { Rng } from '../../kernel/prng.js';
import { newServiceToken } from '../core/tokens.js';
import { asFolder, namespaceOfPath } from '../core/paths.js';
import { splitRootKey } from '../core/crypto/shamir.js';
import type { WorldCreated } from '../core/events.js';
import { emptyPluginCatalog } from '../plugins/plugins.js';
import { type AclPolicy, type ClusterState, type License, type MountEntry, type MountType, type Policy, type TokenEntry, type TokenRole } from '../core/state.js';
import { emptyReplication } from '../replication/state.js';
import { sealBatchToken } from '../core/crypto/batch-token.js';
import { policyText, readPolicy } from '../core/policy-text.js';
import { strictPolicyAttributes } from '../core/version-rules.js';
import { emptySyncState } from '../sync/sync.js';

export interface ClusterSpec {
  version?: string;
  license?: License;
  keyShares?: number;
  keyThreshold?: number;
  namespaces?: string[];
  mounts?: Record<string, MountType | { type: MountType; local?: boolean }>;
  tokens?: Record<string, TokenSpec>;
  /** Named ACL policies: HCL or JSON text, or path glob → capabilities. */
  policies?: Record<string, string | Policy>;
  /** Token roles, as `auth/token/roles/:name` takes them. */
  roles?: Record<string, Partial<Pick<TokenRole, 'allowed_policies' | 'disallowed_policies' | 'orphan' | 'renewable' | 'token_type'>>>;
  /** `enable_unauthenticated_access` of the server's configuration (2.x). */
  enableUnauthenticatedAccess?: string[];
}

/**
 * A token a cluster starts with: inline rules (`policy`), or, like one made through
 * `auth/token/create`, named `policies`, a `type` (service or batch), a `role` and a `ttl`.
 */
export interface TokenSpec {
  namespace?: string;
  policy?: Policy;
  policies?: string[];
  type?: 'service' | 'batch';
  role?: string;
  /** Seconds; 0 or absent: never expires. */
  ttl?: number;
}

/** Cluster name → its options, as in a scenario file. */
export type Topology = Record<string, ClusterSpec>;

export const DEFAULT_VERSION = '1.16.0';

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
  const plainTokens = Object.entries(spec.tokens ?? {}).filter(([, t]) => !madeLikeTheApi(t));
  for (const [tokenName, t] of plainTokens) {
    const id = newServiceToken(rng);
    tokens[id] = { id, accessor: rng.base62(24), name: tokenName, namespace: asFolder(t.namespace), policy: t.policy ?? {} };
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
  // What only newer files declare is drawn after everything else, so older files draw as they always did.
  declareAccess(cluster, spec, rng, named, tokens);
  return { cluster, rootToken, keys, named };
}

/** A token declared with what `auth/token/create` takes (named policies, type, role, ttl), not inline rules. */
function madeLikeTheApi(t: TokenSpec): boolean {
  return t.policies !== undefined || t.type !== undefined || t.role !== undefined || t.ttl !== undefined;
}

/** The policies, roles, API-style tokens and server settings a scenario declares for a cluster. */
function declareAccess(cluster: ClusterState, spec: ClusterSpec, rng: Rng, named: Record<string, string>, tokens: Record<string, TokenEntry>): void {
  if (spec.policies && Object.keys(spec.policies).length) {
    const policies: Record<string, AclPolicy> = {};
    for (const [raw, p] of Object.entries(spec.policies)) {
      const name = raw.toLowerCase();
      if (typeof p === 'string') {
        const read = readPolicy(p, strictPolicyAttributes(cluster.version));
        // The loader checked the text; a hand-built topology with a bad one is a programming error.
        if (!read.ok) throw new Error(`policy ${name}: ${read.error}`);
        policies[name] = { name, text: p, rules: read.rules };
      } else policies[name] = { name, text: policyText(p), rules: p };
    }
    cluster.storage.policies = policies;
  }
  if (spec.roles && Object.keys(spec.roles).length) {
    const roles: Record<string, TokenRole> = {};
    for (const [name, r] of Object.entries(spec.roles)) roles[name] = { ...defaultRole(name), ...r };
    cluster.storage.tokenRoles = roles;
  }
  for (const [tokenName, t] of Object.entries(spec.tokens ?? {})) {
    if (!madeLikeTheApi(t)) continue;
    const role = t.role !== undefined ? cluster.storage.tokenRoles?.[t.role] : undefined;
    const type = t.type ?? (role?.token_type === 'batch' || role?.token_type === 'default-batch' ? 'batch' : 'service');
    const asked = t.policies ?? role?.allowed_policies ?? [];
    const policies = [...new Set(['default', ...asked.map((p) => p.toLowerCase())])].sort();
    const ttl = t.ttl ?? 0;
    const expiresAt = ttl > 0 ? ttl * 1000 : null;
    const orphan = role?.orphan ?? true;
    const common = { name: tokenName, namespace: asFolder(t.namespace), policy: {}, policies, type, expiresAt, issuedAt: 0, creationTtl: ttl, orphan, role: t.role ?? '', displayName: `token-${tokenName}`, meta: {} } as const;
    if (type === 'batch') {
      const id = sealBatchToken({ policies, namespace: common.namespace, issuedAt: 0, expiresAt: expiresAt ?? Number.MAX_SAFE_INTEGER, orphan, role: common.role, displayName: common.displayName, meta: {} }, cluster.storage.keyring.rootKeyHex, rng);
      named[tokenName] = id;
    } else {
      const id = newServiceToken(rng);
      tokens[id] = { ...common, id, accessor: rng.base62(24), renewable: role?.renewable ?? true, meta: {} };
      named[tokenName] = id;
    }
  }
  if (spec.enableUnauthenticatedAccess && spec.enableUnauthenticatedAccess.length) cluster.serverConfig = { enableUnauthenticatedAccess: [...spec.enableUnauthenticatedAccess] };
}

/** A role with the service's defaults (`renewable` true, `token_type` default-service). */
export function defaultRole(name: string): TokenRole {
  return {
    name,
    allowed_policies: [],
    disallowed_policies: [],
    allowed_policies_glob: [],
    disallowed_policies_glob: [],
    orphan: false,
    renewable: true,
    token_type: 'default-service',
    token_explicit_max_ttl: 0,
    token_period: 0,
    token_num_uses: 0,
    token_no_default_policy: false,
    token_bound_cidrs: [],
    path_suffix: '',
    allowed_entity_aliases: [],
  };
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
