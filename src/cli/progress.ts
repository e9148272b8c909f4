// Progress for long commands, in the three forms their readers want: on a terminal one line rewritten
// in place (node's tty cursor calls, no hand-written escapes); in a log (CI, a pipe) a plain line now
// and then; with --json one object per tick. The wall clock here is for display only: nothing the
// simulation computes depends on it.
import { performance } from 'node:perf_hooks';

/** What progress needs of the command's output (run.ts's Io has it). */
export interface ProgressIo {
  out: (line: string) => void;
  stdout: { isTTY?: boolean };
}

/** A stream that may be a terminal (process.stdout is a tty.WriteStream when it is one). */
interface MaybeTty {
  isTTY?: boolean;
  write?: (s: string) => unknown;
  clearLine?: (dir: -1 | 0 | 1) => boolean;
  cursorTo?: (x: number) => boolean;
}

export type ProgressMode = 'tty' | 'lines' | 'json';

/** How progress is shown on this output: json when asked, one rewritten line on a terminal, lines otherwise. */
export function progressMode(io: ProgressIo, json: boolean): ProgressMode {
  if (json) return 'json';
  const s = io.stdout as MaybeTty;
  return s.isTTY === true && typeof s.clearLine === 'function' && typeof s.cursorTo === 'function' && typeof s.write === 'function' ? 'tty' : 'lines';
}

/** A status line: on a terminal it replaces the previous one; elsewhere it is printed as a line. */
export class StatusLine {
  private drawn = false;
  constructor(
    private readonly io: ProgressIo,
    private readonly mode: ProgressMode,
  ) {}

  show(text: string): void {
    if (this.mode === 'tty') {
      const s = this.io.stdout as Required<MaybeTty>;
      s.cursorTo(0);
      s.write(text);
      s.clearLine(1);
      this.drawn = true;
    } else this.io.out(text);
  }

  /** Clears a terminal's status line so the next output starts clean. */
  clear(): void {
    if (this.mode !== 'tty' || !this.drawn) return;
    const s = this.io.stdout as Required<MaybeTty>;
    s.cursorTo(0);
    s.clearLine(0);
    this.drawn = false;
  }
}

/** Wall time since start, and a gate that opens at most once per interval. */
export class Ticker {
  readonly started = performance.now();
  private last = this.started;
  constructor(private readonly intervalMs: number) {}

  elapsedMs(): number {
    return performance.now() - this.started;
  }

  /** True at most once per interval (the first time one interval after the start). */
  due(): boolean {
    const now = performance.now();
    if (now - this.last < this.intervalMs) return false;
    this.last = now;
    return true;
  }
}

/** `1m 05s`, `12s`, `0.4s`: a wall-clock duration for people. */
export function formatWall(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return `${m}m ${String(s % 60).padStart(2, '0')}s`;
}

export const count = (x: number) => x.toLocaleString('en-US');

/** Per second, from a count and the milliseconds it took (0 before any time has passed). */
export function perSecond(n: number, ms: number): number {
  return ms <= 0 ? 0 : Math.round((n * 1000) / ms);
}
