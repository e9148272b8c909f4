// What real clients call around the admin API before and between their real work: `sys/health`
// and `sys/seal-status` (load balancers, the CLI's `status`, client libraries' readiness checks),
// `sys/wrapping/lookup` and `unwrap` (`auth/token/lookup-self` is with the tokens, src/areas/auth). They read the world and change
// nothing. Field names and status codes are the service's (api-docs system/health, seal-status,
// wrapping-lookup, auth/token); values the simulation has no notion of are noted where they are set.
import { modeOf } from '../../../models/replication-role.machine.js';
import { decodeActivationClaims } from '../core/crypto/activation-token.js';
import type { ClusterState, ReplicationKind } from '../core/state.js';
import { epochSeconds, rfc3339 } from '../../kernel/clock.js';
import { errors, reply, type Reply } from '../../kernel/http/http.js';
import { endpoint, type RequestContext, type Route } from '../core/http/route.js';
import { clusterRefusals } from '../core/refusals.js';

/**
 * sys/health's default status codes (api-docs system/health, 1.7 to 1.21): 200 initialised,
 * unsealed and active; 429 unsealed standby; 472 DR secondary; 473 performance standby; 501 not
 * initialised; 503 sealed. A simulated cluster is one active node, always initialised and unsealed
 * while it runs (a crashed one answers 503 before any handler, as every path does), so only 200 and
 * 472 can arise; the query parameters that override a code are honoured for those two.
 */
export const HEALTH_CODES = { active: 200, standby: 429, drSecondary: 472, performanceStandby: 473, uninitialised: 501, sealed: 503 } as const;

function clusterName(c: ClusterState): string {
  // Simulator wording: the service names a cluster `vault-cluster-<8 hex>`; replsim uses the scenario's name.
  return `vault-cluster-${c.name}`;
}

function statusCodeParam(ctx: RequestContext, name: string, fallback: number): number | Reply {
  const raw = ctx.query[name];
  if (raw === undefined) return fallback;
  if (!/^\d{3}$/.test(raw)) return clusterRefusals.badStatusCode(name, raw);
  return Number(raw);
}

const healthRoute: Route = {
  pattern: 'sys/health',
  methods: {
    GET: endpoint({
      summary: 'read the health of a cluster',
      auth: { token: 'none', openOnDrSecondary: true },
      handle: (ctx) => {
        const c = ctx.cluster;
        const drSecondary = modeOf(c.replication.dr.role) === 'secondary';
        const code = drSecondary ? statusCodeParam(ctx, 'drsecondarycode', HEALTH_CODES.drSecondary) : statusCodeParam(ctx, 'activecode', HEALTH_CODES.active);
        if (typeof code !== 'number') return code;
        const body = {
          initialized: true,
          sealed: false,
          standby: false,
          performance_standby: false,
          replication_performance_mode: replicationMode(c, 'performance'),
          replication_dr_mode: replicationMode(c, 'dr'),
          server_time_utc: epochSeconds(ctx.now),
          version: c.version,
          enterprise: c.license !== 'none',
          cluster_name: clusterName(c),
          // No cluster_id: a simulated cluster has no id apart from its replication sets' (simulator choice).
        };
        return { kind: 'bare', body, status: code };
      },
    }),
  },
};

function replicationMode(c: ClusterState, kind: ReplicationKind): string {
  // A DR secondary reports the performance mode it mirrors, as `replication/status` does.
  return modeOf(c.replication[kind].role);
}

const sealStatusRoute: Route = {
  pattern: 'sys/seal-status',
  methods: {
    GET: endpoint({
      summary: 'read the seal status of a cluster',
      auth: { token: 'none', openOnDrSecondary: true },
      handle: (ctx) => {
        const c = ctx.cluster;
        return reply.bare({
          type: 'shamir',
          initialized: true,
          sealed: false,
          t: c.storage.keyring.threshold,
          n: c.storage.keyring.shares,
          progress: 0,
          nonce: '',
          version: c.version,
          migration: false,
          cluster_name: clusterName(c),
          recovery_seal: false,
          storage_type: 'raft', // simulator choice: the service's integrated storage
        });
      },
    }),
  },
};

/** The service's answer to a wrapping token it does not hold (vault/wrapping.go). */
const invalidWrappingToken = (): Reply => clusterRefusals.invalidWrappingToken();

/**
 * The activation token a wrapping call names, when this cluster issued it and it can still be
 * redeemed. Activation tokens are the only wrapped responses replsim makes.
 */
function liveActivationToken(ctx: RequestContext, token: unknown): { kind: ReplicationKind; issuedAt: number; expiresAt: number } | null {
  if (typeof token !== 'string' || token === '') return null;
  const claims = decodeActivationClaims(token);
  if (!claims) return null;
  for (const kind of ['dr', 'performance'] as const) {
    for (const issued of Object.values(ctx.cluster.replication[kind].issued)) {
      if (issued.jti !== claims.jti || issued.publicKey) continue;
      if (issued.usedBy !== null || issued.revoked || issued.expiresAt <= ctx.now) return null;
      return { kind, issuedAt: issued.issuedAt, expiresAt: issued.expiresAt };
    }
  }
  return null;
}

const wrappingLookupRoute: Route = {
  pattern: 'sys/wrapping/lookup',
  methods: {
    POST: endpoint({
      summary: 'look up a wrapping token',
      // The service lets anyone look up a wrapping token: the token is the credential.
      auth: { token: 'none' },
      fields: { token: { type: 'string', required: 'missing "token" value in input' } },
      handle: (ctx) => {
        const found = liveActivationToken(ctx, ctx.fields.token);
        if (!found) return invalidWrappingToken();
        return reply.data({
          creation_path: `sys/replication/${found.kind}/primary/secondary-token`,
          creation_time: rfc3339(found.issuedAt),
          creation_ttl: Math.round((found.expiresAt - found.issuedAt) / 1000),
        });
      },
    }),
  },
};

const wrappingUnwrapRoute: Route = {
  pattern: 'sys/wrapping/unwrap',
  methods: {
    POST: endpoint({
      summary: 'unwrap a wrapping token',
      auth: { token: 'none' },
      // The service also takes the wrapping token as the client token; replsim wants it in the body.
      fields: { token: { type: 'string', required: 'missing "token" value in input' } },
      handle: (ctx) => {
        const found = liveActivationToken(ctx, ctx.fields.token);
        if (!found) return invalidWrappingToken();
        // Unwrapping an activation token by hand would spend it: the payload (the secondary's
        // certificates) is not simulated, so replsim refuses rather than answer something made up.
        return errors.notImplemented('sys/wrapping/unwrap of an activation token (its payload is not simulated; enable the secondary with the token instead)');
      },
    }),
  },
};

export const clientRoutes: Route[] = [healthRoute, sealStatusRoute, wrappingLookupRoute, wrappingUnwrapRoute];
