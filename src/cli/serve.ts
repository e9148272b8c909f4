// `replsim serve` and `replsim ctl`, registered on the CLI program by src/cli/main.ts.
import { Command, InvalidArgumentError } from 'commander';
import { decodeToken } from '../areas/cluster/crypto/otp.js';
import type { Io } from './run.js';
import type { Finding } from '../areas/monitoring/types.js';
import { serve, ServeError, writeSessionFiles, type ServeHandle } from '../serve/serve.js';
import { STOP_SIGNALS } from '../kernel/files.js';

const DEFAULT_PORT = 8200;

function positiveNumber(name: string) {
  return (v: string) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a positive number, got "${v}"`);
    return n;
  };
}

function port(name: string) {
  return (v: string) => {
    if (!/^\d+$/.test(v) || Number(v) > 65535) throw new InvalidArgumentError(`${name} must be a port number (0 to 65535; 0 picks free ports), got "${v}"`);
    return Number(v);
  };
}

function clusterList(v: string): string[] {
  const names = v.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new InvalidArgumentError('--clusters needs cluster names separated by commas, like east,west');
  return names;
}

interface ServeCliOptions {
  clusters?: string[];
  port: number;
  controlPort?: number;
  seed?: number;
  clock: 'wall' | 'manual';
  speed?: number;
  record?: string;
  out?: string;
  resume?: string;
}

/** The lines `serve` prints once every listener is up: where each cluster is and how to reach it. */
export function banner(h: ServeHandle, opts: { clock: string; speed?: number }): string[] {
  const lines: string[] = [];
  const s = h.world.state;
  const clock = opts.clock === 'manual' ? 'manual (time moves only with `replsim ctl advance`)' : `wall clock${opts.speed && opts.speed !== 1 ? ` x${opts.speed}` : ''}`;
  lines.push(`replsim serve: ${h.session.clusters.length} cluster${h.session.clusters.length === 1 ? '' : 's'}, seed ${s.seed}, virtual time ${clock}`);
  for (const name of h.session.clusters) {
    const ops = s.operators[name];
    lines.push('');
    lines.push(`# ${name}: ${h.clusters[name].url}   (unseal keys: ${ops.keys.join(' ')})`);
    lines.push(`export VAULT_ADDR=${h.clusters[name].url} VAULT_TOKEN=${ops.rootToken}`);
  }
  lines.push('');
  lines.push(`# control: ${h.control.url}   (replsim ctl status | advance 10s | partition east west | heal all | crash east | restart east …)`);
  lines.push(`export REPLSIM_CTL_ADDR=${h.control.url}`);
  lines.push('');
  lines.push(`listening ${JSON.stringify({ ...Object.fromEntries(Object.entries(h.clusters).map(([n, e]) => [n, e.url])), control: h.control.url })}`);
  return lines;
}

function describeFinding(f: Finding): string {
  return `replsim serve: ${f.kind === 'violation' ? 'invariant violated' : 'hazard'} ${f.id} (${f.clusters.join(', ')}): ${f.message}`;
}

