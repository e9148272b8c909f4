// THE wall clock of `replsim serve`: the one place in replsim that reads real time to drive a
// world. Everything else in the simulator sees only the virtual clock (src/kernel/clock.ts), which
// moves by `wait` steps and `advance` commands. While serving, the virtual clock follows real time
// (times `speed`), or, with `--clock manual`, moves only when the control listener says `advance`.
//
// The mapping lives here and nowhere else: a session asks `due()` how many virtual milliseconds the
// world should have reached, advances the world to that instant before each request or command, and
// records the advance as a `wait` step, so the recording replays without any clock at all.
import { performance } from 'node:perf_hooks';

export type ClockMode = 'wall' | 'manual';

/** Real milliseconds, for how often the session's files are synced to the disk: never for the world. */
export const realMs = (): number => performance.now();

/** Where the virtual time of a served world comes from. */
export interface ServeClock {
  readonly mode: ClockMode;
  /** Virtual milliseconds elapsed since serving began that the world should have reached now. */
  due(): number;
}

/** Real time since serving began, times `speed` (1 = real time; 60 = a minute per second). */
export class WallClock implements ServeClock {
  readonly mode = 'wall' as const;
  private readonly startedAt = performance.now();

  constructor(private readonly speed = 1) {
    if (!Number.isFinite(speed) || speed <= 0) throw new RangeError(`--speed must be a positive number, got ${speed}`);
  }

  due(): number {
    // Whole milliseconds: world events carry integer times.
    return Math.floor((performance.now() - this.startedAt) * this.speed);
  }
}

/** No real time at all: the world moves only when told (`replsim ctl advance 10s`). */
export class ManualClock implements ServeClock {
  readonly mode = 'manual' as const;
  due(): number {
    return 0;
  }
}
