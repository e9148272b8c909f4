// The HTTP face of one simulated cluster: a `node:http` listener on the loopback address speaking
// the service's HTTP API (vault-api-facts.md §0): the `/v1/` prefix; GET, POST, PUT, PATCH, DELETE,
// LIST and `GET ?list=true`; `X-Vault-Token` or `Authorization: Bearer` (clientToken); `X-Vault-Namespace`; JSON
// bodies up to the listener's `max_request_size`. What the HTTP layer itself refuses it refuses as
// the service's HTTP layer does (hashicorp/vault http/handler.go, http/logical.go,
// sdk/logical/response_util.go): a path outside `/v1/` → 404 `{"errors":[]}`; an unknown method →
// 405 `{"errors":[]}`; a body that is not JSON → 400 `error parsing JSON`; a body over the limit →
// 413 `error parsing JSON` (AdjustErrorStatusCode maps "request body too large" to 413) and the
// connection is closed. Everything else is the simulated world's answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Session } from './session.js';

/** The listener's limits; the defaults are the service's listener defaults where it has them. */
export interface ListenerLimits {
  /** `max_request_size`: 32 MiB (listener/tcp docs). */
  maxRequestSize: number;
  /** How long a client may take to send its headers, and its whole request, before the socket is closed. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

export const DEFAULT_LIMITS: ListenerLimits = { maxRequestSize: 32 * 1024 * 1024, headersTimeoutMs: 20_000, requestTimeoutMs: 60_000 };

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'LIST']);
/** Go's strconv.ParseBool, which the service uses for `?list=`. */
const GO_BOOLS: Record<string, boolean> = { '1': true, t: true, T: true, TRUE: true, true: true, True: true, '0': false, f: false, F: false, FALSE: false, false: false, False: false };

export function sendJson(res: ServerResponse, status: number, body: unknown, opts: { close?: boolean; head?: boolean } = {}): void {
  if (res.headersSent || res.writableEnded) return;
  const text = body === null || status === 204 ? '' : JSON.stringify(body) + '\n';
  res.statusCode = status;
  res.setHeader('Cache-Control', 'no-store');
  if (text !== '') {
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('Content-Length', Buffer.byteLength(text));
  }
  if (opts.close) res.setHeader('Connection', 'close');
  res.end(opts.head ? undefined : text);
}

/** Reads a body up to `limit` bytes: the text, or `too-large` (then nothing more is read). */
export function readBody(req: IncomingMessage, limit: number): Promise<string | 'too-large' | 'aborted'> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) return resolve('too-large');
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (v: string | 'too-large' | 'aborted') => {
      if (done) return;
      done = true;
      resolve(v);
    };
    req.on('data', (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > limit) {
        finish('too-large');
        req.pause();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => finish(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => finish('aborted'));
    req.on('close', () => finish('aborted'));
  });
}

/**
 * Replaces, in a body, every string that is a listener's address (`http://127.0.0.1:8200`, with or
 * without a trailing slash) by that cluster's address inside the simulation
 * (`https://east.replsim.test:8200`), which is what replication endpoints compare
 * (`primary_api_addr`, `update_primary_addrs`). Operators paste the address they see.
 */
export function simulatedAddresses(body: unknown, addressOf: (listenerUrl: string) => string | undefined): unknown {
  if (typeof body === 'string') return addressOf(body.trim().replace(/\/+$/, '').toLowerCase()) ?? body;
  if (Array.isArray(body)) return body.map((v) => simulatedAddresses(v, addressOf));
  if (body !== null && typeof body === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(body)) Object.defineProperty(out, k, { value: simulatedAddresses(v, addressOf), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return body;
}

/** The request handler of one cluster's listener. */
export function clusterHandler(session: Session, cluster: string, limits: ListenerLimits, addressOf: (listenerUrl: string) => string | undefined = () => undefined) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    handle(session, cluster, limits, addressOf, req, res).catch((e: unknown) => {
      // Never a crash: whatever went wrong becomes a 500 for this client alone.
      process.stderr.write(`replsim serve: internal error answering ${req.method} ${req.url}: ${(e as Error)?.stack ?? String(e)}\n`);
      sendJson(res, 500, { errors: ['internal error in replsim (please report)'] });
    });
  };
}

async function handle(
  session: Session,
  cluster: string,
  limits: ListenerLimits,
  addressOf: (listenerUrl: string) => string | undefined,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const rawUrl = req.url ?? '';
  const q = rawUrl.indexOf('?');
  const pathname = q >= 0 ? rawUrl.slice(0, q) : rawUrl;
  const search = new URLSearchParams(q >= 0 ? rawUrl.slice(q + 1) : '');
  let method = (req.method ?? '').toUpperCase();
  // HEAD is what load balancers send to sys/health: the GET's status, no body.
  const head = method === 'HEAD';
  if (head) method = 'GET';

  const body = await readBody(req, limits.maxRequestSize);
  if (body === 'aborted') return;
  if (body === 'too-large') return sendJson(res, 413, { errors: ['error parsing JSON'] }, { close: true });

  if (!pathname.startsWith('/v1/') || pathname === '/v1/') return sendJson(res, 404, { errors: [] }, { head });
  if (!METHODS.has(method)) return sendJson(res, 405, { errors: [] }, { head });
  // Percent-escapes stay as sent: the router decodes path parameters itself, as the service's does.
  const path = pathname.slice('/v1/'.length);

  const list = search.get('list');
  if (list !== null) {
    if (!(list in GO_BOOLS)) return sendJson(res, 400, { errors: [] }, { head });
    search.delete('list');
    if (GO_BOOLS[list] && method === 'GET') method = 'LIST';
  }
  const query = search.toString();
  const fullPath = query ? `${path}?${query}` : path;

  const wrapTtl = header(req, 'x-vault-wrap-ttl');
  if (wrapTtl !== undefined)
    return sendJson(res, 501, { errors: ['not implemented in replsim: response wrapping (X-Vault-Wrap-TTL); only activation tokens are wrapped'] }, { head });

  let parsed: unknown;
  // The service parses a body for writes only; a body on a read or list is ignored.
  if ((method === 'POST' || method === 'PUT' || method === 'PATCH') && body.trim() !== '') {
    try {
      parsed = simulatedAddresses(JSON.parse(body), addressOf);
    } catch {
      return sendJson(res, 400, { errors: ['error parsing JSON'] });
    }
  }

  const token = clientToken(req);
  const namespace = header(req, 'x-vault-namespace');
  const response = await session.request(cluster, { method, path: fullPath, body: parsed, token: token || undefined, namespace: namespace || undefined });
  sendJson(res, response.status, response.body, { head });
}

/**
 * The client token as the service reads it (http/handler.go, getTokenFromReq): `X-Vault-Token` when
 * it is not empty; else the first `Authorization` header that starts with "Bearer " (exactly so:
 * another scheme may be a plugin's), its rest trimmed. So an empty `X-Vault-Token` beside a Bearer
 * token uses the Bearer token.
 */
export function clientToken(req: IncomingMessage): string | undefined {
  const vault = req.headersDistinct['x-vault-token']?.[0];
  if (vault) return vault;
  for (const v of req.headersDistinct.authorization ?? []) if (v.startsWith('Bearer ')) return v.slice('Bearer '.length).trim() || undefined;
  return undefined;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
