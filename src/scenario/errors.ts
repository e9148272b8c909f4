// A problem in a scenario file and where it is, apart from loader.ts so that interpolate.ts (which the
// loader calls) can name them without importing the loader: no import cycle.
/** One problem in a scenario file; `line` and `column` count from 1 (0 when unknown). */
export interface ScenarioError {
  file: string;
  line: number;
  column: number;
  /** Dotted path of the key, like `steps.3.tokn`; empty for the file as a whole. */
  key: string;
  message: string;
}

/** A key path into the file, as zod reports them: map keys and list indices. */
export type ScenarioPath = readonly (string | number)[];

/** The line and column of a key path, as close as the file allows (a missing key gives its parent's). */
export type Locate = (path: ScenarioPath) => { line: number; column: number };
