// The replication endpoints both kinds share (spec areas A and B), written once and parameterised by
// kind: `replicationRoutes('dr')` serves sys/replication/dr/..., and the performance module will call
// `replicationRoutes('performance')` and add its filters. Each handler checks the request, asks the
// role machine whether the role table allows it, draws what it needs (only then), and returns the
// event with the reply. Error texts are the service's where known (vault-api-facts.md, or confirmed
// by search as noted), otherwise simulator wording that names the cause and the fix.
import semver from 'semver';
import { canRole, modeOf, stepRole, type RoleEvent } from '../../../models/replication-role.machine.js';
import { operationTokenValid } from '../cluster/http/authorize.js';
import { generateSecondaryKeyPair } from '../cluster/crypto/sealed-box.js';
import { isMerkleCorrupted } from '../merkle/merkle.js';
import {
  acceptsCredentials,
  advertisedClusterAddr,
  clusterAt,
  redeemActivationToken,
  replicationStatus,
  sealedActivationToken,
  wrappedActivationToken,
  type PrimaryAssignment,
  type ReplicationEvent,
} from './index.js';
import type { ClusterState, ReplicationKind, SimState } from '../cluster/state.js';
import { rfc3339 } from '../../kernel/clock.js';
import { reachable } from '../../kernel/network.js';
import { own } from '../../kernel/own.js';
import { errors, reply, type Reply } from '../../kernel/http/http.js';
import { endpoint, type AuthRule, type Outcome, type Route } from '../cluster/http/route.js';
import { replicationRefusals as R } from './refusals.js';

/** How the spec and the service name each kind in texts (one vocabulary: src/areas/vocabulary.ts). */
export { KIND_WORD } from '../vocabulary.js';
import { KIND_WORD } from '../vocabulary.js';

/** The version from which a primary accepts `secondary_public_key` (spec, Versioning 1). */
export const SECONDARY_PUBLIC_KEY_SINCE = '1.3.0';

/** The service's warnings on role changes (confirmed in HashiCorp's replication guides and API samples). */
export const WARNINGS = {
  primaryEnabled: 'This cluster is being enabled as a primary for replication. Vault will be unavailable for a brief period and will resume service shortly.',
  demoted: 'This cluster is being demoted to a replication secondary. Vault will be unavailable for a brief period and will resume service shortly.',
  disabled: 'This cluster is having replication disabled. Vault will be unavailable for a brief period and will resume service shortly.',
  promoted: 'This cluster is being promoted to a replication primary. Vault will be unavailable for a brief period and will resume service shortly.',
  secondaryFound: 'Vault has successfully found secondary information; it may take a while to perform setup tasks. Vault will be unavailable until these tasks and initial sync complete.',
};

/** The replication refusals (refusals.ts), with the kind's word filled in. */
export function replicationErrors(kind: ReplicationKind) {
  const K = KIND_WORD[kind];
  return {
    alreadyPrimary: () => R.alreadyPrimary(K),
    mustPromote: () => R.mustPromote(K),
    notPrimary: (c: ClusterState) => R.notPrimary(K, modeOf(c.replication[kind].role)),
    notSecondary: () => R.notSecondary(K),
    primaryCannotEnableSecondary: () => R.primaryCannotEnableSecondary(K),
    alreadySecondary: () => R.alreadySecondary(K),
    drSecondaryAlone: () => R.drSecondaryAlone(),
    missingId: () => R.missingId(),
    missingToken: () => R.missingToken(),
    duplicateId: (id: string) => R.duplicateId(id),
    unknownId: (id: string) => R.unknownId(id),
    alreadyRevoked: (id: string) => R.alreadyRevoked(id),
    badTtl: () => R.badTtl(),
    publicKeyTooOld: (version: string) => R.publicKeyTooOld(SECONDARY_PUBLIC_KEY_SINCE, version),
    badPublicKey: () => R.badPublicKey(),
    unsafePromotion: (reasons: string[]) => R.unsafePromotion(reasons),
    tokenAndAddresses: () => R.tokenAndAddresses(),
    neitherTokenNorAddresses: () => R.neitherTokenNorAddresses(),
    addressesAfterDemotion: () => R.addressesAfterDemotion(K),
    otherReplicationSet: (theirs: string, ours: string) => R.otherReplicationSet(K, theirs, ours),
    addressesWithoutPrimary: () => R.addressesWithoutPrimary(K),
    noAddressAnswered: (addrs: string[]) => R.noAddressAnswered(K, addrs),
  };
}

