// The faults `replsim whatif` places into a runbook, where it may place them, and which placements
// it leaves out because they cannot change anything. A fault lasts for the step it is placed before
// (or the rest of the wait it is placed inside): it starts there and is recovered (restart, heal)
// right after that step, so each variant is the runbook with a few fault steps inserted.
import { formatMs } from '../kernel/clock.js';
import type { Step } from '../scenario/schema.js';

/** Every fault kind, in the order the matrix's columns show them. */
export const FAULT_KINDS = ['crash', 'partition', 'slow', 'client-write', 'retry', 'clock-jump'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * A slowed link's one-way latency: longer than the pauses runbooks trust (a few seconds), so that a
 * runbook that does not check that a secondary caught up meets WALs still on their way.
 */
export const SLOW_LATENCY_MS = 5_000;

/** What each kind does, for the help and the README. */
export const FAULT_WORDS: Readonly<Record<FaultKind, string>> = {
  crash: 'a cluster crashes, and restarts after the step',
  partition: 'the link between two nodes (clusters, or a cluster and a sync store) is cut, and healed after the step',
  slow: `the link between two clusters is slowed (${SLOW_LATENCY_MS / 1000} s one way for what is sent on it), and healed after the step (what was sent meanwhile still arrives late)`,
  'client-write': 'a client writes a secret to whichever cluster is primary',
  retry: 'an operator step is sent twice (a client that timed out and retried)',
  'clock-jump': "the virtual clock jumps past an outstanding activation token's ttl",
};

/** The kinds tried when --kinds is not given: every kind. */
export const DEFAULT_KINDS: readonly FaultKind[] = FAULT_KINDS;

/** A fault: its kind, and what it hits. */
export type Fault =
  | { kind: 'crash'; cluster: string }
  | { kind: 'partition'; a: string; b: string }
  | { kind: 'slow'; a: string; b: string; ms: number }
  | { kind: 'client-write' }
  | { kind: 'retry' }
  | { kind: 'clock-jump'; ms: number };

/** Where a fault starts: before step `step` (from 0; the step count means after the last), or `offsetMs` into that wait step. */
export interface Placement {
  step: number;
  offsetMs?: number;
}

/** One fault at one placement. */
export interface Placed {
  placement: Placement;
  fault: Fault;
}

/** Placements in the order the runbook reaches them. */
export function comparePlacements(x: Placement, y: Placement): number {
  return x.step - y.step || (x.offsetMs ?? 0) - (y.offsetMs ?? 0);
}

export function samePlacement(x: Placement, y: Placement): boolean {
  return comparePlacements(x, y) === 0;
}

/** A fault as people read it: "crash west", "partition east|west". */
export function faultLabel(f: Fault): string {
  switch (f.kind) {
    case 'crash':
      return `crash ${f.cluster}`;
    case 'partition':
      return `partition ${f.a}|${f.b}`;
    case 'slow':
      return `slow ${f.a}|${f.b}`;
    case 'client-write':
      return 'client write to the primary';
    case 'retry':
      return 'the step sent twice';
    case 'clock-jump':
      return `clock jumps ${formatScenarioWait(f.ms)}`;
  }
}

/** A placement as people read it: "before step 7", "inside step 5 (wait) at 40ms", "after the last step". */
export function placementLabel(p: Placement, steps: readonly Step[]): string {
  if (p.step >= steps.length) return 'after the last step';
  if (p.offsetMs !== undefined && p.offsetMs > 0) return `inside step ${p.step + 1} (${stepWords(steps[p.step])}) at ${formatMs(p.offsetMs)}`;
  return `before step ${p.step + 1}`;
}

function stepWords(s: Step): string {
  return s.kind === 'wait' ? `wait ${formatMs(s.ms)}` : s.kind;
}

/** A key that names a placed fault, for deduplication and the matrix: "3@40:crash west". */
export function placedKey(p: Placed): string {
  return `${p.placement.step}@${p.placement.offsetMs ?? 0}:${faultLabel(p.fault)}`;
}

/** The fault kinds that last for a window and are recovered after it. */
export function recoveryOf(f: Fault): Step | null {
  if (f.kind === 'crash') return { kind: 'restart', cluster: f.cluster } as Step;
  if (f.kind === 'partition' || f.kind === 'slow') return { kind: 'heal', groups: [[f.a], [f.b]] } as Step;
  return null;
}

/** Parses --kinds: the kinds named, or the message listing the valid ones (with a did-you-mean). */
export function parseKinds(given: string[] | undefined, suggest: (word: string, valid: readonly string[]) => string | null): { ok: true; kinds: FaultKind[] } | { ok: false; message: string } {
  if (given === undefined) return { ok: true, kinds: [...DEFAULT_KINDS] };
  const words = given.flatMap((g) => g.split(',')).map((g) => g.trim()).filter((g) => g !== '');
  if (words.length === 0) return { ok: false, message: `--kinds needs at least one of ${FAULT_KINDS.join(', ')}` };
  for (const w of words) {
    if (!(FAULT_KINDS as readonly string[]).includes(w)) {
      const near = suggest(w, FAULT_KINDS);
      return { ok: false, message: `unknown fault kind "${w}"${near ? `: did you mean "${near}"?` : ''} (kinds: ${FAULT_KINDS.join(', ')})` };
    }
  }
  return { ok: true, kinds: FAULT_KINDS.filter((k) => words.includes(k)) };
}

/** A duration as the scenario format writes it: `1m30s`, `40ms`. */
export function formatScenarioWait(ms: number): string {
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of [['h', 3_600_000], ['m', 60_000], ['s', 1000]] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  if (rest > 0 || parts.length === 0) parts.push(`${rest}ms`);
  return parts.join('');
}
