// The field parser converts the common well-typed values itself and leaves the rest to zod
// (src/kernel/http/fields.ts `plain`): for every value, what it answers must be what the field's
// zod schema alone answers — the same value, or the same 400 with the same text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIELD_SCHEMAS, parseFields, type FieldType } from '../../../src/kernel/http/fields.js';
import { render } from '../../../src/kernel/http/http.js';

const TYPES: FieldType[] = ['string', 'bool', 'int', 'duration', 'signed-duration', 'strings', 'map'];

/** What parsing one field gives when zod alone decides: the value, or the error text. */
function byZod(type: FieldType, raw: unknown): { value: unknown } | { error: string } {
  const parsed = FIELD_SCHEMAS[type].safeParse(raw);
  if (parsed.success) return { value: parsed.data };
  const why = parsed.error.issues[0]?.message ?? 'invalid value';
  return { error: `Field validation failed: error converting input ${JSON.stringify(raw)} for field "f": ${why}` };
}

function byParser(type: FieldType, raw: unknown): { value: unknown } | { error: string } {
  const r = parseFields({ f: { type } }, { f: raw });
  if (r.ok) return { value: r.fields.f };
  return { error: (render(r.reply, () => 'id').body as { errors: string[] }).errors[0] };
}

const values = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom('true', 'false', 't', '1', '0', 'TRUE', '5', '-7', '1.5', '30m', '-1s', '', 'a,b', ' x ', 0, 1, -0, 2.5, 1e21, -3, Number.MAX_SAFE_INTEGER + 2),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, [], [1, 'a'], ['a', 'b'], {}, { a: 1 }, [null], true, false),
);

describe('field parsing', () => {
  it('gives what zod alone gives, for every type and value', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TYPES), values, (type, raw) => {
        if (raw === null || raw === undefined) return;
        expect(byParser(type, raw)).toEqual(byZod(type, raw));
      }),
      { numRuns: 3000, seed: 15 },
    );
  });

  it("words every refusal itself, naming the field's type, never in zod's own words", () => {
    fc.assert(
      fc.property(fc.constantFrom(...TYPES), values, (type, raw) => {
        if (raw === null || raw === undefined) return;
        const r = byParser(type, raw);
        if ('error' in r) expect(r.error).toMatch(/for field "f": expected (a|an) (string|boolean|integer|duration|list of strings|object)\b/);
      }),
      { numRuns: 3000, seed: 16 },
    );
    expect(byParser('strings', [{}])).toEqual({ error: 'Field validation failed: error converting input [{}] for field "f": expected a list of strings' });
  });

  it('hands a map field the object itself, as zod does', () => {
    const data = { a: 1 };
    const r = parseFields({ data: { type: 'map' } }, { data });
    expect(r.ok && r.fields.data).toBe(data);
  });
});
