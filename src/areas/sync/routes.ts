// The table of secret sync (spec area D): destinations per type, associations between KV-v2 secrets
// and destinations, and the reads by destination and by secret: method and path → summary,
// authorisation rule, fields and the decision (decide/<endpoint>.ts). Response shapes, obfuscation
// and statuses follow vault-api-facts.md §D; texts the facts file does not have are the simulator's
// and say so. Deliveries happen later, as time passes (sync.ts): a set or remove answers at once
// with the association PENDING.
import type { RequestContext } from '../core/http/route.js';
import { routesOf, row, type AuthRule, type Route, type Row } from '../core/http/route.js';
import { DESTINATION_TYPES, type DestinationType } from './destinations.js';
import { destinationOf } from './decide/common.js';
import * as configureDestination from './decide/configure-destination.js';
import * as deleteDestination from './decide/delete-destination.js';
import * as destinationsOfSecret from './decide/destinations-of-secret.js';
import * as listAssociations from './decide/list-associations.js';
import * as listDestinations from './decide/list-destinations.js';
import * as readDestination from './decide/read-destination.js';
import * as removeAssociation from './decide/remove-association.js';
import * as setAssociation from './decide/set-association.js';
import * as syncConfig from './decide/sync-config.js';
import * as githubApps from './decide/github-apps.js';

/**
 * Every sync endpoint: a client token with the path's capability, and a licence that has the
 * feature ("Appropriate Vault Enterprise license or HCP Vault Dedicated cluster required",
 * developer.hashicorp.com/vault/docs/sync). A community build (licence `none`) has no sync paths
 * at all: its stub backend registers none, so they are 404 `unsupported path` (vault-api-facts.md
 * §0.3), not the `enterprise-only feature` of the replication stubs. Not restricted to the root
 * namespace: destinations live in the namespace they were created in. A DR secondary refuses them
 * like any client path.
 */
function syncAuth(capability?: AuthRule['capability']): AuthRule {
  return { token: 'client', license: 'enterprise-or-managed', enterpriseBuildOnly: true, ...(capability ? { capability } : {}) };
}

function destinationRows(type: DestinationType): Row[] {
  const base = `sys/sync/destinations/${type}/:name`;
  // Creating needs `create`, changing an existing destination `update`.
  const exists = (ctx: RequestContext) => (destinationOf(ctx, type) ? ('update' as const) : ('create' as const));
  return [
    row('POST', base, { summary: `create or update a ${type} sync destination`, auth: syncAuth(exists), fields: configureDestination.fields(type), decide: configureDestination.decide(type) }),
    row('PATCH', base, { summary: `update some settings of a ${type} sync destination`, auth: syncAuth(exists), fields: configureDestination.fields(type), decide: configureDestination.decide(type, true) }),
    row('GET', base, { summary: `read a ${type} sync destination`, auth: syncAuth(), decide: readDestination.decide(type) }),
    row('DELETE', base, { summary: `delete a ${type} sync destination`, auth: syncAuth(), fields: deleteDestination.fields, decide: deleteDestination.decide(type) }),
    row('GET', `${base}/associations`, { summary: `read the associations of a ${type} sync destination`, auth: syncAuth(), decide: readDestination.decideAssociations(type) }),
    row('POST', `${base}/associations/set`, {
      summary: `associate a secret with a ${type} sync destination (triggers a sync)`,
      auth: syncAuth('update'),
      fields: setAssociation.fields,
      decide: setAssociation.decide(type),
    }),
    row('POST', `${base}/associations/remove`, {
      summary: `remove a secret's association with a ${type} sync destination (triggers an unsync)`,
      auth: syncAuth('update'),
      fields: removeAssociation.fields,
      decide: removeAssociation.decide(type),
    }),
  ];
}

/** sys/sync/config is "restricted-admin": the root namespace (vault-api-facts.md §0.1). */
const configAuth = (): AuthRule => ({ ...syncAuth(), rootNamespace: true });

export const syncRoutes: Route[] = routesOf([
  row('GET', 'sys/sync/config', { summary: "read the sync system's settings", auth: configAuth(), decide: syncConfig.read }),
  row('PATCH', 'sys/sync/config', { summary: 'disable or enable syncing, or change the queue capacity', auth: configAuth(), fields: syncConfig.fields, decide: syncConfig.patch }),
  row('DELETE', 'sys/sync/config', { summary: "reset the sync system's settings to the defaults", auth: configAuth(), decide: syncConfig.reset }),
  row('LIST', 'sys/sync/github-apps', { summary: 'list the GitHub Apps registered for sync', auth: syncAuth(), decide: githubApps.list }),
  row('GET', 'sys/sync/github-apps/:name', { summary: 'read a GitHub App registered for sync', auth: syncAuth(), decide: githubApps.read }),
  row('POST', 'sys/sync/github-apps/:name', { summary: 'register a GitHub App for code host destinations', auth: syncAuth(), fields: githubApps.fields, decide: githubApps.write }),
  row('DELETE', 'sys/sync/github-apps/:name', { summary: 'remove a GitHub App registration', auth: syncAuth(), decide: githubApps.remove }),
  row('LIST', 'sys/sync/destinations', { summary: 'list sync destinations by type', auth: syncAuth(), decide: listDestinations.decide }),
  ...DESTINATION_TYPES.flatMap(destinationRows),
  row('LIST', 'sys/sync/destinations/:type', { summary: 'list sync destinations of one type', auth: syncAuth(), decide: listDestinations.decideOfType }),
  row('LIST', 'sys/sync/associations', { summary: 'list the secrets that have at least one sync association', auth: syncAuth(), decide: listAssociations.decide }),
  row('GET', 'sys/sync/associations/destinations', {
    summary: "read a secret's sync destinations (mount and secret_name in the query)",
    auth: syncAuth(),
    decide: destinationsOfSecret.decideByQuery,
  }),
  row('GET', 'sys/sync/associations/*rest', { summary: "read a secret's sync destinations", auth: syncAuth(), decide: destinationsOfSecret.decideByPath }),
]);
