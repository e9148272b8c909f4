// The one authorisation step every endpoint goes through, driven by the rule it declares. The
// order follows the service: a DR secondary refuses client paths before anything else is looked
// at; then the licence, the root-namespace restriction, and the token with its capabilities.
import { modeOf } from '../../../../models/replication-role.machine.js';
import { aclPoliciesIn, capabilitiesOf } from '../policy.js';
import type { Capability, ClusterState, TokenEntry } from '../state.js';
import { resolveToken } from '../tokens.js';
import { clusterRefusals } from '../refusals.js';
import { drSecondaryTakesRootTokens, generationNeedsToken } from '../version-rules.js';
import { errors, type Method, type Reply } from '../../../kernel/http/http.js';
import type { AuthRule, BaseContext, RequestContext } from './route.js';

/** The capability a method needs by default. */
export function capabilityOfMethod(method: Method): Capability {
  switch (method) {
    case 'GET':
      return 'read';
    case 'LIST':
      return 'list';
    case 'DELETE':
      return 'delete';
    case 'PATCH':
      return 'patch';
    default:
      return 'update';
  }
}

/** Whether the cluster is a DR secondary, which serves no client request outside its open paths. */
export function isDrSecondary(cluster: ClusterState): boolean {
  return modeOf(cluster.replication.dr.role) === 'secondary';
}

/** What deciding whether a `dr_operation_token` is valid reads of a request. */
export type OperationTokenRequest = Pick<BaseContext, 'cluster' | 'body' | 'now' | 'path'>;

/**
 * Whether the request's body carries, in `dr_operation_token`, what a DR secondary takes for one:
 * this cluster's current DR operation token; or a batch token made under its keyring, not expired,
 * whose policies grant `update` on the path ("a prepared batch token is the supported approach":
 * it works on the DR secondary, the promoted cluster and the demoted former primary alike, again
 * and again until its TTL ends); or, from 2.0.0 (1.19.17), a root token of its primary (which a DR
 * secondary holds with the primary's storage). The one definition: the authorisation step refuses
 * on it, and the role handlers hand it to the role machine as the guard fact `operationTokenValid`
 * (so the machine decides with what was checked, not with `true`).
 */
export function operationTokenValid(req: OperationTokenRequest): boolean {
  const given = req.body.dr_operation_token;
  if (typeof given !== 'string' || given === '') return false;
  if (given === req.cluster.drOperationToken) return true;
  return operationTokenStandIn(req.cluster, given, req.path, req.now) !== null;
}

/** The batch or root token standing in for a DR operation token, when `given` is one this cluster takes on `path`. */
export function operationTokenStandIn(cluster: ClusterState, given: string, path: string, now: number): TokenEntry | null {
  const token = resolveToken(cluster, given, now);
  if (!token) return null;
  if (token.type === 'batch') return capabilitiesOf(token, path, aclPoliciesIn(cluster.storage, token.namespace)).has('update') ? token : null;
  return token.policy === 'root' && drSecondaryTakesRootTokens(cluster.version) ? token : null;
}

/** Checks a request against an endpoint's rule; null when allowed, else the refusal. */
export function authorize(rule: AuthRule, ctx: Omit<RequestContext, 'fields'>, fullPath: string, sentToken: string | undefined): Reply | null {
  const { cluster } = ctx;
  // A community build never registered the path: as unknown as any unmatched path.
  if (rule.enterpriseBuildOnly && cluster.license === 'none') return errors.enterpriseBuildOnly();
  if (isDrSecondary(cluster) && !rule.openOnDrSecondary) return errors.drSecondaryClosed();
  if (rule.license === 'enterprise' && cluster.license !== 'enterprise') return errors.enterpriseOnly();
  if (rule.license === 'enterprise-or-managed' && cluster.license === 'none') return errors.enterpriseOnly();
  if (rule.rootNamespace && ctx.namespace !== '') return errors.restrictedToRoot();

  if (rule.token === 'dr-operation-token') {
    const given = ctx.body.dr_operation_token;
    const valid = operationTokenValid(ctx);
    // Off a DR secondary these paths are ordinary authenticated ones: the service takes a client
    // token there and the handler answers "Not a DR secondary." (hashicorp/vault#19603).
    if (!isDrSecondary(cluster) && !valid) return clientTokenRefusal(rule, ctx, fullPath, sentToken);
    if (typeof given !== 'string' || given === '') return errors.missingOperationToken();
    if (!valid) return errors.invalidOperationToken();
    return null;
  }
  if (rule.token === 'none') return familyRefusal(rule, ctx, fullPath, sentToken);
  return clientTokenRefusal(rule, ctx, fullPath, sentToken);
}

/** Whether the server's `enable_unauthenticated_access` serves this family without a token. */
export function familyOpen(cluster: ClusterState, family: string): boolean {
  return cluster.serverConfig?.enableUnauthenticatedAccess.includes(family) === true;
}

/**
 * The 2.x rule for the generation endpoints (CVE-2026-5807): "key fragments and a valid Vault
 * token", unless the family is enabled unauthenticated. Without a token the service answers 403
 * `permission denied`. A DR secondary takes a batch token made under its keyring and, from these
 * versions on, its primary's root token; which capability a token needs there is not documented:
 * replsim asks the one its method needs on the path (a root token has all).
 */
function familyRefusal(rule: AuthRule, ctx: Omit<RequestContext, 'fields'>, fullPath: string, sentToken: string | undefined): Reply | null {
  const { cluster } = ctx;
  if (!rule.unauthenticatedFamily || !generationNeedsToken(cluster.version) || familyOpen(cluster, rule.unauthenticatedFamily)) return null;
  const token = resolveToken(cluster, sentToken, ctx.now);
  if (!token) return clusterRefusals.generationNeedsToken();
  if (isDrSecondary(cluster) && token.type !== 'batch' && token.policy !== 'root') return clusterRefusals.generationNeedsToken();
  if (!capabilitiesOf(token, fullPath, aclPoliciesIn(cluster.storage, token.namespace)).has(capabilityOfMethod(ctx.method))) return errors.permissionDenied();
  return null;
}

/** The client-token part of the step: a known token with the capability (and sudo) on the path. */
function clientTokenRefusal(rule: AuthRule, ctx: Omit<RequestContext, 'fields'>, fullPath: string, sentToken: string | undefined): Reply | null {
  const { cluster } = ctx;

  const token: TokenEntry | null = resolveToken(cluster, sentToken, ctx.now);
  if (!token) return errors.unknownToken();
  const caps = capabilitiesOf(token, fullPath, aclPoliciesIn(cluster.storage, token.namespace));
  const needed = typeof rule.capability === 'function' ? rule.capability(ctx as RequestContext) : (rule.capability ?? capabilityOfMethod(ctx.method));
  if (!caps.has(needed)) return errors.permissionDenied();
  if (rule.sudo && !caps.has('sudo')) return errors.sudoRequired();
  return null;
}
