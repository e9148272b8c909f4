#!/usr/bin/env node
// The `replsim` command. It runs the bundle scripts/build.mjs made (dist/cli/replsim.mjs), which an
// installed package always has, when that bundle is newer than every source file; in a checkout whose
// sources changed since, the TypeScript sources through tsx (a devDependency), so `npx replsim` never
// runs stale code after an edit.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleIsFresh } from './bundle-fresh.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = `${root}dist/cli/replsim.mjs`;

let main;
let readStdin;
let tuneHeap;
if (bundleIsFresh(bundle, root)) {
  ({ main, readStdin, tuneHeap } = await import(bundle));
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    process.stderr.write('replsim: dist/cli/replsim.mjs is missing or older than the sources, and tsx (to run the sources) is not installed: run `npm run build`, or `npm ci` with devDependencies\n');
    process.exit(2);
  }
  register();
  ({ main, readStdin, tuneHeap } = await import('../src/cli/main.ts'));
}
// V8's heap settings for this process and its command (src/cli/heap.ts), before anything is read.
tuneHeap(process.argv.slice(2));
const io = {
  out: (l) => process.stdout.write(l + '\n'),
  err: (l) => process.stderr.write(l + '\n'),
  stdout: process.stdout,
  env: process.env,
  // `replsim run -` reads a scenario from standard input (file descriptor 0), only when asked, and
  // no more than a scenario file may hold.
  stdin: () => readStdin(),
};
// A reader that stops early (`replsim run scenarios/ | head`) closes the pipe: stop quietly, as
// Unix tools do, instead of dying on an unhandled EPIPE with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}
process.exitCode = await main(process.argv.slice(2), io);
