// The model the operator-level commands run against: what an operator who watched every request
// would know about the topology (each cluster's replication role per kind, which set it belongs to,
// whom it follows, the activation tokens in the operator's pocket, partitions and crashes). It is
// far simpler than the world: it knows nothing of WAL indices, sync progress or merkle trees, so
// where those decide an outcome the commands accept either answer and learn from it.
import { modeOf, type RoleValue } from '../../../models/replication-role.machine.js';
import type { ReplicationKind, SimState } from '../core/state.js';
import { linkKey } from '../../kernel/network.js';
import type { Ref } from './answer.js';

export type Kind = ReplicationKind;

/** How the spec and the service name each kind in prose (one vocabulary: src/areas/core/vocabulary.ts). */
export { KIND_WORD } from '../core/vocabulary.js';
import { KIND_WORD } from '../core/vocabulary.js';

/** Cluster names of the topologies the commands drive, in order; a topology of K uses the first K. */
export const CLUSTER_NAMES = ['east', 'west', 'south', 'north', 'central'] as const;
export const MIN_CLUSTERS = 2;
export const MAX_CLUSTERS = CLUSTER_NAMES.length;

/** An activation token's default ttl (the spec's `30m`): after it, redeeming the token fails. */
export const TOKEN_TTL_MS = 30 * 60_000;

/** One kind of replication on one cluster, as the operator knows it. */
export interface RoleModel {
  role: RoleValue;
  /** The model's number for the replication set (equal numbers: equal `cluster_id`), -1 when never in one. */
  set: number;
  /** For a following secondary: the cluster it follows. */
  follows: string | null;
}

/** An activation token the operator holds, saved from `wrap_info.token`. */
export interface HeldToken {
  kind: Kind;
  issuer: string;
  /** The secondary id it was issued for. */
  id: string;
  /** The cluster the operator means to activate with it. */
  for: string;
  token: Ref;
  issuedAt: number;
  /** The issuer's bookkeeping epoch at issue: enabling, disabling or wiping the issuer forgets every token it issued. */
  epoch: number;
  /** Redeemed once (a token activates one secondary once). */
  used: boolean;
  /** A newer token for the same id replaced it on the issuer. */
  superseded: boolean;
  /**
   * The credentials it gave were revoked: by its issuer (`true`), or perhaps by a primary that took up
   * a list of known secondaries the model did not follow (`maybe`). A revocation bars the
   * credentials in the whole replication set, whichever primary they are presented to.
   */
  revoked: boolean | 'maybe';
}

/** What the generated commands may use: probed once from the API, never assumed. */
export interface Capabilities {
  kinds: Kind[];
  /** The performance paths-filter endpoints answer (not 501). */
  pathsFilter: boolean;
}

export interface Model {
  clusters: string[];
  capabilities: Capabilities;
  /** Safe runbooks: never `force`, and promote only when no cluster of the set is a primary (demote first). */
  safe: boolean;
  /** Virtual time, moved only by waits: it equals the world's clock. */
  now: number;
  up: Record<string, boolean>;
  /** Cut links by `linkKey`. */
  cut: Record<string, true>;
  roles: Record<Kind, Record<string, RoleModel>>;
  /** Per kind, issuer → secondary id → whether the issuer still honours it. */
  issued: Record<Kind, Record<string, Record<string, 'active' | 'revoked'>>>;
  /** Per kind, issuer → the id most recently issued for each cluster. */
  lastIdFor: Record<Kind, Record<string, Record<string, string>>>;
  /** Per kind, issuer → bookkeeping epoch (see HeldToken.epoch). */
  epoch: Record<Kind, Record<string, number>>;
  tokens: HeldToken[];
  /**
   * Whether the cluster ever followed a primary (enabled as a secondary, or re-pointed): its storage
   * may since be a wiped one, or its primary's, so its mounts and tokens depend on sync.
   */
  followed: Record<string, boolean>;
  /**
   * Per kind, clusters whose replication state the model took from the world rather than predicted
   * (how DR carries a cluster's performance replication through demotion and promotion): tokens
   * they issued may be honoured or not, so the model no longer predicts their redemption.
   */
  learned: Record<Kind, Record<string, boolean>>;
  /**
   * Per kind, the credentials each secondary presents to a primary: the held token it last activated
   * or re-pointed with (an index into `tokens`), `unknown` when the model took the role from the world,
   * null when it has none (never activated, or told to forget its primary).
   */
  credentials: Record<Kind, Record<string, number | 'unknown' | null>>;
  /** The next replication set number. */
  nextSet: number;
  /** Writes made so far: each writes a new value. */
  writes: number;
  /**
   * The root-namespace mounts (`secret/`) each cluster held when the model took it over from a world
   * someone else built (a scenario's); null on a property topology, where every cluster holds the
   * same three. Fixed: no command mounts or unmounts, and a cluster that follows a primary since is
   * `followed` (its mounts are then its primary's).
   */
  mounts: Readonly<Record<string, readonly string[]>> | null;
}

