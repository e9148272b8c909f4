import { describe, expect, it } from 'vitest';
import { getPath, resolvePath } from '../../src/scenario/dotted.js';

const body = { wrap_info: { token: 's.abc', ttl: 1800 }, data: { keys: ['k0', 'k1'], nothing: null, map: { '0': 'zero' } } };

describe('getPath', () => {
  it('follows map keys', () => {
    expect(getPath(body, 'wrap_info.token')).toBe('s.abc');
  });

  it('follows array indices', () => {
    expect(getPath(body, 'data.keys.1')).toBe('k1');
  });

  it('reads a digit key of a map as a key', () => {
    expect(getPath(body, 'data.map.0')).toBe('zero');
  });

  it('gives undefined for an absent key, an index out of range, or a path through a scalar', () => {
    expect(getPath(body, 'wrap_info.accessor')).toBeUndefined();
    expect(getPath(body, 'data.keys.2')).toBeUndefined();
    expect(getPath(body, 'wrap_info.token.length')).toBeUndefined();
    expect(getPath(body, 'data.nothing.x')).toBeUndefined();
  });

  it('does not reach array or object internals', () => {
    expect(getPath(body, 'data.keys.length')).toBeUndefined();
    expect(getPath(body, 'data.keys.-1')).toBeUndefined();
    expect(getPath(body, 'wrap_info.constructor')).toBeUndefined();
  });

  it('keeps a null it finds', () => {
    expect(resolvePath(body, 'data.nothing')).toEqual({ found: true, value: null });
  });

  it('names the empty path as the value itself', () => {
    expect(getPath(body, '')).toBe(body);
  });
});

describe('resolvePath', () => {
  it('says which prefix was absent', () => {
    expect(resolvePath(body, 'wrap_info.x.y')).toEqual({ found: false, missing: 'wrap_info.x' });
    expect(resolvePath(undefined, 'a')).toEqual({ found: false, missing: 'a' });
  });
});
