// How a request line is read: the one place a request's path is parsed (the router serves what
// this gives; the monitors' request reader reads the same), so the two cannot disagree. It knows no
// area: `/v1/`, the query, and `GET ?list=true` as `LIST`, as the service's HTTP layer reads them.
import { PROTO_NAME } from '../own.js';

/** A request line as the service reads it: the method, the path and the query. */
export interface RequestLine {
  /** Upper case; `GET` with `?list=true` is `LIST`, as the service treats it. */
  method: string;
  /** Without leading slashes, `/v1/` or the query: "sys/replication/dr/status", "secret/data/a". */
  path: string;
  /** The query parameters by name (null-prototype: a query may name anything); the last of a repeated one wins. */
  query: Record<string, string>;
}

/**
 * Reads a request line: the one place a request's path is parsed (the router serves what this
 * gives; the monitors' request reader reads the same), so the two cannot disagree.
 */
export function parseRequestLine(method: unknown, path: unknown): RequestLine {
  let raw = String(path ?? '').trim().replace(/^\/+/, '');
  if (raw.startsWith('v1/')) raw = raw.slice(3);
  const query: Record<string, string> = Object.create(null);
  const qAt = raw.indexOf('?');
  if (qAt >= 0) {
    for (const [k, v] of new URLSearchParams(raw.slice(qAt + 1))) if (k !== PROTO_NAME) query[k] = v;
    raw = raw.slice(0, qAt);
  }
  let m = String(method ?? '').toUpperCase();
  if (m === 'GET' && query.list === 'true') m = 'LIST';
  return { method: m, path: raw, query };
}