export function initialModel(clusters: string[], capabilities: Capabilities, safe = false): Model {
  const perCluster = <T>(f: () => T) => Object.fromEntries(clusters.map((c) => [c, f()])) as Record<string, T>;
  const perKind = <T>(f: () => T) => ({ dr: f(), performance: f() }) as Record<Kind, T>;
  return {
    clusters,
    capabilities,
    safe,
    now: 0,
    up: perCluster(() => true),
    cut: {},
    roles: perKind(() => perCluster<RoleModel>(() => ({ role: 'disabled', set: -1, follows: null }))),
    issued: perKind(() => perCluster(() => ({}))),
    lastIdFor: perKind(() => perCluster(() => ({}))),
    epoch: perKind(() => perCluster(() => 0)),
    tokens: [],
    followed: perCluster(() => false),
    learned: perKind(() => perCluster(() => false)),
    credentials: perKind(() => perCluster<number | 'unknown' | null>(() => null)),
    nextSet: 0,
    writes: 0,
    mounts: null,
  };
}

/** A deep copy, written out by hand: the explorer copies a model per transition. */
export function cloneModel(m: Model): Model {
  const copyRoles = (r: Record<string, RoleModel>) => {
    const out: Record<string, RoleModel> = {};
    for (const c in r) out[c] = { ...r[c] };
    return out;
  };
  const copyNested = <T>(r: Record<string, Record<string, T>>) => {
    const out: Record<string, Record<string, T>> = {};
    for (const c in r) out[c] = { ...r[c] };
    return out;
  };
  return {
    clusters: m.clusters,
    capabilities: m.capabilities,
    safe: m.safe,
    now: m.now,
    up: { ...m.up },
    cut: { ...m.cut },
    roles: { dr: copyRoles(m.roles.dr), performance: copyRoles(m.roles.performance) },
    issued: { dr: copyNested(m.issued.dr), performance: copyNested(m.issued.performance) },
    lastIdFor: { dr: copyNested(m.lastIdFor.dr), performance: copyNested(m.lastIdFor.performance) },
    epoch: { dr: { ...m.epoch.dr }, performance: { ...m.epoch.performance } },
    tokens: m.tokens.map((t) => ({ ...t })),
    followed: { ...m.followed },
    learned: { dr: { ...m.learned.dr }, performance: { ...m.learned.performance } },
    credentials: { dr: { ...m.credentials.dr }, performance: { ...m.credentials.performance } },
    nextSet: m.nextSet,
    writes: m.writes,
    mounts: m.mounts,
  };
}

/**
 * The model of an operator who takes over a topology someone else built (a scenario's steps): what
 * its status records and its network show — each cluster's role and set per kind, whom it follows,
 * the clock, crashes and cut links, the mounts it holds — read as facts, none predicted. The tokens
 * issued before are in nobody's pocket, and who holds which credentials is unknown, so their
 * redemption is not predicted either (learnRole).
 */
