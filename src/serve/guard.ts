// The guard every listener of `replsim serve` puts in front of its handler. Loopback is not a wall:
// a web page the operator opens can make the browser send requests to 127.0.0.1, either directly
// (a cross-site request carries the page's `Origin`) or through a name of the attacker's that
// resolves to 127.0.0.1 (DNS rebinding: the request carries the attacker's name as `Host`). So a
// listener answers only requests that name it — `Host` (and the authority of an absolute-form
// target) is one of its own addresses, `127.0.0.1:port`, `localhost:port`, `[::1]:port`, or a name
// the operator allowed with `--allow-host` — and that come from no other origin: an `Origin` header,
// when present, must be the listener's own `http://<its address>`, and a browser's `Sec-Fetch-Site`
// must not say `cross-site` or `same-site` (browsers send no Origin on a plain GET, but that header). Anything else gets 403 with the
// reason before any handler runs or any byte of the body is read.
//
// Every listener is made through `guarded` (serve.ts `makeListener`), so a listener or a route added
// later gets the same check without asking for it.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The names a listener answers to besides its loopback addresses (`--allow-host`), lower case. */
export type AllowedHosts = readonly string[];

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** An allowed host name as given on the command line: a name or an address, with no scheme, path or port of its own unless given as `name:port`. */
export function checkAllowedHost(value: string): string | null {
  const v = value.trim().toLowerCase();
  if (v === '') return 'an empty name';
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/.test(v)) return `"${value}" is not a host name (give a name like vault.local or vault.local:8200, without a scheme or path)`;
  return null;
}

/** The host:port forms a listener on `port` answers to. */
export function listenerHosts(port: number, allowed: AllowedHosts): Set<string> {
  const hosts = new Set<string>();
  for (const name of [...LOOPBACK_NAMES, ...allowed.map((a) => a.toLowerCase())]) {
    if (/:\d+$/.test(name) && !name.endsWith(']')) {
      // Given with a port: that exact authority only.
      hosts.add(name);
      continue;
    }
    hosts.add(`${name}:${port}`);
    // A Host without a port means the scheme's default port (80 for http).
    if (port === 80) hosts.add(name);
  }
  return hosts;
}

/** Why a request must be refused before it reaches a handler, or null when it names this listener. */
export function refusalOf(req: IncomingMessage, port: number, allowed: AllowedHosts): string | null {
  const hosts = listenerHosts(port, allowed);
  const own = `127.0.0.1:${port}`;
  const hint = `this listener answers to ${[...hosts].join(', ')}; another name of yours can be allowed with \`replsim serve --allow-host NAME\``;
  const hostHeader = req.headers.host;
  if (hostHeader !== undefined && !hosts.has(hostHeader.toLowerCase())) return `refused by replsim serve: Host "${short(hostHeader)}" is not this listener's address (${hint})`;
  const target = absoluteTarget(req.url ?? '');
  if (target && !hosts.has(target.authority.toLowerCase())) return `refused by replsim serve: the request target's host "${short(target.authority)}" is not this listener's address (${hint})`;
  const origin = header(req, 'origin');
  if (origin !== undefined) {
    const m = /^http:\/\/([^/]+)$/i.exec(origin);
    if (!m || !hosts.has(m[1].toLowerCase()))
      return `refused by replsim serve: the request comes from a web page of another origin, "${short(origin)}"; replsim serve answers only its own origin (http://${own}) and those of names allowed with --allow-host, so that a page on another site cannot drive the simulation or read its secrets`;
  }
  // A browser marks every request it sends (GETs without an Origin too: an <img>, a no-cors fetch)
  // with where it comes from; one from another site's page is refused like a foreign Origin.
  const site = header(req, 'sec-fetch-site')?.toLowerCase();
  if (site === 'cross-site' || site === 'same-site')
    return `refused by replsim serve: the browser says the request comes from a page of another site or origin (Sec-Fetch-Site: ${site}); replsim serve answers only its own pages and clients that are not browsers`;
  return null;
}

/**
 * An absolute-form request target (`GET http://127.0.0.1:8200/v1/sys/health HTTP/1.1`, what a
 * client talking to a proxy sends): its authority and the origin-form path it stands for.
 */
export function absoluteTarget(url: string): { authority: string; path: string } | null {
  const m = /^https?:\/\/([^/?#]*)([^#]*)/i.exec(url);
  if (!m) return null;
  const rest = m[2] === '' ? '/' : m[2].startsWith('?') ? `/${m[2]}` : m[2];
  return { authority: m[1], path: rest };
}

/**
 * Wraps a listener's handler with the Host and Origin check. The listener's port is read when a
 * request arrives (a listener on port 0 learns its port once bound). An absolute-form target that
 * passes is rewritten to its origin form, so handlers read one form of path.
 */
export function guarded(handler: (req: IncomingMessage, res: ServerResponse) => void, port: () => number, allowed: AllowedHosts) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const refusal = refusalOf(req, port(), allowed);
    if (refusal !== null) {
      const text = JSON.stringify({ errors: [refusal] }) + '\n';
      res.statusCode = 403;
      res.setHeader('Content-Type', 'application/json');
      res.setHeader('Content-Length', Buffer.byteLength(text));
      res.setHeader('Cache-Control', 'no-store');
      // The body is not read: close the connection rather than read what an attacker sends.
      res.setHeader('Connection', 'close');
      res.end(req.method === 'HEAD' ? undefined : text);
      return;
    }
    const target = absoluteTarget(req.url ?? '');
    if (target) req.url = target.path;
    handler(req, res);
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** A header value as an error quotes it: attackers choose its length. */
function short(v: string): string {
  return v.length > 100 ? `${v.slice(0, 97)}...` : v;
}