/**
 * Semantic-version order, by the `semver` package npm uses: a pre-release comes before its release
 * (1.16.0-rc1 < 1.16.0), build metadata such as "+ent" is ignored. A version that is not semver
 * (scenario files are checked, so only a hand-built world has one) is read as its leading numbers.
 */
export function versionAtLeast(version: string, minimum: string): boolean {
  const read = (v: string) => semver.parse(v, { loose: true }) ?? semver.coerce(v) ?? semver.parse('0.0.0')!;
  return semver.gte(read(version), read(minimum));
}

/** Whether a base64 text is a raw 32-byte X25519 public key, as generate-public-key returns. */
function isPublicKey(b64: string): boolean {
  const raw = Buffer.from(b64, 'base64');
  return raw.length === 32 && raw.toString('base64') === b64;
}

// Authorisation rules. Every endpoint but status: enterprise licence, restricted to the root namespace.
const statusAuth: AuthRule = { token: 'none', license: 'enterprise-or-managed', openOnDrSecondary: true };
export const adminAuth: AuthRule = { token: 'client', rootNamespace: true, license: 'enterprise' };

/** The secondary-side calls of DR run on a DR secondary and are authorised by a DR operation token. */
function secondarySideAuth(kind: ReplicationKind): AuthRule {
  return kind === 'dr' ? { token: 'dr-operation-token', rootNamespace: true, license: 'enterprise', openOnDrSecondary: true } : adminAuth;
}

/**
 * DR's secondary-side calls declare `dr_operation_token` (checked by the authorisation step, never
 * read by a handler); performance's do not, so there it is an unrecognised parameter.
 */
function operationTokenField(kind: ReplicationKind): { dr_operation_token: { type: 'string' } } {
  return (kind === 'dr' ? { dr_operation_token: { type: 'string' } } : {}) as { dr_operation_token: { type: 'string' } };
}

const prefix = (kind: ReplicationKind) => `sys/replication/${kind}`;

function accepted(events: ReplicationEvent[], warning?: string): Outcome {
  return { events, reply: () => (warning ? reply.data(null, { warnings: [warning] }) : reply.empty()) };
}

/** The refusal for a token the secondary could not redeem. */
function redeemRefusal(r: { refusal: Reply }): Reply {
  return r.refusal;
}

function isSecondary(c: ClusterState, kind: ReplicationKind): boolean {
  return modeOf(c.replication[kind].role) === 'secondary';
}

/** GET <kind>/status: the status record, unauthenticated. */
export function statusRoute(kind: ReplicationKind): Route {
  return {
    pattern: `${prefix(kind)}/status`,
    methods: {
      GET: endpoint({
        summary: `read the ${KIND_WORD[kind]} replication status`,
        auth: statusAuth,
        handle: (ctx) => reply.data(replicationStatus(ctx.state, ctx.cluster.name, kind)),
      }),
    },
  };
}

/** POST <kind>/primary/enable: disabled → primary, with a new cluster id. */
export function primaryEnableRoute(kind: ReplicationKind): Route {
  const err = replicationErrors(kind);
  return {
    pattern: `${prefix(kind)}/primary/enable`,
    methods: {
      POST: endpoint({
        summary: `enable ${KIND_WORD[kind]} replication as a primary`,
        auth: adminAuth,
        fields: { primary_cluster_addr: { type: 'string', default: '' } },
        handle: (ctx) => {
          const role = ctx.cluster.replication[kind].role;
          if (!canRole(kind, role, { type: 'primary.enable' })) return isSecondary(ctx.cluster, kind) ? err.mustPromote() : err.alreadyPrimary();
          // Every enable starts a new replication set: a disabled-then-enabled primary gets a new id.
          const clusterId = ctx.rng.uuid();
          return accepted(
            [{ type: 'replication-primary-enabled', at: ctx.now, kind, cluster: ctx.cluster.name, clusterId, primaryClusterAddr: ctx.fields.primary_cluster_addr }],
            WARNINGS.primaryEnabled,
          );
        },
      }),
    },
  };
}

