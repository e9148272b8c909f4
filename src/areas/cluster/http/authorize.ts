// The one authorisation step every endpoint goes through, driven by the rule it declares. The
// order follows the service: a DR secondary refuses client paths before anything else is looked
// at; then the licence, the root-namespace restriction, and the token with its capabilities.
import { modeOf } from '../../../../models/replication-role.machine.js';
import { capabilitiesOf } from '../policy.js';
import type { Capability, ClusterState, TokenEntry } from '../state.js';
import { own } from '../../../kernel/own.js';
import { errors, type Method, type Reply } from '../../../kernel/http/http.js';
import type { AuthRule, RequestContext } from './route.js';

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

/**
 * Whether the request's body carries this cluster's current DR operation token. The one definition:
 * the authorisation step refuses on it, and the role handlers hand it to the role machine as the
 * guard fact `operationTokenValid` (so the machine decides with what was checked, not with `true`).
 */
export function operationTokenValid(cluster: ClusterState, body: Record<string, unknown>): boolean {
  const given = body.dr_operation_token;
  return typeof given === 'string' && given !== '' && given === cluster.drOperationToken;
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
    const valid = operationTokenValid(cluster, ctx.body);
    // Off a DR secondary these paths are ordinary authenticated ones: the service takes a client
    // token there and the handler answers "Not a DR secondary." (hashicorp/vault#19603).
    if (!isDrSecondary(cluster) && !valid) return clientTokenRefusal(rule, ctx, fullPath, sentToken);
    if (typeof given !== 'string' || given === '') return errors.missingOperationToken();
    if (!valid) return errors.invalidOperationToken();
    return null;
  }
  if (rule.token === 'none') return null;
  return clientTokenRefusal(rule, ctx, fullPath, sentToken);
}

/** The client-token part of the step: a known token with the capability (and sudo) on the path. */
function clientTokenRefusal(rule: AuthRule, ctx: Omit<RequestContext, 'fields'>, fullPath: string, sentToken: string | undefined): Reply | null {
  const { cluster } = ctx;

  const token: TokenEntry | null = sentToken ? (own(cluster.storage.tokens, sentToken) ?? null) : null;
  if (!token) return errors.unknownToken();
  const caps = capabilitiesOf(token, fullPath);
  const needed = typeof rule.capability === 'function' ? rule.capability(ctx as RequestContext) : (rule.capability ?? capabilityOfMethod(ctx.method));
  if (!caps.has(needed)) return errors.permissionDenied();
  if (rule.sudo && !caps.has('sudo')) return errors.sudoRequired();
  return null;
}