export function registerServe(program: Command, io: Io, setExit: (code: number) => void): void {
  program
    .command('serve')
    .description('serve simulated clusters over HTTP to real clients (one listener per cluster on 127.0.0.1), with a control listener for time and faults')
    .argument('[scenario]', 'a scenario file to run first; its world is then served')
    .option('--clusters <names>', 'cluster names, comma-separated (default east,west); not with a scenario', clusterList)
    .option('--port <n>', `first cluster's port; the others follow (0 picks free ports)`, port('--port'), DEFAULT_PORT)
    .option('--control-port <n>', 'control listener port (default: the one after the last cluster)', port('--control-port'))
    .option('--seed <n>', 'seed of the world (default: the scenario\'s, or 1)', (v) => {
      if (!/^-?\d+$/.test(v)) throw new InvalidArgumentError(`--seed must be a whole number, got "${v}"`);
      return Number(v);
    })
    .option('--clock <mode>', 'wall: virtual time follows real time; manual: it moves only with `ctl advance`', (v) => {
      if (v !== 'wall' && v !== 'manual') throw new InvalidArgumentError(`--clock must be wall or manual, got "${v}"`);
      return v;
    }, 'wall')
    .option('--speed <n>', 'with the wall clock, run virtual time N times faster', positiveNumber('--speed'))
    .option('--record <file>', 'on stop, write everything that happened as a format-1 scenario that `replsim run` replays')
    .option('--out <dir>', 'keep the session here as it goes (history.jsonl, session.jsonl); on stop, write results.json and the report, as `replsim run --out` does')
    .option('--resume <dir>', 'resume the session kept in DIR by --out (killed or stopped): same clusters, ports, clock and recording')
    .action(async (scenario: string | undefined, opts: ServeCliOptions) => setExit(await serveCommand(scenario, opts, io)));

  program
    .command('ctl')
    .description('drive a running `replsim serve` through its control listener')
    .argument('<command>', 'status | advance DURATION | stop | partition A B | heal A B|all | crash C | restart C | corrupt C TREE PAGE SUBPAGE | destination-fault C TYPE NAME FAULT | scenario | decode-token ENCODED OTP')
    .argument('[args...]', 'the command\'s arguments')
    .option('--addr <url>', 'the control listener (default $REPLSIM_CTL_ADDR, else http://127.0.0.1:8202)')
    .action(async (command: string, args: string[], opts: { addr?: string }) => setExit(await ctlCommand(command, args, opts.addr ?? io.env.REPLSIM_CTL_ADDR ?? 'http://127.0.0.1:8202', io)));
}

async function serveCommand(scenario: string | undefined, opts: ServeCliOptions, io: Io): Promise<number> {
  let handle: ServeHandle;
  try {
    handle = await serve({
      scenario,
      clusters: opts.clusters,
      port: opts.port,
      controlPort: opts.controlPort,
      seed: opts.seed,
      clock: opts.clock,
      speed: opts.speed,
      out: opts.out,
      record: opts.record,
      resume: opts.resume,
      onFinding: (f) => io.err(describeFinding(f)),
    });
  } catch (e) {
    if (!(e instanceof ServeError)) throw e;
    io.err(`replsim serve: ${e.message}`);
    return 2;
  }
  if (handle.resumed) {
    const r = handle.resumed;
    io.out(`replsim serve: resumed ${opts.resume}: ${r.steps} steps, ${r.events} events${r.leftOut > 0 ? ` (${r.leftOut} events of a step whose client was never answered left out)` : ''}`);
  }
  for (const l of banner(handle, { clock: handle.clock, speed: opts.speed })) io.out(l);
  // Stop on SIGINT, SIGTERM or SIGHUP, or `replsim ctl stop`: stop accepting, let in-flight requests
  // finish, write the files, exit 0. A second signal changes nothing (the files are being written);
  // a third exits at once, saying what was not written.
  let signals = 0;
  let writing: string[] = [];
  const onSignal = (signal: NodeJS.Signals) => {
    signals++;
    if (signals === 1) return resolveStop(signal);
    if (signals === 2) return io.err(`replsim serve: ${signal} again: still stopping; the files are written first (a third signal exits at once)`);
    const history = handle.files ? `${handle.files.dir}/history.jsonl holds the ${handle.files.history.events} events committed, without its closing line` : 'no history is kept (no --out)';
    io.err(`replsim serve: ${signal} a third time: exiting now; not written: ${writing.length > 0 ? writing.join(', ') : 'nothing else'}; ${history}`);
    process.exit(2);
  };
  let resolveStop: (reason: string) => void = () => undefined;
  const reason = await new Promise<string>((resolve) => {
    resolveStop = resolve;
    for (const sig of STOP_SIGNALS) process.on(sig, onSignal);
    void handle.stopped.then(() => resolve('stop requested on the control listener'));
  });
  const record = opts.record ?? handle.record;
  writing = [...(record ? [record] : []), ...(opts.out ?? handle.files?.dir ? ['results.json', 'report.html', 'sequence.md', 'the closing line of history.jsonl'] : [])];
  io.out(`replsim serve: ${reason}: stopping`);
  try {
    const result = await handle.stop();
    for (const f of writeSessionFiles(handle, result, { record: opts.record, out: opts.out })) io.out(`replsim serve: wrote ${f}`);
    writing = [];
    io.out(`replsim serve: ${result.steps.length} steps, verdict ${result.verdict}${result.reasons.length ? `: ${result.reasons.join('; ')}` : ''}`);
  } finally {
    for (const sig of STOP_SIGNALS) process.off(sig, onSignal);
  }
  return 0;
}