/** POST <kind>/primary/demote: primary → secondary that follows nobody, same cluster id. */
export function primaryDemoteRoute(kind: ReplicationKind): Route {
  const err = replicationErrors(kind);
  return {
    pattern: `${prefix(kind)}/primary/demote`,
    methods: {
      POST: endpoint({
        summary: `demote the ${KIND_WORD[kind]} primary to a secondary`,
        auth: adminAuth,
        handle: (ctx) => {
          if (!canRole(kind, ctx.cluster.replication[kind].role, { type: 'primary.demote' })) return err.notPrimary(ctx.cluster);
          return accepted([{ type: 'replication-primary-demoted', at: ctx.now, kind, cluster: ctx.cluster.name }], WARNINGS.demoted);
        },
      }),
    },
  };
}

/** POST <kind>/primary/disable: primary → disabled; its secondaries can no longer connect. */
export function primaryDisableRoute(kind: ReplicationKind): Route {
  const err = replicationErrors(kind);
  return {
    pattern: `${prefix(kind)}/primary/disable`,
    methods: {
      POST: endpoint({
        summary: `disable ${KIND_WORD[kind]} replication on the primary`,
        auth: adminAuth,
        handle: (ctx) => {
          if (!canRole(kind, ctx.cluster.replication[kind].role, { type: 'primary.disable' })) return err.notPrimary(ctx.cluster);
          return accepted([{ type: 'replication-primary-disabled', at: ctx.now, kind, cluster: ctx.cluster.name }], WARNINGS.disabled);
        },
      }),
    },
  };
}

/**
 * POST <kind>/primary/secondary-token (sudo): an activation token for secondary `id`. Wrapped by
 * default (`data: null`, the JWT in `wrap_info.token`). With `secondary_public_key`, the
 * credentials are sealed to that key and returned in `data` (simulator field names, the service's
 * are not public): `{ id, token, ttl }`, `token` being what secondary/enable takes.
 */
export function secondaryTokenRoute(kind: ReplicationKind): Route {
  const err = replicationErrors(kind);
  return {
    pattern: `${prefix(kind)}/primary/secondary-token`,
    methods: {
      POST: endpoint({
        summary: `issue a ${KIND_WORD[kind]} secondary activation token`,
        auth: { ...adminAuth, sudo: true },
        fields: {
          id: { type: 'string', required: 'missing id' },
          ttl: { type: 'duration', default: 30 * 60_000 },
          secondary_public_key: { type: 'string', default: '' },
        },
        handle: (ctx) => {
          const c = ctx.cluster;
          const r = c.replication[kind];
          if (r.role !== 'primary') return err.notPrimary(c);
          const id = ctx.fields.id.trim();
          if (id === '') return err.missingId();
          const existing = own(r.issued, id);
          if (existing && !existing.revoked) return err.duplicateId(id);
          const ttlMs = ctx.fields.ttl;
          if (!(ttlMs >= 1000)) return err.badTtl();
          const ttl = Math.floor(ttlMs / 1000);
          const publicKey = ctx.fields.secondary_public_key.trim();
          if (publicKey !== '') {
            if (!versionAtLeast(c.version, SECONDARY_PUBLIC_KEY_SINCE)) return err.publicKeyTooOld(c.version);
            if (!isPublicKey(publicKey)) return err.badPublicKey();
          }
          const jti = ctx.rng.uuid();
          const event: ReplicationEvent = {
            type: 'replication-secondary-token-issued',
            at: ctx.now,
            kind,
            cluster: c.name,
            id,
            jti,
            expiresAt: ctx.now + ttl * 1000,
            publicKey: publicKey !== '',
          };
          if (publicKey !== '') {
            const token = sealedActivationToken(c, kind, id, jti, ctx.now, ttl * 1000, publicKey, ctx.rng);
            return { events: [event], reply: () => reply.data({ id, token, ttl }) };
          }
          const accessor = ctx.rng.uuid();
          const token = wrappedActivationToken(c, jti, ctx.now, ttl * 1000);
          const wrapInfo = { token, accessor, ttl, creation_time: rfc3339(ctx.now), creation_path: `${prefix(kind)}/primary/secondary-token` };
          return { events: [event], reply: () => reply.data(null, { wrapInfo }) };
        },
      }),
    },
  };
}

