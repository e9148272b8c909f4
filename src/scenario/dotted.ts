// Dotted paths into JSON values, as scenario files write them for `save` (`wrap_info.token`, `keys.0`).

/** Where a dotted path led: the value found, or the shortest prefix that was absent (for messages). */
export type PathLookup = { found: true; value: unknown } | { found: false; missing: string };

/** The segments of a dotted path; the empty path has none and names the value itself. */
export function splitPath(path: string): string[] {
  return path === '' ? [] : path.split('.');
}

/** Follows a dotted path through objects and arrays, saying which prefix was absent when it stops. */
export function resolvePath(value: unknown, path: string): PathLookup {
  const segments = splitPath(path);
  let current = value;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    const next = step(current, segment);
    if (next === undefined) return { found: false, missing: segments.slice(0, i + 1).join('.') };
    current = next;
  }
  return { found: true, value: current };
}

/** The value at a dotted path (`wrap_info.token`, `keys.0`), or undefined when any part is absent. */
export function getPath(value: unknown, path: string): unknown {
  const lookup = resolvePath(value, path);
  return lookup.found ? lookup.value : undefined;
}

function step(current: unknown, segment: string): unknown {
  if (Array.isArray(current)) {
    // Only plain decimal indices: `keys.length` or `keys.-1` must not reach array internals.
    if (!/^(0|[1-9]\d*)$/.test(segment)) return undefined;
    return current[Number(segment)];
  }
  if (current !== null && typeof current === 'object' && Object.hasOwn(current, segment)) {
    return (current as Record<string, unknown>)[segment];
  }
  return undefined;
}
