// `replsim serve` and `replsim ctl`, registered on the CLI program by src/cli/main.ts.
import { Command, InvalidArgumentError } from 'commander';
import { decodeToken } from '../areas/core/crypto/otp.js';
import type { Io } from './run.js';
import type { Finding } from '../areas/monitoring/types.js';
import { serve, ServeError, writeSessionFiles, type ServeHandle } from '../serve/serve.js';
import { defaultSecretFile, readSecretFile, SECRET_ENV, SECRET_FILE_ENV, secretFolder } from '../serve/control-secret.js';
import { checkAllowedHost } from '../serve/guard.js';
import { STOP_SIGNALS } from '../kernel/files.js';
import { AREA_STEPS } from '../areas.js';
import type { AreaStepAction } from '../areas/core/steps.js';

/** The areas' faults `replsim ctl` takes, each with its command line. */
const AREA_CTL = [...AREA_STEPS.values()].flatMap((s) => (s.ctl ? [{ action: s.action, usage: s.ctl.usage }] : []));

const DEFAULT_PORT = 8200;
const SECRET_FILE_HELP = '$XDG_RUNTIME_DIR/replsim/control-PORT.secret, or replsim-UID/control-PORT.secret in the temporary folder';

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

function hostList(v: string, previous: string[] = []): string[] {
  const names = v.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new InvalidArgumentError('--allow-host needs a host name, like vault.local (or several, comma-separated)');
  for (const n of names) {
    const why = checkAllowedHost(n);
    if (why) throw new InvalidArgumentError(`--allow-host: ${why}`);
  }
  return [...previous, ...names];
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
  crashed?: '503' | 'refuse';
  speed?: number;
  record?: string;
  out?: string;
  allowHost?: string[];
  secretFile?: string;
  ui?: boolean;
  resume?: string;
}

