// What a benchmark section reports: rows of the table, each figure beside its goal. A section runs in
// its own process (run.ts) and hands its rows back as one marked line on stdout.

export interface Figure {
  /** What was measured, in words. */
  name: string;
  value: number;
  unit: string;
}

export interface Row {
  /** Stable id, e.g. "throughput-dr-100". */
  id: string;
  /** The numbering of the benchmark (1 to 6). */
  section: number;
  title: string;
  /** replsim's figure; null when it could not be measured (see `note`). */
  replsim: Figure | null;
  /** What it is compared with, when a goal compares. */
  baseline?: Figure;
  /** replsim's time over the baseline's for the same work (lower is better), when there is one. */
  ratio?: number;
  /** The goal in words, e.g. "ratio <= 3x". */
  goal: string;
  /** Whether the goal was met; null when there is no figure to judge (not available yet). */
  met: boolean | null;
  /** Why a figure is missing, or what the figure needs to be read with. */
  note?: string;
  /** Anything else worth keeping in results.json (repetitions, breakdowns). */
  detail?: Record<string, unknown>;
}

export const RESULT_MARK = '@@bench-rows ';

/** Hands the section's rows to run.ts. */
export function emit(rows: Row[]): void {
  process.stdout.write('\n' + RESULT_MARK + JSON.stringify(rows) + '\n');
}

/** A row for something that cannot be measured yet, with the reason instead of a number. */
export function notAvailable(id: string, section: number, title: string, goal: string, why: string): Row {
  return { id, section, title, replsim: null, goal, met: null, note: `not available yet: ${why}` };
}
