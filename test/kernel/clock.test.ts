import { describe, expect, it } from 'vitest';
import { epochSeconds, parseDuration, rfc3339, SIMULATION_EPOCH_MS } from '../../src/kernel/clock.js';

describe('virtual clock', () => {
  it('prints virtual instants as RFC 3339 from the simulation epoch', () => {
    expect(rfc3339(0)).toBe('2026-01-01T00:00:00Z');
    expect(rfc3339(90_500)).toBe('2026-01-01T00:01:30.500Z');
  });

  it('gives whole epoch seconds for JWT claims', () => {
    expect(epochSeconds(1999)).toBe(Math.floor(SIMULATION_EPOCH_MS / 1000) + 1);
  });

  it('parses the durations scenario files and the service use', () => {
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('10s')).toBe(10_000);
    expect(parseDuration('31m')).toBe(1_860_000);
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('1800')).toBe(1_800_000);
    expect(parseDuration(250, 'ms')).toBe(250);
  });

  it('refuses text that is not a duration', () => {
    expect(parseDuration('ten minutes')).toBeNull();
    expect(parseDuration('5x')).toBeNull();
    expect(parseDuration('')).toBeNull();
    expect(parseDuration(-1)).toBeNull();
  });
});
