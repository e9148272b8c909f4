// The one guard for names that come from outside (request paths and bodies, tokens, namespaces,
// event fields of a history file) and index a plain object of the state. A plain object inherits
// `constructor`, `toString`, `__proto__`, `hasOwnProperty` … from Object.prototype: `map[name]`
// with such a name returns a function or Object.prototype itself, and writing through it changes
// Object.prototype for the whole process (`DELETE …/paths-filter/__proto__` would). Every
// lookup by such a name goes through `own`/`hasOwn` instead, so only the object's own entries count.

/** The entry of `map` under `key` if `map` has it as its OWN property, else undefined. */
export function own<T>(map: Readonly<Record<string, T>> | null | undefined, key: string): T | undefined {
  return map != null && Object.hasOwn(map, key) ? map[key] : undefined;
}

/** Whether `map` has `key` as its own property (the guarded `key in map`). */
export function hasOwn(map: object | null | undefined, key: string): boolean {
  return map != null && Object.hasOwn(map, key);
}

/**
 * The one name no plain object can hold as an entry: assigning `map["__proto__"]` sets the object's
 * prototype instead (and immer refuses it on a draft). Requests that would store an entry under it
 * are refused at the router (`forbiddenName`), so it never reaches a reducer.
 */
export const PROTO_NAME = '__proto__';