export function modelOfState(state: SimState, clusters: string[], capabilities: Capabilities, safe = false): Model {
  const m = initialModel(clusters, capabilities, safe);
  m.now = state.now;
  for (const c of clusters) m.up[c] = state.network.down[c] !== true;
  for (const key of Object.keys(state.network.cut)) {
    const [a, b] = key.split('|');
    if (clusters.includes(a) && clusters.includes(b)) m.cut[linkKey(a, b)] = true;
  }
  m.mounts = Object.fromEntries(
    clusters.map((c) => [
      c,
      Object.values(state.clusters.named(c).storage.mounts)
        .filter((mount) => mount.namespace === '')
        .map((mount) => mount.path),
    ]),
  );
  for (const kind of ['dr', 'performance'] as const) for (const c of clusters) learnRole(m, state, kind, c);
  return m;
}

/** Whether the model knows that `c` holds the root-namespace mount `path` (`secret/`): yes, no, or it cannot tell. */
export function holdsMount(m: Readonly<Model>, c: string, path: string): 'yes' | 'no' | 'unknown' {
  if (m.mounts === null) return 'yes';
  if (m.followed[c]) return 'unknown';
  return m.mounts[c]?.includes(path) ? 'yes' : 'no';
}

// ---------------------------------------------------------------------------------------------------
// Reading the model

export function modeIn(m: Readonly<Model>, kind: Kind, c: string): 'disabled' | 'primary' | 'secondary' {
  return modeOf(m.roles[kind][c].role);
}

export function isDrSecondaryIn(m: Readonly<Model>, c: string): boolean {
  return modeIn(m, 'dr', c) === 'secondary';
}

/** Whether a call between two clusters gets through now: both running and their link not cut. */
export function reachableIn(m: Readonly<Model>, a: string, b: string): boolean {
  return m.up[a] && m.up[b] && (a === b || m.cut[linkKey(a, b)] !== true);
}

/** Clusters that are primaries of the given set (running or not). */
export function primariesOfSet(m: Readonly<Model>, kind: Kind, set: number): string[] {
  return m.clusters.filter((c) => m.roles[kind][c].role === 'primary' && m.roles[kind][c].set === set);
}

/** The newest token the operator holds for `cluster`, not yet used. */
export function heldTokenFor(m: Readonly<Model>, kind: Kind, cluster: string): HeldToken | undefined {
  for (let i = m.tokens.length - 1; i >= 0; i--) {
    const t = m.tokens[i];
    if (t.kind === kind && t.for === cluster && !t.used) return t;
  }
  return undefined;
}

/**
 * What redeeming a held token should give, as far as the model knows: `refuse` when a rule surely
 * fails (expired, used, revoked, replaced, forgotten by its issuer, issuer unreachable for the
 * unwrap), `accept` when every rule surely holds. The ttl is checked in whole seconds, so a token
 * within a second of expiry is `either`.
 */
export function redeemOutcome(m: Readonly<Model>, t: HeldToken, redeemer: string): 'accept' | 'refuse' | 'either' {
  if (t.used) return 'refuse';
  // A token activates a secondary only while its issuer is a primary (a demoted or disabled issuer
  // serves no secondaries), whatever its bookkeeping.
  if (m.roles[t.kind][t.issuer].role !== 'primary') return 'refuse';
  if (m.learned[t.kind][t.issuer]) return 'either';
  if (t.superseded || t.epoch !== m.epoch[t.kind][t.issuer]) return 'refuse';
  if (m.issued[t.kind][t.issuer][t.id] !== 'active') return 'refuse';
  if (!reachableIn(m, redeemer, t.issuer)) return 'refuse';
  const age = m.now - t.issuedAt;
  if (age >= TOKEN_TTL_MS) return 'refuse';
  if (age >= TOKEN_TTL_MS - 1000) return 'either';
  return 'accept';
}