/** POST <kind>/primary/revoke-secondary: bars secondary `id`; it disconnects and receives nothing. */
export function revokeSecondaryRoute(kind: ReplicationKind): Route {
  const err = replicationErrors(kind);
  return {
    pattern: `${prefix(kind)}/primary/revoke-secondary`,
    methods: {
      POST: endpoint({
        summary: `revoke a ${KIND_WORD[kind]} secondary`,
        auth: adminAuth,
        fields: { id: { type: 'string', required: 'missing id' } },
        handle: (ctx) => {
          const r = ctx.cluster.replication[kind];
          if (r.role !== 'primary') return err.notPrimary(ctx.cluster);
          const id = ctx.fields.id.trim();
          if (id === '') return err.missingId();
          const issued = own(r.issued, id);
          if (!issued) return err.unknownId(id);
          if (issued.revoked) return err.alreadyRevoked(id);
          return accepted([{ type: 'replication-secondary-revoked', at: ctx.now, kind, cluster: ctx.cluster.name, id }]);
        },
      }),
    },
  };
}

/**
 * POST <kind>/secondary/generate-public-key: a key pair for sealed credentials. The response field
 * name is not public (facts file, gap 1): replsim answers `data.secondary_public_key`, the name of
 * the parameter the primary takes it under. Open on a DR secondary, so a demoted primary can get
 * sealed credentials for update-primary.
 */
export function generatePublicKeyRoute(kind: ReplicationKind): Route {
  return {
    pattern: `${prefix(kind)}/secondary/generate-public-key`,
    methods: {
      POST: endpoint({
        summary: `generate a public key for ${KIND_WORD[kind]} secondary credentials`,
        auth: { ...adminAuth, openOnDrSecondary: kind === 'dr' },
        handle: (ctx) => {
          const pair = generateSecondaryKeyPair(ctx.rng);
          return {
            events: [{ type: 'replication-secondary-key-generated', at: ctx.now, kind, cluster: ctx.cluster.name, publicKey: pair.publicKey, privateKey: pair.privateKey }],
            reply: () => reply.data({ secondary_public_key: pair.publicKey }),
          };
        },
      }),
    },
  };
}

/** POST <kind>/secondary/enable: disabled → secondary; storage wiped at once. */
export function secondaryEnableRoute(kind: ReplicationKind): Route {
  const err = replicationErrors(kind);
  return {
    pattern: `${prefix(kind)}/secondary/enable`,
    methods: {
      POST: endpoint({
        summary: `enable ${KIND_WORD[kind]} replication as a secondary (wipes its storage)`,
        auth: adminAuth,
        fields: {
          token: { type: 'string', required: 'missing token' },
          primary_api_addr: { type: 'string', default: '' },
          // The simulated network needs no TLS: CA and client certificate settings are accepted and unused.
          ca_file: { type: 'string', default: '' },
          ca_path: { type: 'string', default: '' },
          client_cert_pem: { type: 'string', default: '' },
          client_key_pem: { type: 'string', default: '' },
        },
        handle: (ctx) => {
          const c = ctx.cluster;
          const role = c.replication[kind].role;
          // Redeeming changes nothing and draws nothing, so it is done first: the role machine then
          // decides with the real fact (was a valid activation token given?). A refusal names the
          // first failing condition in the service's order: the role, then the token.
          const redeemed = ctx.fields.token.trim() === '' ? null : redeemActivationToken(ctx.state, c, kind, ctx.fields.token, ctx.fields.primary_api_addr.trim());
          const decided = stepRole(kind, role, { type: 'secondary.enable', activationTokenValid: redeemed?.ok === true });
          if (decided === null && role !== 'disabled') return role === 'primary' ? err.primaryCannotEnableSecondary() : err.alreadySecondary();
          if (kind === 'dr' && c.replication.performance.role !== 'disabled') return err.drSecondaryAlone();
          if (redeemed === null) return err.missingToken();
          if (!redeemed.ok) return redeemRefusal(redeemed);
          return accepted([{ type: 'replication-secondary-enabled', at: ctx.now, kind, cluster: c.name, ...redeemed.assignment }], WARNINGS.secondaryFound);
        },
      }),
    },
  };
}

/** Why a secondary is in an error state that blocks an unforced promotion; empty when it is not. */
export function promotionBlockers(c: ClusterState, kind: ReplicationKind): string[] {
  const reasons: string[] = [];
  if (!c.replication[kind].synced) reasons.push('the initial sync from the primary has not completed');
  if (isMerkleCorrupted(c)) reasons.push('its merkle tree is corrupted');
  return reasons;
}

