// The service's HTTP shapes: requests, the response envelope, and the error body with its status
// codes (vault-api-facts.md §0). Handlers return `Reply` values; the router turns them into these.
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

/** What a handler answers; the router adds `request_id` and the envelope. */
export type Reply =
  | { kind: 'data'; data: unknown; wrapInfo?: WrapInfo; warnings?: string[]; mountType?: string }
  /** A body outside the envelope; `status` for the few reads that answer another 2xx-or-not code (sys/health). */
  | { kind: 'bare'; body: unknown; status?: number }
  | { kind: 'empty'; warnings?: string[] }
  | { kind: 'error'; status: number; errors: string[] };

export const reply = {
  data: (data: unknown, extra: { wrapInfo?: WrapInfo; warnings?: string[]; mountType?: string } = {}): Reply => ({ kind: 'data', data, ...extra }),
  bare: (body: unknown): Reply => ({ kind: 'bare', body }),
  empty: (): Reply => ({ kind: 'empty' }),
  error: (status: number, ...errors: string[]): Reply => ({ kind: 'error', status, errors }),
};

/** The service wraps core errors in a multierror, so their text reads like this. */
export function multierror(message: string): string {
  return `1 error occurred:\n\t* ${message}\n\n`;
}

/** The error replies the service gives for the common conditions. */
export const errors = {
  /** A handler's validation failure: 400 with the bare message. */
  badRequest: (message: string): Reply => reply.error(400, message),
  permissionDenied: (): Reply => reply.error(403, multierror('permission denied')),
  unsupportedPath: (): Reply => reply.error(404, multierror('unsupported path')),
  /** A read of something absent: 404 with an empty error list. */
  notFound: (): Reply => reply.error(404),
  unsupportedOperation: (): Reply => reply.error(405, multierror('unsupported operation')),
  enterpriseOnly: (): Reply => reply.error(404, 'enterprise-only feature'),
  drSecondaryClosed: (): Reply => reply.error(400, 'path disabled in replication DR secondary mode'),
  /** Simulator wording: the service's text for restricted-root paths is not public (facts file, gap 2). */
  restrictedToRoot: (): Reply => reply.error(400, 'this endpoint can only be called from the root namespace'),
  /** A DR operation token that is not this cluster's current one (or there is none). */
  invalidOperationToken: (): Reply => reply.error(400, 'invalid DR operation token'),
  /**
   * No `dr_operation_token` in the body of a DR secondary's call: the service's text, quoted in
   * hashicorp/vault PR #4498 (a promote sent with the wrong key).
   */
  missingOperationToken: (): Reply => reply.error(400, 'DR operation token was not provided'),
  clusterDown: (cluster: string): Reply => reply.error(503, `cluster "${cluster}" is not running (crashed): the request was not answered`),
  notImplemented: (what: string): Reply => reply.error(501, `not implemented in replsim: ${what}`),
  /**
   * A request naming something `__proto__` (a path parameter, a name field): no plain object of the
   * state can hold an entry by that name (world/own.ts). Simulator wording: the service accepts it.
   */
  forbiddenName: (): Reply => reply.error(400, 'replsim cannot store a name "__proto__" (a simulator limit: the service accepts it)'),
  /** An error the service's core returns as a plain error (no response object): 500, multierror-wrapped. */
  internal: (message: string): Reply => reply.error(500, multierror(message)),
};

/**
 * The HTTP response of a reply. `requestId` is drawn by the caller only for successes, so a
 * refused request draws nothing from the world's generator.
 */
export function render(r: Reply, requestId: () => string, mountType = 'system'): ApiResponse {
  switch (r.kind) {
    case 'error':
      return { status: r.status, body: { errors: r.errors } };
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
          auth: null,
          mount_type: r.mountType ?? mountType,
        },
      };
  }
}
