// The exit codes of every replsim command, one place for the code and the help text.
//
// Maelstrom (Jepsen) exits 0 valid, 1 invalid, 2 unknown. replsim keeps 0 and 1, but keeps 2 for
// misuse (a bad option or file: nothing was run), the Unix convention that commander, shells and
// every replsim command already follow; a search a limit stopped before it found anything (verdict
// unknown) exits 3, so a CI job tells "nothing found, not finished" from "called wrongly" by the code alone.

export const EXIT = {
  /** Every outcome matched what was expected. */
  valid: 0,
  /** A scenario's outcome, an invariant or a forbidden hazard did not hold. */
  invalid: 1,
  /** A bad file or option: nothing was run. */
  misuse: 2,
  /** A limit (--max-states, --time-limit) stopped the search first, and nothing was found so far. */
  unknown: 3,
} as const;

export const EXIT_CODES_HELP = `
Exit codes (0 and 1 as in Maelstrom; its "unknown" is 3 here, 2 being misuse):
  0  valid: every outcome matches what was expected
  1  invalid: a scenario's outcome, an invariant or a forbidden hazard did not hold
  2  misuse: a bad file or option; nothing was run
  3  unknown: a limit (explore --max-states, --time-limit) stopped the search first, nothing found so far`;