/** POST <kind>/secondary/promote: secondary → primary of the same set; unless forced, safety checks first. */
export function promoteRoute(kind: ReplicationKind): Route {
  const err = replicationErrors(kind);
  return {
    pattern: `${prefix(kind)}/secondary/promote`,
    methods: {
      POST: endpoint({
        summary: `promote the ${KIND_WORD[kind]} secondary to a primary`,
        auth: secondarySideAuth(kind),
        fields: { ...operationTokenField(kind), primary_cluster_addr: { type: 'string', default: '' }, force: { type: 'bool', default: false } },
        handle: (ctx) => {
          const c = ctx.cluster;
          if (!isSecondary(c, kind)) return err.notSecondary();
          // A primary that is down is no reason to refuse: that is what a failover is for.
          const blockers = promotionBlockers(c, kind);
          const event: RoleEvent = { type: 'secondary.promote', operationTokenValid: operationTokenValid(c, ctx.body), force: ctx.fields.force, safetyChecksPass: blockers.length === 0 };
          if (!canRole(kind, c.replication[kind].role, event)) return err.unsafePromotion(blockers);
          return accepted(
            [
              {
                type: 'replication-secondary-promoted',
                at: ctx.now,
                kind,
                cluster: c.name,
                primaryClusterAddr: ctx.fields.primary_cluster_addr,
                force: ctx.fields.force,
                safetyChecksPassed: blockers.length === 0,
              },
            ],
            WARNINGS.promoted,
          );
        },
      }),
    },
  };
}

/** POST <kind>/secondary/disable: secondary → disabled, storage kept. */
export function secondaryDisableRoute(kind: ReplicationKind): Route {
  const err = replicationErrors(kind);
  return {
    pattern: `${prefix(kind)}/secondary/disable`,
    methods: {
      POST: endpoint({
        summary: `disable ${KIND_WORD[kind]} replication on the secondary`,
        auth: secondarySideAuth(kind),
        fields: { ...operationTokenField(kind) },
        handle: (ctx) => {
          const c = ctx.cluster;
          if (!isSecondary(c, kind) || !canRole(kind, c.replication[kind].role, { type: 'secondary.disable', operationTokenValid: operationTokenValid(c, ctx.body) })) return err.notSecondary();
          return accepted([{ type: 'replication-secondary-disabled', at: ctx.now, kind, cluster: c.name }], WARNINGS.disabled);
        },
      }),
    },
  };
}

/**
 * The first address (in the order given) answering as the primary of this secondary's set (area A
 * rule 2). The ping is made with the secondary's credentials, so only a primary that takes them
 * answers successfully: one that knows its id and token, not revoked (link.ts, acceptsCredentials).
 */
function firstAnsweringPrimary(ctx: { state: SimState; cluster: ClusterState }, kind: ReplicationKind, addrs: string[]): ClusterState | null {
  const own = ctx.cluster.replication[kind];
  for (const addr of addrs) {
    const target = clusterAt(ctx.state, addr);
    if (!target || target.name === ctx.cluster.name || !reachable(ctx.state.network, ctx.cluster.name, target.name)) continue;
    const r = target.replication[kind];
    if (r.role === 'primary' && r.clusterId === own.clusterId && acceptsCredentials(ctx.state, kind, target, own.secondaryId, own.jti)) return target;
  }
  return null;
}

/**
 * POST <kind>/secondary/update-primary: a new primary without a wipe. A token (redeemed like
 * secondary/enable), or `update_primary_addrs` pinged one at a time, never both; an empty token
 * makes the cluster forget its primary and stay a secondary.
 */