/** A ctl command as the scenario step the control listener takes. */
export function ctlStep(command: string, args: string[]): Record<string, unknown> | string {
  const need = (n: number, usage: string) => (args.length === n ? null : `usage: replsim ctl ${usage}`);
  switch (command) {
    case 'advance':
    case 'wait':
      return need(1, `${command} DURATION (e.g. 10s, 31m)`) ?? { wait: /^\d+$/.test(args[0]) ? Number(args[0]) : args[0] };
    case 'partition':
      if (args.length < 2) return 'usage: replsim ctl partition A B (or groups: A B,C)';
      return { partition: args.some((a) => a.includes(',')) ? args.map((a) => a.split(',')) : args };
    case 'heal':
      if (args.length === 1 && args[0] === 'all') return { heal: 'all' };
      if (args.length < 2) return 'usage: replsim ctl heal A B | heal all';
      return { heal: args.some((a) => a.includes(',')) ? args.map((a) => a.split(',')) : args };
    case 'crash':
    case 'restart':
      return need(1, `${command} CLUSTER`) ?? { [command]: args[0] };
    case 'corrupt':
      return need(4, 'corrupt CLUSTER replicated|local PAGE SUBPAGE') ?? { corrupt: { on: args[0], tree: args[1], page: Number(args[2]), subpage: Number(args[3]) } };
    case 'destination-fault':
      return need(4, 'destination-fault CLUSTER TYPE NAME unreachable|unauthorized|none') ?? { 'destination-fault': { on: args[0], type: args[1], name: args[2], fault: args[3] } };
    default:
      return `unknown ctl command "${command}": use status, stop, advance, partition, heal, crash, restart, corrupt, destination-fault, scenario or decode-token`;
  }
}

async function ctlCommand(command: string, args: string[], addr: string, io: Io): Promise<number> {
  if (command === 'decode-token') {
    // Local: what `vault operator generate-root -decode=ENCODED -otp=OTP` prints.
    if (args.length !== 2) {
      io.err('usage: replsim ctl decode-token ENCODED_TOKEN OTP');
      return 2;
    }
    try {
      io.out(decodeToken(args[0], args[1]));
      return 0;
    } catch (e) {
      io.err(`replsim ctl decode-token: ${(e as Error).message}`);
      return 1;
    }
  }
  let url: string;
  let init: RequestInit = {};
  if (command === 'status') url = `${addr}/v1/status`;
  else if (command === 'stop') {
    url = `${addr}/v1/stop`;
    init = { method: 'POST' };
  }
  else if (command === 'scenario') url = `${addr}/v1/scenario`;
  else {
    const step = ctlStep(command, args);
    if (typeof step === 'string') {
      io.err(`replsim ctl: ${step}`);
      return 2;
    }
    url = `${addr}/v1/step`;
    init = { method: 'POST', body: JSON.stringify(step), headers: { 'Content-Type': 'application/json' } };
  }
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (e) {
    io.err(`replsim ctl: cannot reach the control listener at ${addr} (${(e as Error).message}); is \`replsim serve\` running? (--addr or REPLSIM_CTL_ADDR)`);
    return 2;
  }
  const text = await res.text();
  if (res.ok) {
    io.out(command === 'scenario' ? text.replace(/\n$/, '') : JSON.stringify(JSON.parse(text), null, 2));
    if (command === 'stop') await waitUntilClosed(addr);
    return 0;
  }
  let message = text;
  try {
    message = (JSON.parse(text) as { errors?: string[] }).errors?.join('; ') ?? text;
  } catch {
    // not JSON: print as it came
  }
  io.err(`replsim ctl ${command}: refused (${res.status}): ${message}`);
  return 1;
}

/** After `stop`: wait (up to 15 s) until the control listener no longer answers, so the files are written. */
async function waitUntilClosed(addr: string): Promise<void> {
  for (let i = 0; i < 150; i++) {
    try {
      await fetch(`${addr}/v1/status`, { signal: AbortSignal.timeout(500) });
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