/**
 * Whether a primary answers a secondary's address ping (update-primary with `update_primary_addrs`):
 * the ping carries the credentials the secondary activated with, and only a primary that knows them
 * (issued them, or took up a list that has them) and finds them not revoked answers.
 */
export function knowsCredentials(m: Readonly<Model>, kind: Kind, primary: string, secondary: string): 'accept' | 'refuse' | 'either' {
  const held = m.credentials[kind][secondary];
  if (held === null) return 'refuse';
  if (held === 'unknown') return 'either';
  const t = m.tokens[held];
  if (t.revoked === true) return 'refuse';
  const vague = t.revoked === 'maybe' || m.learned[kind][primary];
  if (primary !== t.issuer) return vague ? 'either' : 'refuse';
  if (vague) return 'either';
  return !t.superseded && t.epoch === m.epoch[kind][primary] && m.issued[kind][primary][t.id] === 'active' ? 'accept' : 'refuse';
}

// ---------------------------------------------------------------------------------------------------
// Changing the model (called by commands once the world accepted a request)

/**
 * Issuer `c` revoked secondary `id`: the credentials of its token for that id are barred in the set.
 * When `c` took its list from the world, the record may be another primary's token for that id.
 */
export function revokeCredentials(m: Model, kind: Kind, c: string, id: string): void {
  m.issued[kind][c][id] = 'revoked';
  for (const t of m.tokens) {
    if (t.kind !== kind || t.id !== id || t.revoked === true) continue;
    if (t.issuer === c && !t.superseded && t.epoch === m.epoch[kind][c]) t.revoked = true;
    else if (m.learned[kind][c]) t.revoked = 'maybe';
  }
}

/** The cluster activated or re-pointed with a held token: those are the credentials it now presents. */
export function presentCredentials(m: Model, kind: Kind, c: string, t: HeldToken): void {
  t.used = true;
  m.credentials[kind][c] = m.tokens.indexOf(t);
}

/**
 * A promoted secondary takes up the list of known secondaries it held as a copy of its primary's
 * (replicated configuration, as of its last sync): the model did not follow the syncs, so it reads
 * the list from the world and no longer predicts the redemption of tokens from this issuer.
 */
export function learnIssued(m: Model, state: SimState, kind: Kind, c: string): void {
  m.epoch[kind][c]++;
  m.issued[kind][c] = {};
  m.lastIdFor[kind][c] = {};
  for (const issued of Object.values(state.clusters.named(c).replication[kind].issued)) {
    m.issued[kind][c][issued.id] = issued.revoked ? 'revoked' : 'active';
    // The ids the commands issue are a cluster's name, or its name and a number.
    const forCluster = issued.id.replace(/-\d+$/, '');
    if (m.clusters.includes(forCluster)) m.lastIdFor[kind][c][forCluster] = issued.id;
  }
  m.learned[kind][c] = true;
}

/** The issuer forgets every token it issued: a new epoch, no ids. */
export function forgetIssued(m: Model, kind: Kind, issuer: string): void {
  m.epoch[kind][issuer]++;
  m.issued[kind][issuer] = {};
  m.lastIdFor[kind][issuer] = {};
}

export function setRole(m: Model, kind: Kind, c: string, role: RoleValue, set: number = m.roles[kind][c].set, follows: string | null = null): void {
  m.roles[kind][c] = { role, set, follows };
}

/**
 * Takes one cluster's replication state of one kind from the world, where the model cannot predict
 * it: DR demotion holds a cluster's performance replication dormant and DR promotion takes up the
 * one it mirrored from its DR primary (set, tokens issued and all). The set number is the one of a
 * cluster already known to share its `cluster_id`, else a new one.
 */
