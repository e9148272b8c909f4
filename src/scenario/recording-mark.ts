// A recording that knows its end. `replsim serve --record` writes a scenario file whose first line
// says how many steps it holds and whose last line closes it:
//
//   # replsim-recording/1: 14 steps, ending with the line "# end of recording: 14 steps"
//   ...the scenario...
//   # end of recording: 14 steps
//
// A copy cut short — at a step boundary too, where the YAML still parses and would run and pass —
// lacks the closing line, and the loader refuses it with the line where it stops, as `replay` refuses
// a history without its closing line. A file without the opening line is an ordinary scenario: the
// marks are comments, so they change nothing for a file written by hand, and deleting the first line
// turns an edited recording into one.
//
// While the session goes on, the file is written step by step and opens with a line saying so:
//
//   # replsim-recording/1: in progress (written step by step as the session goes; ...)
//
// A session that stops writes the file whole, as above. One killed leaves it in progress: whole up
// to its last step, refused by the loader at its end, since the session's verdict is not in it.
import type { ScenarioError } from './errors.js';

const OPENING = /^# replsim-recording\/1: (\d+) steps?\b/;
const CLOSING = /^# end of recording: (\d+) steps?$/;

const IN_PROGRESS = /^# replsim-recording\/1: in progress\b/;

/** The opening line of a recording being written step by step. */
export function recordingInProgress(): string {
  return '# replsim-recording/1: in progress (written step by step as the session goes; when the session stops it is written whole, with its step count)';
}

/** The opening line of a recording of `steps` steps. */
export function recordingOpening(steps: number): string {
  return `# replsim-recording/1: ${steps} step${steps === 1 ? '' : 's'}, ending with the line "${recordingClosing(steps)}"`;
}

/** The closing line of a recording of `steps` steps. */
export function recordingClosing(steps: number): string {
  return `# end of recording: ${steps} step${steps === 1 ? '' : 's'}`;
}

/** The step count a recording's opening line announces, or null when the text is not a recording (its leading comments lack the line). */
export function announcedSteps(text: string): number | null {
  for (const line of text.split('\n', 64)) {
    const l = line.replace(/\r$/, '');
    if (!l.startsWith('#')) return null;
    const m = OPENING.exec(l);
    if (m) return Number(m[1]);
  }
  return null;
}

/**
 * Checks a recording's end before it is parsed: the last line must close it with the announced step
 * count. Returns the error (at the line where the text stops) or null; null too for a text that is
 * not a recording.
 */
export function checkRecordingEnd(text: string, file: string): ScenarioError | null {
  const announced = announcedSteps(text);
  if (announced === null) return IN_PROGRESS.test(text.slice(0, 200)) ? stillWritten(text, file) : null;
  const lines = text.split('\n');
  const last = lastLine(lines);
  const closing = CLOSING.exec(lines[last].replace(/\r$/, ''));
  const where = { file, line: last + 1, column: 1, key: '' };
  if (!closing) {
    return {
      ...where,
      message: `the recording stops here: no closing line "${recordingClosing(announced)}" after this one (it announced ${announced} steps; the file was cut short, so replaying it would test less than the session did)`,
    };
  }
  if (Number(closing[1]) !== announced) return { ...where, message: `the closing line counts ${closing[1]} steps, the opening line ${announced}: the file was edited or spliced` };
  return null;
}

/** The index of the last line holding anything: where a text stops. */
function lastLine(lines: readonly string[]): number {
  let last = lines.length - 1;
  while (last > 0 && lines[last].trim() === '') last--;
  return last;
}

/** The refusal of a recording still in progress, at the line where it stops. */
function stillWritten(text: string, file: string): ScenarioError {
  return {
    file,
    line: lastLine(text.split('\n')) + 1,
    column: 1,
    key: '',
    message:
      'the recording was still being written here: its session ended without stopping (killed), so it holds the steps up to this line but not the verdict; `replsim serve --resume DIR` (a session kept with --out DIR) finishes it, or delete its first line to run the steps it holds as an ordinary scenario',
  };
}

/** Checks that a recording holds the steps it announced (after parsing); null when it does or is not a recording. */
export function checkRecordingSteps(text: string, file: string, steps: number, lineOfStep: (index: number) => number): ScenarioError | null {
  const announced = announcedSteps(text);
  if (announced === null || announced === steps) return null;
  const line = steps > 0 ? lineOfStep(steps - 1) : 1;
  return {
    file,
    line,
    column: 1,
    key: '',
    message: `the recording announces ${announced} steps but holds ${steps}: steps were ${steps < announced ? 'removed' : 'added'} (delete its first line to run it as an ordinary scenario)`,
  };
}
