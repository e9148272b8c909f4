// How the `replsim` process asks V8 to manage its heap: set by the process's entry (bin/replsim.js,
// src/cli/main.ts run directly), before any file is read, never by the library, since these are
// settings of the whole process and a program that imports replsim owns its own (it can pass the
// same flags to node: `--no-allocation-site-pretenuring --heap-growing-percent=50`, and for large
// runs `--heap-growing-percent=25 --max-semi-space-size=8`, the latter measured about the same as
// the growth factor below).
//
// They trade a little collection work for a peak that follows what the process holds
// (BENCHMARKS.md, "Memory of long sessions and runs"; `replsim run` of 100,000 writes took
// 21-31 s with or without them, a spread of the machine, not of the flags). That run, from the
// bundle, peaked 163-216 MB above a one-step run with V8's defaults, 118-125 MB with the first two
// below, 85-92 MB with all four:
//
// - Allocation-site pretenuring off. V8 watches each object literal's site, and once most of a
//   site's objects outlive a young-generation collection it allocates them straight into the old
//   generation, which is collected far less often. Reading a scenario in pieces
//   (src/scenario/pieces.ts) makes millions of short-lived objects (the YAML library's syntax tree
//   and document, the schema's output) whose sites look long-lived while a piece is being read:
//   some forty sites switched in the first second of a 100,000-step file, and their garbage then
//   piled up in the old generation. Loading that file alone (in a process that had loaded the
//   sources) peaked 137-139 MB above its start with pretenuring, 57-59 MB without. Long-lived
//   objects still reach the old generation, by surviving two young collections.
// - The old generation may grow to 1.5 times what it held after a full collection before the next
//   one, where V8's default on a machine with a few GB is up to 4 times: the run of that file held
//   some 30 MB after the load's collections and then grew to 124 MB before the next.
// - For `replsim run` only, the young generation keeps the size it has when the command starts
//   (8 MB with the bundle, measured) instead of doubling to V8's largest, 32 MB, as soon as a large
//   file's objects survive: semi-space growth factor 1, a setting V8 reads each time it would grow
//   the young generation (the largest size itself is fixed when the process starts, so
//   `--max-semi-space-size` cannot be set from here). The 100,000-write run peaked 193.5 MiB
//   (median of six) with it, 206.8 MiB without, in the same time (30.5-31.8 s either way); a
//   one-step run peaks 97 MiB either way. Not for `serve`: V8 shrinks an idle process's young
//   generation, which would then never grow back for the next burst of requests.
// - For `replsim run`, the old generation grows to 1.25 times, not 1.5: with the young generation
//   held, the run's peak is its old generation just before a full collection. The same run peaked
//   189.0 MiB (median of six) against 193.8 at 1.5, in the same time (26-29 s either way).
import { setFlagsFromString } from 'node:v8';

/** `argv`: the command line's arguments; its command is its first word that is not an option (`run`, `serve` …). */
export function tuneHeap(argv: readonly string[] = []): void {
  const run = argv.find((a) => !a.startsWith('-')) === 'run';
  setFlagsFromString('--no-allocation-site-pretenuring');
  setFlagsFromString(`--heap-growing-percent=${run ? 25 : 50}`);
  if (run) setFlagsFromString('--semi-space-growth-factor=1');
}
