#!/usr/bin/env node
// The `replsim` command. It runs the bundle scripts/build-cli.mjs made (dist/cli/replsim.mjs) when
// that bundle is newer than every source file, and otherwise the TypeScript sources through tsx, so
// `npx replsim` works straight after a checkout and never runs stale code after an edit.
import { fileURLToPath } from 'node:url';
import { bundleIsFresh } from './bundle-fresh.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = `${root}dist/cli/replsim.mjs`;

let main;
let readStdin;
if (bundleIsFresh(bundle, root)) {
  ({ main, readStdin } = await import(bundle));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main, readStdin } = await import('../src/cli/main.ts'));
}
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
