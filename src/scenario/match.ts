// The partial deep match of scenario expectations (scenario-format.md, "request"): every key given must
// be present and match, arrays match element by element with the same length, "/.../flags" is a
// regular expression, "*" matches any present value and null matches absent or null.

/** Why a value did not match, in terms narration can phrase. */
export type MismatchReason =
  | 'missing' // the key is absent
  | 'not-equal' // both are scalars, of different value
  | 'wrong-type' // e.g. an object expected, an array or a string found
  | 'length' // arrays of different lengths
  | 'no-regex-match' // the value does not match the expected regular expression
  | 'invalid-regex' // the expectation looks like /.../ but does not compile (the loader rejects these)
  | 'not-null'; // null expected (absent or null), a value found

/** The first difference found, with the dotted path of where it is. */
export interface Mismatch {
  ok: false;
  path: string;
  expected: unknown;
  actual: unknown;
  reason: MismatchReason;
}

/** The outcome of a partial deep match. */
export type MatchResult = { ok: true } | Mismatch;

/** A string of the form `/source/flags`, compiled; `undefined` when the string is not of that form. */
export type RegexLiteral = { regex: RegExp } | { error: string } | undefined;

// Only JavaScript's flag letters, each at most once: "/api/v1/sys" is a path, not a regex with flags "sys".
const REGEX_LITERAL = /^\/(.+)\/([dgimsuvy]*)$/s;

/** Reads `/source/flags` as a regular expression; `{ error }` when it has that form but does not compile. */
export function parseRegexLiteral(text: string): RegexLiteral {
  const literal = REGEX_LITERAL.exec(text);
  if (!literal || new Set(literal[2]).size !== literal[2].length) return undefined;
  try {
    return { regex: new RegExp(literal[1], literal[2]) };
  } catch (e) {
    return { error: `${text} is not a valid regular expression: ${(e as Error).message}` };
  }
}

/** Matches `actual` against the partial expectation `expected`; `at` prefixes the paths reported. */
export function matchPartial(expected: unknown, actual: unknown, at = ''): MatchResult {
  if (expected === null) {
    return actual === null || actual === undefined ? OK : mismatch(at, expected, actual, 'not-null');
  }
  if (actual === undefined) return mismatch(at, expected, actual, 'missing');
  if (expected === '*') return OK;
  if (typeof expected === 'string') return matchString(expected, actual, at);
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return mismatch(at, expected, actual, 'wrong-type');
    if (actual.length !== expected.length) return mismatch(at, expected, actual, 'length');
    for (let i = 0; i < expected.length; i++) {
      const result = matchPartial(expected[i], actual[i], join(at, String(i)));
      if (!result.ok) return result;
    }
    return OK;
  }
  if (typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      return mismatch(at, expected, actual, 'wrong-type');
    }
    const given = actual as Record<string, unknown>;
    for (const [key, value] of Object.entries(expected as Record<string, unknown>)) {
      const present = Object.hasOwn(given, key) ? given[key] : undefined;
      const result = matchPartial(value, present, join(at, key));
      if (!result.ok) return result;
    }
    return OK;
  }
  if (typeof expected !== typeof actual) return mismatch(at, expected, actual, 'wrong-type');
  return expected === actual ? OK : mismatch(at, expected, actual, 'not-equal');
}

/** Whether one of the response's `errors` contains `pattern`, or matches it when it is `/regex/flags`. */
export function matchError(errors: readonly string[], pattern: string): boolean {
  const literal = parseRegexLiteral(pattern);
  if (literal && 'regex' in literal) {
    const { regex } = literal;
    // A fresh lastIndex for each error, so a `g` or `y` flag cannot make the result depend on order.
    return errors.some((error) => {
      regex.lastIndex = 0;
      return regex.test(error);
    });
  }
  return errors.some((error) => error.includes(pattern));
}

/** One line saying what differed, e.g. `data.mode: expected "primary", got "secondary"`. */
export function describeMismatch(m: Mismatch): string {
  const where = m.path === '' ? 'the value' : m.path;
  switch (m.reason) {
    case 'missing':
      return `${where}: missing (expected ${show(m.expected)})`;
    case 'not-equal':
      return `${where}: expected ${show(m.expected)}, got ${show(m.actual)}`;
    case 'wrong-type':
      return `${where}: expected ${kindOf(m.expected)}, got ${kindOf(m.actual)} ${show(m.actual)}`;
    case 'length':
      return `${where}: expected ${items((m.expected as unknown[]).length)}, got ${(m.actual as unknown[]).length}`;
    case 'no-regex-match':
      return `${where}: ${show(m.actual)} does not match ${String(m.expected)}`;
    case 'invalid-regex':
      return `${where}: the expectation ${String(m.expected)} is not a valid regular expression`;
    case 'not-null':
      return `${where}: expected absent or null, got ${show(m.actual)}`;
  }
}

const OK: MatchResult = { ok: true };

function matchString(expected: string, actual: unknown, at: string): MatchResult {
  const literal = parseRegexLiteral(expected);
  if (literal === undefined) {
    if (typeof actual !== 'string') return mismatch(at, expected, actual, 'wrong-type');
    return expected === actual ? OK : mismatch(at, expected, actual, 'not-equal');
  }
  if ('error' in literal) return mismatch(at, expected, actual, 'invalid-regex');
  // Numbers and booleans are tested as written, so `ttl: "/^18/"` can pin a number's digits.
  if (typeof actual !== 'string' && typeof actual !== 'number' && typeof actual !== 'boolean') {
    return mismatch(at, expected, actual, 'wrong-type');
  }
  literal.regex.lastIndex = 0;
  return literal.regex.test(String(actual)) ? OK : mismatch(at, expected, actual, 'no-regex-match');
}

function mismatch(path: string, expected: unknown, actual: unknown, reason: MismatchReason): Mismatch {
  return { ok: false, path, expected, actual, reason };
}

function items(count: number): string {
  return count === 1 ? '1 item' : `${count} items`;
}

function join(at: string, key: string): string {
  return at === '' ? key : `${at}.${key}`;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  if (typeof value === 'string') return parseRegexLiteral(value) ? 'a string, number or boolean' : 'a string';
  return `a ${typeof value}`;
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  // Narration is one line per step; a whole response body would drown the difference.
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