export function updatePrimaryRoute(kind: ReplicationKind): Route {
  const err = replicationErrors(kind);
  return {
    pattern: `${prefix(kind)}/secondary/update-primary`,
    methods: {
      POST: endpoint({
        summary: `update the ${KIND_WORD[kind]} secondary's primary`,
        auth: secondarySideAuth(kind),
        fields: {
          ...operationTokenField(kind),
          // Required in the schema, yet it may be empty (area A rule 4), and addresses may stand in for it.
          token: { type: 'string' },
          primary_api_addr: { type: 'string', default: '' },
          ca_file: { type: 'string', default: '' },
          ca_path: { type: 'string', default: '' },
          update_primary_addrs: { type: 'strings', default: [] },
        },
        handle: (ctx) => {
          const c = ctx.cluster;
          const r = c.replication[kind];
          if (!isSecondary(c, kind)) return err.notSecondary();
          const token = (ctx.fields.token ?? '').trim();
          const addrs = ctx.fields.update_primary_addrs.map((a) => a.trim()).filter((a) => a !== '');
          if (token !== '' && addrs.length > 0) return err.tokenAndAddresses();
          if (!ctx.fields.present.has('token') && addrs.length === 0) return err.neitherTokenNorAddresses();

          let via: 'token' | 'addresses' | 'empty-token';
          let roleEvent: RoleEvent;
          if (addrs.length > 0) {
            via = 'addresses';
            roleEvent = { type: 'secondary.update-primary', operationTokenValid: operationTokenValid(c, ctx.body), addresses: addrs };
          } else {
            via = token === '' ? 'empty-token' : 'token';
            roleEvent = { type: 'secondary.update-primary', operationTokenValid: operationTokenValid(c, ctx.body), token };
          }
          if (!canRole(kind, r.role, roleEvent)) {
            if (via === 'addresses' && r.role === 'secondary.demoted') return err.addressesAfterDemotion();
            if (via === 'addresses' && r.role === 'secondary.unassigned') return err.addressesWithoutPrimary();
            return err.notSecondary();
          }

          let assignment: PrimaryAssignment;
          if (via === 'empty-token') {
            assignment = { primary: null, primaryApiAddr: '', primaryClusterAddr: '', knownPrimaryClusterAddrs: [], secondaryId: '', jti: '', clusterId: r.clusterId };
          } else if (via === 'addresses') {
            const target = firstAnsweringPrimary(ctx, kind, addrs);
            if (!target) return err.noAddressAnswered(addrs);
            assignment = {
              primary: target.name,
              primaryApiAddr: target.apiAddr,
              primaryClusterAddr: advertisedClusterAddr(target, kind),
              knownPrimaryClusterAddrs: addrs,
              secondaryId: r.secondaryId,
              jti: r.jti,
              clusterId: r.clusterId,
            };
          } else {
            const redeemed = redeemActivationToken(ctx.state, c, kind, token, ctx.fields.primary_api_addr.trim());
            if (!redeemed.ok) return redeemRefusal(redeemed);
            // update-primary never wipes (rule 5), so it cannot join another replication set: after a
            // primary is disabled and enabled again (a new cluster_id) its old secondaries need a wipe.
            if (r.clusterId !== '' && redeemed.assignment.clusterId !== r.clusterId) return err.otherReplicationSet(redeemed.assignment.clusterId, r.clusterId);
            assignment = redeemed.assignment;
          }
          return accepted(
            [{ type: 'replication-secondary-primary-updated', at: ctx.now, kind, cluster: c.name, via, ...assignment }],
            via === 'empty-token' ? undefined : WARNINGS.secondaryFound,
          );
        },
      }),
    },
  };
}

/** Every endpoint the two kinds share, under sys/replication/<kind>/. */
export function replicationRoutes(kind: ReplicationKind): Route[] {
  return [
    statusRoute(kind),
    primaryEnableRoute(kind),
    primaryDemoteRoute(kind),
    primaryDisableRoute(kind),
    secondaryTokenRoute(kind),
    revokeSecondaryRoute(kind),
    generatePublicKeyRoute(kind),
    secondaryEnableRoute(kind),
    promoteRoute(kind),
    secondaryDisableRoute(kind),
    updatePrimaryRoute(kind),
  ];
}

/**
 * GET sys/replication/status: both kinds' records, `data: {dr, performance}`, unauthenticated. A
 * cluster without an enterprise licence answers `{mode: "disabled"}`, as the community edition does.
 */
export const combinedStatusRoute: Route = {
  pattern: 'sys/replication/status',
  methods: {
    GET: endpoint({
      summary: 'read the replication status (DR and performance)',
      auth: { token: 'none', openOnDrSecondary: true },
      handle: (ctx) => {
        if (ctx.cluster.license === 'none') return reply.data({ mode: 'disabled' });
        return reply.data({ dr: replicationStatus(ctx.state, ctx.cluster.name, 'dr'), performance: replicationStatus(ctx.state, ctx.cluster.name, 'performance') });
      },
    }),
  },
};
