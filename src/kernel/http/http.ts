// The service's HTTP shapes: requests, the response envelope, and the error body with its status
// codes (vault-api-facts.md §0). Handlers return `Reply` values; the router turns them into these.
import { defineRefusals, refusalResponse, type Refused } from '../refusal.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'LIST';
export const METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'LIST'];

/** A request as a client sends it. `path` is as in the spec, without `/v1/`; it may carry a query. */
export interface ApiRequest {
  method: string;
  path: string;
  body?: unknown;
  /** The client token (X-Vault-Token). */
  token?: string;
  /** X-Vault-Namespace. */
  namespace?: string;
}

export interface ApiResponse {
  status: number;
  /** null for 204. */
  body: unknown;
}

export interface WrapInfo {
  token: string;
  accessor: string;
  ttl: number;
  creation_time: string;
  creation_path: string;
  wrapped_accessor?: string;
}

/** What a handler answers; the router adds `request_id` and the envelope. A refusal is data (refusal.ts). */
export type Reply =
  | { kind: 'data'; data: unknown; wrapInfo?: WrapInfo; warnings?: string[]; mountType?: string; auth?: unknown }
  /** A body outside the envelope; `status` for the few reads that answer another 2xx-or-not code (sys/health). */
  | { kind: 'bare'; body: unknown; status?: number }
  | { kind: 'empty'; warnings?: string[] }
  | Refused;

export const reply = {
  data: (data: unknown, extra: { wrapInfo?: WrapInfo; warnings?: string[]; mountType?: string; auth?: unknown } = {}): Reply => ({ kind: 'data', data, ...extra }),
  bare: (body: unknown): Reply => ({ kind: 'bare', body }),
  empty: (): Reply => ({ kind: 'empty' }),
};

/** The service wraps core errors in a multierror, so their text reads like this. */
export function multierror(message: string): string {
  return `1 error occurred:\n\t* ${message}\n\n`;
}

const http = (id: string, words: string) => ({ id, words });

/**
 * The refusals of the HTTP layer, the router and the one authorisation step, common to every
 * endpoint (vault-api-facts.md §0 for the statuses and texts).
 */
