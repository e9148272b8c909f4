// The table of merkle's endpoints: reindex and merkle-check on a DR secondary, both authorised by the
// DR operation token, and on any cluster with a client token; force-corruption: method and path → summary, authorisation rule, fields and the decision
// (decide/<endpoint>.ts).
import { routesOf, row, type Route } from '../core/http/route.js';
import { drOperationTokenAuth } from '../operation-token/routes.js';
import * as merkleCheck from './decide/merkle-check.js';
import * as reindex from './decide/reindex.js';
import * as forceCorruption from './decide/force-corruption.js';
import { adminAuth } from '../core/http/route.js';

export const merkleRoutes: Route[] = routesOf([
  row('POST', reindex.PATH, { summary: 'reindex the merkle trees of a DR secondary', auth: drOperationTokenAuth, fields: reindex.fields, decide: reindex.decide }),
  row('POST', merkleCheck.PATH, { summary: 'check the merkle trees of a DR secondary for corruption', auth: drOperationTokenAuth, fields: merkleCheck.fields, decide: merkleCheck.decide }),
  // The same two on any cluster, with a client token (reindex is a root path: sudo).
  row('POST', reindex.ANY_PATH, { summary: 'reindex the merkle trees of this cluster', auth: { ...adminAuth, sudo: true }, fields: reindex.anyFields, decide: reindex.start }),
  row('POST', merkleCheck.ANY_PATH, { summary: 'check the merkle trees of this cluster for corruption', auth: adminAuth, decide: merkleCheck.check }),
  row('POST', forceCorruption.PATH, { summary: 'damage a merkle page (the service\'s test helper; the corrupt fault)', auth: { ...adminAuth, sudo: true }, fields: forceCorruption.fields, decide: forceCorruption.decide }),
]);
