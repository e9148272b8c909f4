// The replication endpoints' table (spec areas A and B): method and path → summary, authorisation
// rule, fields and the decision (decide/<endpoint>.ts: the request's checks, the role machine asked
// with the facts checked, the events or a refusal). How the events change the state is evolve.ts.
// The role endpoints are shared by both kinds, parameterised by kind: DR's secondary-side calls
// (promote, disable, update-primary) are authorised by a DR operation token and stay open on a DR
// secondary; performance's take an ordinary client token (B.3), and beside them performance has its
// paths filters and dynamic filters. Generation attempts, operation-token/delete, reindex and
// merkle-check are the operation-token and merkle areas'.
import type { AuthRule, Row } from '../core/http/route.js';
import * as recover from './decide/recover.js';
import * as configReload from './decide/config-reload.js';
import { adminAuth, routesOf, row, type Route } from '../core/http/route.js';
import type { ReplicationKind } from '../core/state.js';
import { KIND_WORD } from '../core/vocabulary.js';
import { prefix } from './decide/common.js';
import * as dynamicFilter from './decide/dynamic-filter.js';
import * as generatePublicKey from './decide/generate-public-key.js';
import * as pathsFilter from './decide/paths-filter.js';
import * as primaryDemote from './decide/primary-demote.js';
import * as primaryDisable from './decide/primary-disable.js';
import * as primaryEnable from './decide/primary-enable.js';
import * as promote from './decide/promote.js';
import * as revokeSecondary from './decide/revoke-secondary.js';
import * as secondaryDisable from './decide/secondary-disable.js';
import * as secondaryEnable from './decide/secondary-enable.js';
import * as secondaryToken from './decide/secondary-token.js';
import * as status from './decide/status.js';
import * as updatePrimary from './decide/update-primary.js';

// Authorisation rules. Every endpoint but status: enterprise licence, restricted to the root namespace.
const statusAuth: AuthRule = { token: 'none', license: 'enterprise-or-managed', openOnDrSecondary: true };

/** The secondary-side calls of DR run on a DR secondary and are authorised by a DR operation token. */
function secondarySideAuth(kind: ReplicationKind): AuthRule {
  return kind === 'dr' ? { token: 'dr-operation-token', rootNamespace: true, license: 'enterprise', openOnDrSecondary: true } : adminAuth;
}

/** The rows both kinds share, under sys/replication/<kind>/. */
function sharedRows(kind: ReplicationKind): Row[] {
  const K = KIND_WORD[kind];
  const at = (path: string) => `${prefix(kind)}/${path}`;
  return [
    row('GET', at('status'), { summary: `read the ${K} replication status`, auth: statusAuth, decide: status.decide(kind) }),
    row('POST', at('primary/enable'), { summary: `enable ${K} replication as a primary`, auth: adminAuth, fields: primaryEnable.fields, decide: primaryEnable.decide(kind) }),
    row('POST', at('primary/demote'), { summary: `demote the ${K} primary to a secondary`, auth: adminAuth, decide: primaryDemote.decide(kind) }),
    row('POST', at('primary/disable'), { summary: `disable ${K} replication on the primary`, auth: adminAuth, decide: primaryDisable.decide(kind) }),
    row('POST', at('primary/secondary-token'), { summary: `issue a ${K} secondary activation token`, auth: { ...adminAuth, sudo: true }, fields: secondaryToken.fields, decide: secondaryToken.decide(kind) }),
    row('POST', at('primary/revoke-secondary'), { summary: `revoke a ${K} secondary`, auth: adminAuth, fields: revokeSecondary.fields, decide: revokeSecondary.decide(kind) }),
    // Open on a DR secondary, so a demoted primary can get sealed credentials for update-primary.
    row('POST', at('secondary/generate-public-key'), { summary: `generate a public key for ${K} secondary credentials`, auth: { ...adminAuth, openOnDrSecondary: kind === 'dr' }, decide: generatePublicKey.decide(kind) }),
    row('POST', at('secondary/enable'), { summary: `enable ${K} replication as a secondary (wipes its storage)`, auth: adminAuth, fields: secondaryEnable.fields, decide: secondaryEnable.decide(kind) }),
    row('POST', at('secondary/promote'), { summary: `promote the ${K} secondary to a primary`, auth: secondarySideAuth(kind), fields: promote.fields(kind), decide: promote.decide(kind) }),
    row('POST', at('secondary/disable'), { summary: `disable ${K} replication on the secondary`, auth: secondarySideAuth(kind), fields: secondaryDisable.fields(kind), decide: secondaryDisable.decide(kind) }),
    row('POST', at('secondary/update-primary'), { summary: `update the ${K} secondary's primary`, auth: secondarySideAuth(kind), fields: updatePrimary.fields(kind), decide: updatePrimary.decide(kind) }),
  ];
}