export function learnRole(m: Model, state: SimState, kind: Kind, c: string): void {
  const r = state.clusters.named(c).replication[kind];
  let set = -1;
  if (r.role !== 'disabled') {
    const other = m.clusters.find((o) => o !== c && m.roles[kind][o].role !== 'disabled' && state.clusters.named(o).replication[kind].clusterId === r.clusterId);
    set = other !== undefined ? m.roles[kind][other].set : m.nextSet++;
  }
  m.roles[kind][c] = { role: r.role, set, follows: r.role === 'secondary.following' ? r.primary : null };
  if (r.role === 'secondary.following') m.followed[c] = true;
  // A secondary's credentials came with the state the model did not follow.
  m.credentials[kind][c] = modeOf(r.role) === 'secondary' && r.jti !== '' ? 'unknown' : null;
  learnIssued(m, state, kind, c);
}

// ---------------------------------------------------------------------------------------------------
// The model against the world

/**
 * What the model expected where it disagreed with the world, in terms a scenario file can check:
 * the answer to the request just made (`accept` or `refuse`), or fields of a cluster's status record.
 */
export type ModelExpectation = { answer: 'accept' | 'refuse' } | { status: { on: string; kind: Kind; data: Record<string, unknown>; words: string } };

/** The model and the world disagree: a simulator bug, or a model that is wrong. Either way a finding. */
export class ModelMismatch extends Error {
  override name = 'ModelMismatch';
  constructor(
    message: string,
    /** The model's prediction, when a scenario step can state it (the exporter writes it as the step's `expect`). */
    readonly expected?: ModelExpectation,
  ) {
    super(message);
  }
}

/**
 * Checks what the model claims to know against the world: every role, the clock, and which
 * clusters share a replication set. Cheap (clusters² per kind), so it runs after every command.
 */
export function assertModelMatches(m: Readonly<Model>, state: SimState): void {
  if (state.now !== m.now) throw new ModelMismatch(`the clock reads ${state.now} ms, the model expected ${m.now} ms`);
  for (const kind of m.capabilities.kinds) {
    for (const c of m.clusters) {
      const real = state.clusters.named(c).replication[kind].role;
      const predicted = m.roles[kind][c].role;
      if (real !== predicted) {
        // The status record shows the mode; a role within one mode (demoted, following, ...) it shows only in part.
        const mode = modeOf(predicted);
        const expected = mode !== modeOf(real) ? { status: { on: c, kind, data: { mode }, words: `${c}'s ${KIND_WORD[kind]} mode is ${mode}` } } : undefined;
        throw new ModelMismatch(`${c}'s ${KIND_WORD[kind]} role is ${real}, the model expected ${predicted}`, expected);
      }
    }
    for (let i = 0; i < m.clusters.length; i++) {
      const a = m.clusters[i];
      if (m.roles[kind][a].role === 'disabled') continue;
      for (let j = i + 1; j < m.clusters.length; j++) {
        const b = m.clusters[j];
        if (m.roles[kind][b].role === 'disabled') continue;
        const sameReal = state.clusters.named(a).replication[kind].clusterId === state.clusters.named(b).replication[kind].clusterId;
        const sameModel = m.roles[kind][a].set === m.roles[kind][b].set;
        if (sameReal !== sameModel) {
          // Stated on b's status: a's cluster_id (the world's ids are deterministic for a seed), or anything else.
          const id = state.clusters.named(a).replication[kind].clusterId;
          const clusterId = sameModel ? id : `/^(?!${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$)/`;
          const words = `${b} is ${sameModel ? '' : 'not '}in ${a}'s ${KIND_WORD[kind]} replication set (cluster_id ${sameModel ? '' : 'other than '}${id})`;
          throw new ModelMismatch(`${a} and ${b} are ${sameReal ? '' : 'not '}in one ${KIND_WORD[kind]} replication set, the model expected the opposite`, {
            status: { on: b, kind, data: { cluster_id: clusterId }, words },
          });
        }
      }
    }
  }
}