export const errors = defineRefusals('http', {
  /** The body is not a JSON object, or exceeds the listener's bounds (the facts' limits). */
  badJson: { status: 400, wording: 'service', text: (why: string) => [`failed to parse JSON input: ${why}`], rule: http('facts.http', 'the request body must be a JSON object within the listener\'s size limits') },
  /** A malformed %-escape in the path: Go's net/url text. */
  badUrlEscape: { status: 400, wording: 'service', text: (what: string) => [what], rule: http('facts.http', 'the request path must be a well-formed URL') },
  /** Simulator wording: a header that is not text (only reachable through `world.request`). */
  badHeader: { status: 400, wording: 'simulator', text: (what: string) => [`the ${what} must be a string`], rule: http('facts.http', 'the client token and namespace headers are text') },
  /** A parameter of the wrong type, or a required one missing: the field parser's text (Vault's framework). */
  badField: { status: 400, wording: 'service', text: (message: string) => [message], rule: http('facts.fields', 'each parameter of the endpoint\'s table has the type the table states, and required ones must be given') },
  /** The token is not one this cluster knows: never issued here, revoked, or wiped with the cluster's storage. */
  unknownToken: { status: 403, wording: 'service', text: () => [multierror('permission denied')], rule: http('facts.tokens', 'the client token is not known to this cluster: it was never issued here, or was revoked, or was wiped with the cluster\'s data (enabling a secondary clears all data in the cluster)') },
  permissionDenied: { status: 403, wording: 'service', text: () => [multierror('permission denied')], rule: http('facts.policy', "the token's policy lacks the capability for this path") },
  sudoRequired: { status: 403, wording: 'service', text: () => [multierror('permission denied')], rule: http('auth.5', "the token's policy lacks sudo on this path, which the endpoint needs (all endpoints of area C need sudo as well as the path's capability)") },
  unsupportedPath: { status: 404, wording: 'service', text: () => [multierror('unsupported path')], rule: http('endpoints', 'no endpoint of the spec has this path') },
  /** A path under no mount of this cluster (`secret/data/x` where `secret/` is not mounted). */
  noMount: { status: 404, wording: 'service', text: () => [multierror('unsupported path')], rule: http('facts.mounts', 'no mount of this cluster holds this path: the mount was never created here, or was not replicated to it (a secondary gets its mounts from its primary, and a cluster promoted before they arrived never has them)') },
  /** A namespace header naming no namespace of this cluster. */
  noNamespace: { status: 404, wording: 'service', text: () => [multierror('unsupported path')], rule: http('facts.namespaces', 'the namespace of the request does not exist on this cluster') },
  /** A community build never registered the enterprise-only path. */
  enterpriseBuildOnly: { status: 404, wording: 'service', text: () => [multierror('unsupported path')], rule: http('auth.6', 'this path exists only in Enterprise builds (secret sync)') },
  /** A read of something absent: 404 with an empty error list. */
  notFound: { status: 404, wording: 'service', text: () => [], rule: http('facts.http', 'a read of something that does not exist answers 404 with no error text') },
  unsupportedOperation: { status: 405, wording: 'service', text: () => [multierror('unsupported operation')], rule: http('endpoints', 'the path exists but not with this method') },
  enterpriseOnly: { status: 404, wording: 'service', text: () => ['enterprise-only feature'], rule: http('auth.6', 'replication and sync endpoints need an enterprise licence (status and sync also accept a managed cluster)') },
  drSecondaryClosed: { status: 400, wording: 'service', text: () => ['path disabled in replication DR secondary mode'], rule: http('role-table.secondary', 'a DR secondary serves no client request until it is promoted (only status and its DR endpoints stay open)') },
  /** Simulator wording: the service's text for restricted-root paths is not public (facts file, gap 2). */
  restrictedToRoot: { status: 400, wording: 'simulator', text: () => ['this endpoint can only be called from the root namespace'], rule: http('auth.4', 'replication endpoints are restricted to the root namespace (Authentication, rule 4)') },
  /** A DR operation token that is not this cluster's current one (or there is none). */
  invalidOperationToken: { status: 400, wording: 'service', text: () => ['invalid DR operation token'], rule: http('auth.2', 'promote, disable, update-primary, operation-token/delete, reindex and merkle-check on a DR secondary need a valid DR operation token (Authentication, rule 2)') },
  /**
   * No `dr_operation_token` in the body of a DR secondary's call: the service's text, quoted in
   * hashicorp/vault PR #4498 (a promote sent with the wrong key).
   */
  missingOperationToken: { status: 400, wording: 'service', text: () => ['DR operation token was not provided'], rule: http('auth.2', 'promote, disable, update-primary, operation-token/delete, reindex and merkle-check on a DR secondary need a DR operation token in dr_operation_token (Authentication, rule 2)') },
  clusterDown: { status: 503, wording: 'simulator', text: (cluster: string) => [`cluster "${cluster}" is not running (crashed): the request was not answered`], rule: http('replsim.crash', 'a crashed cluster answers nothing until it is restarted') },
  notImplemented: { status: 501, wording: 'simulator', text: (what: string) => [`not implemented in replsim: ${what}`], rule: http('replsim.limits', 'this part of the spec is not simulated yet (see the README, Limits)') },
  /**
   * A request naming something `__proto__` (a path parameter, a name field): no plain object of the
   * state can hold an entry by that name (world/own.ts). Simulator wording: the service accepts it.
   */
  forbiddenName: { status: 400, wording: 'simulator', text: () => ['replsim cannot store a name "__proto__" (a simulator limit: the service accepts it)'], rule: http('replsim.limits', 'replsim cannot store anything named "__proto__" (a simulator limit)') },
  /** An error of the service's core that has no response object: 500, multierror-wrapped (a session's own failure in `serve`). */
  internal: { status: 500, wording: 'simulator', text: (message: string) => [multierror(message)], rule: http('replsim.internal', 'the simulator failed while answering (a bug in replsim)') },
});

/**
 * The HTTP response of a reply. `requestId` is drawn by the caller only for successes, so a
 * refused request draws nothing from the world's generator.
 */
export function render(r: Reply, requestId: () => string, mountType = 'system'): ApiResponse {
  switch (r.kind) {
    case 'error': {
      const { status, errors } = refusalResponse(r);
      return { status, body: { errors } };
    }
    case 'bare':
      return { status: r.status ?? 200, body: r.body };
    case 'empty':
      if (!r.warnings?.length) return { status: 204, body: null };
      return render({ kind: 'data', data: null, warnings: r.warnings }, requestId, mountType);
    case 'data':
      return {
        status: 200,
        body: {
          request_id: requestId(),
          lease_id: '',
          renewable: false,
          lease_duration: 0,
          data: r.wrapInfo ? null : r.data,
          wrap_info: r.wrapInfo ?? null,
          warnings: r.warnings?.length ? r.warnings : null,
          auth: r.auth ?? null,
          mount_type: r.mountType ?? mountType,
        },
      };
  }
}