/** Every endpoint the two kinds share, under sys/replication/<kind>/. */
export function replicationRoutes(kind: ReplicationKind): Route[] {
  return routesOf(sharedRows(kind));
}

/**
 * Area A: DR. The combined GET sys/replication/status is served from here (once; it reports both
 * kinds) because it stays open on a DR secondary as DR's own status does.
 */
export const drRoutes: Route[] = routesOf([
  ...sharedRows('dr'),
  row('GET', 'sys/replication/status', { summary: 'read the replication status (DR and performance)', auth: { token: 'none', openOnDrSecondary: true }, decide: status.decideCombined }),
]);

const PERF = 'sys/replication/performance';

/** Area B: performance, with the paths filter a primary keeps per secondary id and the dynamic filters. */
export const performanceRoutes: Route[] = routesOf([
  ...sharedRows('performance'),
  row('POST', `${PERF}/primary/paths-filter/:id`, { summary: 'set the paths filter of a performance secondary', auth: adminAuth, fields: pathsFilter.fields, decide: pathsFilter.decideSet }),
  row('GET', `${PERF}/primary/paths-filter/:id`, { summary: 'read the paths filter of a performance secondary', auth: adminAuth, decide: pathsFilter.decideRead }),
  row('DELETE', `${PERF}/primary/paths-filter/:id`, { summary: 'delete the paths filter of a performance secondary', auth: adminAuth, decide: pathsFilter.decideDelete }),
  row('GET', `${PERF}/primary/dynamic-filter/:id`, { summary: 'read the dynamic filter of a performance secondary (on the primary)', auth: adminAuth, decide: dynamicFilter.decideOnPrimary }),
  row('GET', `${PERF}/secondary/dynamic-filter/:id`, { summary: 'read the dynamic filter of this performance secondary', auth: adminAuth, decide: dynamicFilter.decideOnSecondary }),
]);

/**
 * The legacy paths `sys/replication/primary/*` and `sys/replication/secondary/*`: aliases of the
 * performance paths (the facts file), served by the same decisions.
 */
export const legacyRoutes: Route[] = routesOf(
  sharedRows('performance')
    .filter((r) => /^sys\/replication\/performance\/(primary|secondary)\//.test(r.path) && !r.path.endsWith('/generate-public-key'))
    .map((r) => ({ ...r, path: r.path.replace('sys/replication/performance/', 'sys/replication/'), endpoint: { ...r.endpoint, summary: `${r.endpoint.summary} (legacy path)` } })),
);

/**
 * recover, on any cluster (a client token) and on a DR secondary
 * (its DR operation token, the path left open there), and the DR secondary's config reload (a token
 * the DR secondary takes; not one of the paths the service leaves unauthenticated).
 */
export const recoverRoutes: Route[] = routesOf([
  row('POST', 'sys/replication/recover', { summary: 'attempt recovery of replication on this cluster', auth: adminAuth, decide: recover.decide }),
  row('POST', recover.DR_PATH, {
    summary: 'attempt recovery of replication on a DR secondary',
    auth: { token: 'dr-operation-token', rootNamespace: true, license: 'enterprise', openOnDrSecondary: true },
    fields: recover.drFields,
    decide: recover.decideDr,
  }),
  row('POST', configReload.PATH, { summary: 'reload a subsystem of a DR secondary (license)', auth: { ...adminAuth, openOnDrSecondary: true }, decide: configReload.decide }),
]);
