// How the service keys namespaces, mounts and filter paths: as folders, "team-a/", "secret/",
// whatever slashes a caller wrote around them; and how a request line is read.
import { PROTO_NAME } from '../../kernel/own.js';

/** "team-a", "/team-a/", " secret " → "team-a/", "secret/"; an empty path stays "" (the root namespace). */
export function asFolder(path: string | undefined): string {
  const t = (path ?? '').trim().replace(/^\/+|\/+$/g, '');
  return t === '' ? '' : t + '/';
}

/** The namespace a path lives in: the longest of the given namespaces that prefixes it ("" for root). */
export function namespaceOfPath(path: string, namespaces: string[]): string {
  let best = '';
  for (const ns of namespaces) if (path.startsWith(ns) && ns.length > best.length) best = ns;
  return best;
}

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
