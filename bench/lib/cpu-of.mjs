// Runs a Node script (the first argument) with the other arguments, as `node script ...` would, and
// at exit writes the process's CPU time on stderr (`BENCH_CPU_MS <ms>`): user + system over all its
// threads, worker threads and V8's compiler and collector threads included. The workers row of the
// property section (bench/sections/property.ts) times `replsim check` commands with it.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

process.on('exit', () => {
  const u = process.cpuUsage();
  process.stderr.write(`\nBENCH_CPU_MS ${(u.user + u.system) / 1000}\n`);
});
// The script sees the arguments it would see run directly: argv[1] is itself.
process.argv.splice(1, 1);
await import(pathToFileURL(resolve(process.argv[1])).href);
