// How the service keys namespaces, mounts and filter paths: as folders, "team-a/", "secret/",
// whatever slashes a caller wrote around them. (A request line is read in src/kernel/http/request-line.ts.)

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
