// The virtual clock's conversions. The world's time is a plain number of milliseconds since the
// simulation began, kept in the world state and moved only by events; this module turns it into
// the wall-clock shapes the service prints. It is one of the two places allowed to build dates.
import { memoBounded } from './memo.js';

/** The instant a simulation starts at, so printed times look like the service's and never vary. */
export const SIMULATION_EPOCH_MS = Date.UTC(2026, 0, 1, 0, 0, 0);

// The same instants are printed again and again (every reply about a key prints its versions'
// times, a write's reply prints "now"): the texts are kept, and a date built only for a new one.
/** RFC 3339 time of a virtual instant, as the service prints `creation_time` and `last_heartbeat`. */
export const rfc3339: (ms: number) => string = memoBounded((ms: number) => new Date(SIMULATION_EPOCH_MS + ms).toISOString().replace('.000Z', 'Z'), 4096);

/** Whole seconds since the Unix epoch at a virtual instant (JWT `iat`/`exp`, `*_epoch` fields). */
export function epochSeconds(ms: number): number {
  return Math.floor((SIMULATION_EPOCH_MS + ms) / 1000);
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses a duration as the service and scenario files write it: `500ms`, `10s`, `31m`, `2h`, a
 * combination such as `1h30m`, or a bare number (seconds for the service's `ttl`, unless `bareUnit`
 * says otherwise). Returns null when the text is not a duration.
 */
export function parseDuration(text: string | number, bareUnit: 'ms' | 's' = 's'): number | null {
  if (typeof text === 'number') return Number.isFinite(text) && text >= 0 ? text * UNITS[bareUnit] : null;
  const t = text.trim();
  if (/^\d+$/.test(t)) return Number(t) * UNITS[bareUnit];
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(t)) !== null) {
    total += Number(m[1]) * UNITS[m[2]];
    matched = re.lastIndex;
  }
  return matched === t.length && matched > 0 ? Math.round(total) : null;
}

/** A duration as a scenario file writes it (`31m`, `10s`, `250ms`): the largest whole unit. */
export function formatMs(ms: number): string {
  if (ms % 3_600_000 === 0 && ms > 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0 && ms > 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0 && ms > 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
