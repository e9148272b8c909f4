// The table of merkle's endpoints, reindex and merkle-check on a DR secondary, both authorised by the
// DR operation token: method and path → summary, authorisation rule, fields and the decision
// (decide/<endpoint>.ts).
import { routesOf, row, type Route } from '../cluster/http/route.js';
import { drOperationTokenAuth } from '../operation-token/routes.js';
import * as merkleCheck from './decide/merkle-check.js';
import * as reindex from './decide/reindex.js';

export const merkleRoutes: Route[] = routesOf([
  row('POST', reindex.PATH, { summary: 'reindex the merkle trees of a DR secondary', auth: drOperationTokenAuth, fields: reindex.fields, decide: reindex.decide }),
  row('POST', merkleCheck.PATH, { summary: 'check the merkle trees of a DR secondary for corruption', auth: drOperationTokenAuth, fields: merkleCheck.fields, decide: merkleCheck.decide }),
]);
