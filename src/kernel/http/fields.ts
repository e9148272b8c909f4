// Request body fields, parsed the way the service's framework does: declared fields with types and
// defaults, weak typing ("true" is a bool, "5" an int, "a,b" an array), a 400 naming the field when
// a value cannot be converted, and a warning, not an error, for parameters the endpoint ignores.
import { z } from 'zod/v4';
import { parseDuration } from '../clock.js';
import { hasOwn, own, PROTO_NAME } from '../own.js';
import { errors, type Reply } from './http.js';

export type FieldType = 'string' | 'bool' | 'int' | 'duration' | 'signed-duration' | 'strings' | 'map';

export interface FieldSpec {
  type: FieldType;
  default?: unknown;
  /** When set, the field must be present; the text is the service's error for its absence. */
  required?: string;
}

type ValueOf<T extends FieldType> = T extends 'string'
  ? string
  : T extends 'bool'
    ? boolean
    : T extends 'int' | 'duration' | 'signed-duration'
      ? number
      : T extends 'strings'
        ? string[]
        : Record<string, unknown>;

/** The parsed body: every declared field, with its default when absent (`undefined` if none). */
export type Fields<S extends Record<string, FieldSpec>> = { [K in keyof S]: ValueOf<S[K]['type']> } & { present: Set<string> };

const BOOLS: Record<string, boolean> = { true: true, t: true, '1': true, TRUE: true, True: true, false: false, f: false, '0': false, FALSE: false, False: false };

/** zod schemas that accept what the service's weak decoding accepts (exported for the test that pins `parseFields` to them). */
export const FIELD_SCHEMAS: Readonly<Record<FieldType, z.ZodType>> = {
  string: z.preprocess((v) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v), z.string({ message: 'expected a string' })),
  bool: z.preprocess((v) => (typeof v === 'string' && hasOwn(BOOLS, v) ? BOOLS[v] : typeof v === 'number' && (v === 0 || v === 1) ? v === 1 : v), z.boolean({ message: 'expected a boolean' })),
  // Any whole number, past 2^53 too (the service's ints are 64 bits): zod's int() stops at 2^53.
  int: z.preprocess((v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v), z.number({ message: 'expected an integer' }).refine(Number.isInteger, { message: 'expected an integer' })),
  duration: z.preprocess(
    (v) => (typeof v === 'string' || typeof v === 'number' ? (parseDuration(v, 's') ?? v) : v),
    z.number({ message: 'expected a duration such as "30m" or a number of seconds' }),
  ),
  // The framework's TypeSignedDurationSecond: a duration that may be negative ("-1s", -1), in ms.
  'signed-duration': z.preprocess(
    (v) => {
      if (typeof v === 'number') return Number.isFinite(v) ? v * 1000 : v;
      if (typeof v !== 'string') return v;
      const t = v.trim();
      const ms = parseDuration(t.startsWith('-') ? t.slice(1) : t, 's');
      return ms === null ? v : t.startsWith('-') ? -ms : ms;
    },
    z.number({ message: 'expected a duration such as "30m" or a number of seconds' }),
  ),
  strings: z.preprocess(
    (v) => (typeof v === 'string' ? (v === '' ? [] : v.split(',').map((s) => s.trim())) : v),
    z.array(z.preprocess((x) => (typeof x === 'number' ? String(x) : x), z.string({ message: 'expected a list of strings' })), { message: 'expected a list of strings' }),
  ),
  // The object itself, not a copy: zod's record copies entry by entry and drops a key "__proto__",
  // which the service stores like any other (KV data), so the data would be silently lost.
  map: z.custom<Record<string, unknown>>((v) => v !== null && typeof v === 'object' && !Array.isArray(v), { message: 'expected an object' }),
};

/** Says "ask zod": the value is not one of the common forms `plain` converts itself. */
const ASK_ZOD: unique symbol = Symbol('ask zod');

/**
 * The value a field's zod schema gives for the common, already well-typed inputs (a string for a
 * string, a boolean for a bool, an integer for an int, an object for a map), without zod. zod costs
 * a few microseconds a field and most requests give these; anything else (weak typing such as
 * "true" or "5", durations, lists, and every invalid value with its message) goes to zod. Each
 * answer is what the schema returns for that input: the value itself.
 */
const plain: Partial<Record<FieldType, (v: unknown) => unknown>> = {
  string: (v) => (typeof v === 'string' ? v : ASK_ZOD),
  bool: (v) => (typeof v === 'boolean' ? v : ASK_ZOD),
  int: (v) => (typeof v === 'number' && Number.isInteger(v) ? v : ASK_ZOD),
  map: (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v : ASK_ZOD),
};

/** A spec's fields as a list, made once per spec (specs are constants of the route tables). */
const specEntries = new WeakMap<Record<string, FieldSpec>, [string, FieldSpec][]>();

function entriesOf(spec: Record<string, FieldSpec>): [string, FieldSpec][] {
  let entries = specEntries.get(spec);
  if (!entries) specEntries.set(spec, (entries = Object.entries(spec)));
  return entries;
}

/**
 * Parses a body against declared fields. Fails with the service's 400 on the first field that
 * cannot be converted or is missing; ignored parameters come back as a warning.
 */
export function parseFields<S extends Record<string, FieldSpec>>(spec: S, body: Record<string, unknown>): { ok: true; fields: Fields<S>; warnings: string[] } | { ok: false; reply: Reply } {
  const out: Record<string, unknown> = {};
  const present = new Set<string>();
  for (const [name, field] of entriesOf(spec)) {
    const raw = own(body, name);
    if (raw === undefined || raw === null) {
      if (field.required !== undefined) return { ok: false, reply: errors.badField(field.required) };
      out[name] = field.default;
      continue;
    }
    let value: unknown = plain[field.type]?.(raw) ?? ASK_ZOD;
    if (value === ASK_ZOD) {
      const parsed = FIELD_SCHEMAS[field.type].safeParse(raw);
      if (!parsed.success) {
        const why = parsed.error.issues[0]?.message ?? 'invalid value';
        return { ok: false, reply: errors.badField(`Field validation failed: error converting input ${JSON.stringify(raw)} for field "${name}": ${why}`) };
      }
      value = parsed.data;
    }
    // A name field reaches the state as a key (a secondary id, a destination name): see http.ts.
    if (field.type === 'string' && (value as string).trim() === PROTO_NAME) return { ok: false, reply: errors.forbiddenName() };
    out[name] = value;
    present.add(name);
  }
  const ignored = Object.keys(body).filter((k) => !hasOwn(spec, k)).sort();
  const warnings = ignored.length ? [`Endpoint ignored these unrecognized parameters: [${ignored.join(' ')}]`] : [];
  return { ok: true, fields: Object.assign(out, { present }) as Fields<S>, warnings };
}
