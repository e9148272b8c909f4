import { describe, expect, it } from 'vitest';
import { describeMismatch, matchError, matchPartial, parseRegexLiteral, type Mismatch } from '../../src/scenario/match.js';

const response = {
  request_id: 'abc',
  data: { mode: 'primary', known_secondaries: ['west', 'south'], ttl: 1800, cluster_id: null, ok: true },
  wrap_info: { token: 's.1', ttl: 1800 },
};

function failure(expected: unknown, actual: unknown): Mismatch {
  const result = matchPartial(expected, actual);
  if (result.ok) throw new Error('expected a mismatch');
  return result;
}

describe('matchPartial', () => {
  it('matches when every given key matches and ignores the others', () => {
    expect(matchPartial({ data: { mode: 'primary' }, wrap_info: { ttl: 1800 } }, response)).toEqual({ ok: true });
    expect(matchPartial({}, response)).toEqual({ ok: true });
  });

  it('reports the path, both values and the reason of the first difference', () => {
    expect(failure({ data: { mode: 'secondary' } }, response)).toEqual({
      ok: false,
      path: 'data.mode',
      expected: 'secondary',
      actual: 'primary',
      reason: 'not-equal',
    });
  });

  it('reports a missing key', () => {
    expect(failure({ data: { state: 'running' } }, response)).toMatchObject({ path: 'data.state', reason: 'missing', actual: undefined });
  });

  it('matches arrays element by element and wants the same length', () => {
    expect(matchPartial({ data: { known_secondaries: ['west', 'south'] } }, response).ok).toBe(true);
    expect(failure({ data: { known_secondaries: ['west'] } }, response)).toMatchObject({ path: 'data.known_secondaries', reason: 'length' });
    expect(failure({ data: { known_secondaries: ['west', 'north'] } }, response)).toMatchObject({ path: 'data.known_secondaries.1', reason: 'not-equal' });
  });

  it('matches objects inside arrays partially', () => {
    expect(matchPartial([{ id: 'west' }], [{ id: 'west', connection_state: 'ready' }]).ok).toBe(true);
  });

  it('treats /.../flags as a regular expression', () => {
    expect(matchPartial({ data: { mode: '/^prim/' } }, response).ok).toBe(true);
    expect(matchPartial({ data: { mode: '/PRIMARY/i' } }, response).ok).toBe(true);
    expect(failure({ data: { mode: '/^sec/' } }, response)).toMatchObject({ path: 'data.mode', reason: 'no-regex-match' });
  });

  it('tests a regular expression against numbers and booleans as written', () => {
    expect(matchPartial({ ttl: '/^18\\d\\d$/', ok: '/true/' }, response.data).ok).toBe(true);
    expect(failure({ known_secondaries: '/west/' }, response.data)).toMatchObject({ reason: 'wrong-type' });
  });

  it('lets "*" match any present value, null included, but not an absent one', () => {
    expect(matchPartial({ request_id: '*', data: { cluster_id: '*', known_secondaries: '*' } }, response).ok).toBe(true);
    expect(failure({ data: { state: '*' } }, response)).toMatchObject({ path: 'data.state', reason: 'missing' });
  });

  it('lets null match an absent key or null, and nothing else', () => {
    expect(matchPartial({ data: { cluster_id: null, state: null } }, response).ok).toBe(true);
    expect(failure({ data: { mode: null } }, response)).toMatchObject({ path: 'data.mode', reason: 'not-null', actual: 'primary' });
  });

  it('does not convert between types', () => {
    expect(failure({ data: { ttl: '1800' } }, response)).toMatchObject({ path: 'data.ttl', reason: 'wrong-type' });
    expect(failure({ data: { ttl: 1800, ok: 1 } }, response)).toMatchObject({ path: 'data.ok', reason: 'wrong-type' });
    expect(failure({ data: [] }, response)).toMatchObject({ path: 'data', reason: 'wrong-type' });
    expect(failure({ data: { mode: {} } }, response)).toMatchObject({ path: 'data.mode', reason: 'wrong-type' });
  });

  it('prefixes paths with the given base', () => {
    expect(matchPartial({ mode: 'x' }, response.data, 'data')).toMatchObject({ path: 'data.mode' });
  });

  it('reports an expectation that looks like a regex but does not compile', () => {
    expect(failure('/a(/', 'a(')).toMatchObject({ reason: 'invalid-regex' });
  });

  it('does not read a key of the prototype as present', () => {
    expect(failure({ constructor: '*' }, {})).toMatchObject({ reason: 'missing' });
  });
});

describe('parseRegexLiteral', () => {
  it('reads /source/flags', () => {
    const literal = parseRegexLiteral('/a.c/gi');
    expect(literal && 'regex' in literal && literal.regex.flags).toBe('gi');
  });

  it('leaves paths that only look like one alone', () => {
    expect(parseRegexLiteral('/api/v1/sys')).toBeUndefined(); // "sys" repeats a flag letter
    expect(parseRegexLiteral('/sys/replication')).toBeUndefined();
    expect(parseRegexLiteral('/')).toBeUndefined();
    expect(parseRegexLiteral('//')).toBeUndefined();
    expect(parseRegexLiteral('plain')).toBeUndefined();
  });

  it('says why a regex does not compile', () => {
    expect(parseRegexLiteral('/a(/')).toMatchObject({ error: expect.stringContaining('/a(/') });
  });
});

describe('matchError', () => {
  const errors = ['cannot promote: both primary and secondary', 'permission denied'];

  it('finds a substring of one of the errors', () => {
    expect(matchError(errors, 'both')).toBe(true);
    expect(matchError(errors, 'denied')).toBe(true);
    expect(matchError(errors, 'Both')).toBe(false);
    expect(matchError([], 'both')).toBe(false);
  });

  it('matches /regex/flags against each error', () => {
    expect(matchError(errors, '/^permission/')).toBe(true);
    expect(matchError(errors, '/BOTH/i')).toBe(true);
    expect(matchError(errors, '/^both/')).toBe(false);
  });

  it('gives the same answer with a g flag whatever came before', () => {
    expect(matchError(['x', 'ab'], '/b/g')).toBe(true);
    expect(matchError(['ab', 'ab'], '/b/g')).toBe(true);
  });
});

describe('describeMismatch', () => {
  it('says what differed in one line', () => {
    expect(describeMismatch(failure({ data: { mode: 'secondary' } }, response))).toBe('data.mode: expected "secondary", got "primary"');
    expect(describeMismatch(failure({ data: { state: 'x' } }, response))).toBe('data.state: missing (expected "x")');
    expect(describeMismatch(failure({ data: { known_secondaries: ['a'] } }, response))).toBe('data.known_secondaries: expected 1 item, got 2');
    expect(describeMismatch(failure({ data: { mode: '/^s/' } }, response))).toBe('data.mode: "primary" does not match /^s/');
    expect(describeMismatch(failure({ data: { mode: null } }, response))).toBe('data.mode: expected absent or null, got "primary"');
    expect(describeMismatch(failure({ data: [] }, response))).toMatch(/^data: expected a list, got a map /);
  });

  it('shortens long values', () => {
    const text = describeMismatch(failure({ x: 'short' }, { x: 'y'.repeat(500) }));
    expect(text.length).toBeLessThan(120);
  });
});