/** The lines `serve` prints once every listener is up: where each cluster is and how to reach it. */
export function banner(h: ServeHandle, opts: { clock: string; speed?: number; ui?: boolean }): string[] {
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
  // The examples name this session's clusters, so they can be pasted as they are.
  const [first, second] = h.session.clusters;
  const partition = second === undefined ? '' : `partition ${first} ${second} | `;
  lines.push(`# control: ${h.control.url}   (replsim ctl status | advance 10s | ${partition}heal all | crash ${first} | restart ${first} …)`);
  lines.push(`export REPLSIM_CTL_ADDR=${h.control.url} REPLSIM_CTL_SECRET=${h.control.secret}`);
  if (h.control.secretFile) lines.push(`# the control secret is also in ${h.control.secretFile} (mode 600), where \`replsim ctl\` finds it`);
  if (opts.ui) lines.push(`# live view for the class: ${h.control.url}/ui   (open it in a browser; it follows every request)`);
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
    .option('--crashed <how>', '503: a crashed cluster answers 503 (default); refuse: its listener stops accepting connections until it restarts', (v) => {
      if (v !== '503' && v !== 'refuse') throw new InvalidArgumentError(`--crashed must be 503 or refuse, got "${v}"`);
      return v;
    }, '503')
    .option('--record <file>', 'write everything that happens as a format-1 scenario that `replsim run` replays: step by step as the session goes (marked in progress), whole on stop')
    .option('--out <dir>', 'keep the session here as it goes (history.jsonl, session.jsonl); on stop, write results.json and the report, as `replsim run --out` does')
    .option('--resume <dir>', 'resume the session kept in DIR by --out (killed or stopped): same clusters, ports, clock and recording')
    .option('--allow-host <names>', 'also answer requests whose Host is NAME or NAME:PORT (comma-separated, repeatable); besides 127.0.0.1, localhost and [::1] every other Host or a foreign Origin gets 403', hostList)
    .option('--secret-file <file>', `where to write the control listener's secret (mode 600; default ${SECRET_FILE_HELP})`)
    .option('--ui', 'serve the live classroom view (the report page, following every request) at the control listener\'s /ui')
    .action(async (scenario: string | undefined, opts: ServeCliOptions) => setExit(await serveCommand(scenario, opts, io)));

  program
    .command('ctl')
    .description('drive a running `replsim serve` through its control listener')
    .argument('<command>', `status | advance DURATION | stop | partition A B | slow A B LATENCY | heal A B|all | crash C | restart C | ${AREA_CTL.map((c) => `${c.usage} | `).join('')}scenario | decode-token ENCODED OTP`)
    .argument('[args...]', 'the command\'s arguments')
    .option('--addr <url>', 'the control listener (default $REPLSIM_CTL_ADDR, else http://127.0.0.1:8202)')
    .option('--secret-file <file>', `the control secret's file (default $${SECRET_ENV} itself, else $${SECRET_FILE_ENV}, else ${SECRET_FILE_HELP} for the --addr port)`)
    .action(async (command: string, args: string[], opts: { addr?: string; secretFile?: string }) =>
      setExit(await ctlCommand(command, args, opts.addr ?? io.env.REPLSIM_CTL_ADDR ?? 'http://127.0.0.1:8202', opts.secretFile, io)));
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
      allowHosts: opts.allowHost,
      // Named after the control port, known once it is bound (port 0 picks one).
      controlSecretFile: opts.secretFile ? { path: opts.secretFile } : (controlPort) => ({ path: defaultSecretFile(controlPort, io.env), folder: secretFolder(io.env) }),
      ui: opts.ui === true,
      crashed: opts.crashed,
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
    case 'slow':
      return need(3, 'slow A B LATENCY (e.g. slow east west 2s; heal A B restores it)') ?? { slow: { link: [args[0], args[1]], latency: args[2] } };
    case 'heal':
      if (args.length === 1 && args[0] === 'all') return { heal: 'all' };
      if (args.length < 2) return 'usage: replsim ctl heal A B | heal all';
      return { heal: args.some((a) => a.includes(',')) ? args.map((a) => a.split(',')) : args };
    case 'crash':
    case 'restart':
      return need(1, `${command} CLUSTER`) ?? { [command]: args[0] };
    default: {
      // An area's fault, as its area writes it on the command line (src/areas/core/steps.ts).
      const ctl = AREA_STEPS.get(command as AreaStepAction)?.ctl;
      if (ctl) return need(ctl.arity, ctl.usage) ?? { [command]: ctl.content(args) };
      return `unknown ctl command "${command}": use status, stop, advance, partition, heal, crash, restart, ${AREA_CTL.map((c) => c.action + ', ').join('')}scenario or decode-token`;
    }
  }
}

/** The control secret `replsim ctl` shows: $REPLSIM_CTL_SECRET, else the file (--secret-file, $REPLSIM_CTL_SECRET_FILE, else serve's default for the port of `addr`). */
export function ctlSecret(addr: string, secretFile: string | undefined, env: NodeJS.ProcessEnv): { secret: string } | { error: string } {
  const fromEnv = env[SECRET_ENV]?.trim();
  if (fromEnv && secretFile === undefined) return { secret: fromEnv };
  let file = secretFile ?? env[SECRET_FILE_ENV];
  if (!file) {
    let port: number;
    try {
      const u = new URL(addr);
      port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
    } catch {
      return { error: `--addr "${addr}" is not a URL like http://127.0.0.1:8202` };
    }
    file = defaultSecretFile(port, env);
  }
  const read = readSecretFile(file);
  if ('error' in read) return { error: `${read.error} (set ${SECRET_ENV} to the secret replsim serve printed, or give --secret-file)` };
  return read;
}

async function ctlCommand(command: string, args: string[], addr: string, secretFile: string | undefined, io: Io): Promise<number> {
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
  const secret = ctlSecret(addr, secretFile, io.env);
  if ('error' in secret) {
    io.err(`replsim ctl: ${secret.error}`);
    return 2;
  }
  init = { ...init, headers: { ...(init.headers as Record<string, string> | undefined), Authorization: `Bearer ${secret.secret}` } };
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
      await fetch(`${addr}/v1/health`, { signal: AbortSignal.timeout(500) });
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
