// The table of the generation-attempt and operation-token endpoints: method and path → summary,
// authorisation rule, fields and the decision (decide/<endpoint>.ts). Generation attempts are
// served as Vault's generate-root machinery serves them, for two strategies (decide/strategy.ts);
// the attempt's rules are the generation-attempt machine's: decisions only check, draw and describe
// events.
import { routesOf, row, type AuthRule, type Route, type Row } from '../core/http/route.js';
import * as cancelAttempt from './decide/cancel-attempt.js';
import * as deleteOperationToken from './decide/delete-operation-token.js';
import * as giveKeyShare from './decide/give-key-share.js';
import * as readAttempt from './decide/read-attempt.js';
import * as startAttempt from './decide/start-attempt.js';
import { drStrategy, rootStrategy, type Strategy } from './decide/strategy.js';

/** The DR calls that need a DR operation token (authentication rule 2). */
export const drOperationTokenAuth: AuthRule = { token: 'dr-operation-token', rootNamespace: true, license: 'enterprise', openOnDrSecondary: true };

// No client token for the DR strategy before 2.0.0 (1.19.17): the docs' calls carry none. From
// then on both strategies need a token unless the server's enable_unauthenticated_access names the
// family (authorize.ts `familyRefusal`). The root strategy is restricted-root; a DR secondary keeps
// it closed and uses the DR strategy.
const drAttemptAuth: AuthRule = { token: 'none', rootNamespace: true, license: 'enterprise', openOnDrSecondary: true, unauthenticatedFamily: 'generate-operation-token' };
const rootAttemptAuth: AuthRule = { token: 'none', rootNamespace: true, unauthenticatedFamily: 'generate-root' };

function generationRows(s: Strategy, auth: AuthRule): Row[] {
  return [
    row('GET', s.attemptPath, { summary: `read the ${s.what} generation attempt`, auth, decide: readAttempt.decide(s) }),
    // Vault's generate-root handlers decode JSON loosely: unknown parameters are not reported (openBody).
    row('POST', s.attemptPath, { summary: `start a ${s.what} generation attempt`, auth, fields: startAttempt.fields, openBody: true, decide: startAttempt.decide(s) }),
    row('DELETE', s.attemptPath, { summary: `cancel the ${s.what} generation attempt`, auth, openBody: true, decide: cancelAttempt.decide(s) }),
    row('POST', s.updatePath, { summary: `give a key share to the ${s.what} generation attempt`, auth, fields: giveKeyShare.fields, openBody: true, decide: giveKeyShare.decide(s) }),
  ];
}

export const operationTokenRoutes: Route[] = routesOf([
  ...generationRows(drStrategy, drAttemptAuth),
  row('POST', 'sys/replication/dr/secondary/operation-token/delete', {
    summary: 'delete the DR operation token',
    auth: drOperationTokenAuth,
    fields: deleteOperationToken.fields,
    decide: deleteOperationToken.decide,
  }),
  ...generationRows(rootStrategy, rootAttemptAuth),
]);
