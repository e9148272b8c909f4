import { describe, expect, it } from 'vitest';
import { runtimeRefusal, stepRuntime } from '../../../models/plugin-runtime.machine.js';

describe('plugin runtime machine: registered by POST, removed by DELETE unless referenced', () => {
  it('register creates an entry, and overwrites a registered one', () => {
    expect(stepRuntime('absent', { type: 'register' })).toBe('registered');
    expect(stepRuntime('registered', { type: 'register' })).toBe('registered');
  });

  it('delete removes an entry no registered plugin references', () => {
    expect(stepRuntime('registered', { type: 'delete', referencedBy: [] })).toBe('absent');
    expect(runtimeRefusal('registered', { type: 'delete', referencedBy: [] })).toBeNull();
  });

  it('delete fails while a registered plugin references the runtime, naming the plugins', () => {
    expect(stepRuntime('registered', { type: 'delete', referencedBy: ['a', 'b'] })).toBeNull();
    expect(runtimeRefusal('registered', { type: 'delete', referencedBy: ['a', 'b'] })).toEqual({ kind: 'referenced', plugins: ['a', 'b'] });
  });

  it('delete of an absent entry fails as not found (references are reported first)', () => {
    expect(stepRuntime('absent', { type: 'delete', referencedBy: [] })).toBeNull();
    expect(runtimeRefusal('absent', { type: 'delete', referencedBy: [] })).toEqual({ kind: 'not-found' });
    expect(runtimeRefusal('absent', { type: 'delete', referencedBy: ['a'] })).toEqual({ kind: 'referenced', plugins: ['a'] });
  });
});
