#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so `npx replsim` works right after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
const io = { out: (l) => process.stdout.write(l + '\n'), err: (l) => process.stderr.write(l + '\n'), stdout: process.stdout, env: process.env };
process.exitCode = await main(process.argv.slice(2), io);
