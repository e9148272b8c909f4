// Publishes a one-verdict command's result for CI: the --junit file and, on GitHub Actions, the
// `::error` annotation (on stderr with --json, so stdout stays one JSON object a line).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { verdictAnnotation, verdictJunit, type CommandVerdict } from '../report/ci-verdict.js';
import type { Io } from './run.js';

/** 0, or 2 when the --junit file cannot be written (said on stderr). */
export function publishVerdict(io: Io, opts: { junit?: string; json?: boolean }, v: CommandVerdict): number {
  if (io.env.GITHUB_ACTIONS === 'true') {
    const line = verdictAnnotation(v);
    if (line) (opts.json ? io.err : io.out)(line);
  }
  if (opts.junit === undefined) return 0;
  try {
    mkdirSync(dirname(resolve(opts.junit)), { recursive: true });
    writeFileSync(opts.junit, verdictJunit(v));
    return 0;
  } catch (e) {
    io.err(`${v.command}: cannot write --junit ${opts.junit}: ${(e as Error).message}`);
    return 2;
  }
}
