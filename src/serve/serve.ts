// `serve`: a simulated topology behind real HTTP listeners, one per cluster on 127.0.0.1 (on
// consecutive ports from `port`, or on free ports with port 0), plus a control listener. The
// programmatic entry (src/entry/index.ts) and `replsim serve` (src/cli/serve.ts) both start here.
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { Finding, Monitor } from '../areas/monitoring/types.js';
import { RunFiles, writeRunFiles } from '../report/results.js';
import { formatScenarioError, loadScenario } from '../scenario/loader.js';
import { runScenario, topologyOf, type RunResult, type StepRecord } from '../scenario/runner.js';
import { parseScenario, type Scenario } from '../scenario/schema.js';
import { isKnownEventType, World } from '../world.js';
import { InputFileError, readRegularFile, whileWriting, writeFileAtomic } from '../kernel/files.js';
import { HistoryFileError, readHistory, type History } from '../kernel/persist.js';
import { hashOf } from '../kernel/canonical.js';
import { Watch } from '../check/catalogue.js';
import { Timeline } from '../scenario/timeline.js';
import { stepPicture, type StepPicture } from '../scenario/picture.js';
import type { SimEvent } from '../areas/core/events.js';
import { JOURNAL_FILE, JOURNAL_FORMAT, JournalError, JournalWriter, readJournal, type JournalEntry, type JournalHeader, type JournalRecord } from './journal.js';
import { SCENARIO_BOUNDS } from '../scenario/bounds.js';
import { isUp } from '../kernel/network.js';
import { hasOwn } from '../kernel/own.js';
import { controlHandler, type ClusterEndpoint } from './control.js';
import { newControlSecret, removeSecretFile, writeSecretFile } from './control-secret.js';
import { checkAllowedHost, guarded, type AllowedHosts } from './guard.js';
import { clusterHandler, DEFAULT_LIMITS, type ListenerLimits } from './http-face.js';
import { ListMethodSocket } from './list-method.js';
import { withLiveUi } from './live-ui.js';
import type { RawStep, RecordingBase } from './recorder.js';
import { Session } from './session.js';
import { RecordingFile } from './recording-file.js';
import { ManualClock, realMs, WallClock, type ClockMode } from './wall-clock.js';

export const HOST = '127.0.0.1';


/** A caller's mistake in starting a server (a bad scenario file, a port in use): nothing is served. */
export class ServeError extends Error {}

export interface ServeOptions {
  /** A scenario file whose clusters are served after its steps have run. */
  scenario?: string;
  /** Cluster names, when no scenario is given (default east, west). Each starts with the defaults of a scenario's `{}`. */
  clusters?: string[];
  /** The world's seed (default: the scenario's, or 1). */
  seed?: number;
  /** The first cluster's port; the others follow it (default 0: a free port each). */
  port?: number;
  /** The control listener's port (default: the port after the last cluster's, or a free one with port 0). */
  controlPort?: number;
  /** `wall` (default): virtual time follows real time times `speed`; `manual`: only `wait` commands move it. */
  clock?: ClockMode;
  speed?: number;
  limits?: Partial<ListenerLimits>;
  /**
   * Host names the listeners answer to besides 127.0.0.1, localhost and [::1] (`--allow-host`): a
   * name, which each listener takes with its own port, or `name:port`. Requests naming any other
   * host, or sent by a page of another origin, get 403 (guard.ts).
   */
  allowHosts?: string[];
  /** The control listener's secret (default: a fresh random one); beyond its health check it answers only requests that show it. */
  controlSecret?: string;
  /** Where to write the control secret for `replsim ctl` (mode 600, removed on stop); `folder` is made with mode 700 and checked. Nothing is written without it. */
  controlSecretFile?: SecretFileSpec | ((controlPort: number) => SecretFileSpec);
  /** Told of every invariant violation or hazard as it arises. */
  onFinding?: (f: Finding) => void;
  /** Serve the live classroom view (the report page, updated as requests arrive) at the control listener's `/ui`. */
  ui?: boolean;
  /**
   * What a client meets at a crashed cluster: `503` (default), an answer as from a load balancer
   * in front of a dead node; `refuse`, no listener (connection refused) until the cluster restarts,
   * as a dead server's port. Client retry logic differs between the two.
   */
  crashed?: '503' | 'refuse';
  /**
   * A folder to keep the session in as it goes: history.jsonl gets each step's events as they are
   * committed, session.jsonl what a resume needs; results.json and the pictures are written on stop.
   */
  out?: string;
  /** Where `--record` writes the recording: step by step as the session goes, whole on stop (kept in the journal, so a resume goes on with it). */
  record?: string;
  /** Resume the session kept in this folder (`out` of a session killed or stopped): same clusters, ports and clock. */
  resume?: string;
}

export interface SecretFileSpec {
  path: string;
  folder?: string;
}

export interface ServeHandle {
  world: World;
  session: Session;
  /** Each cluster's listener. */
  clusters: Record<string, ClusterEndpoint>;
  control: ClusterEndpoint & { secret: string; secretFile?: string };
  /** Stops accepting, lets in-flight requests finish, closes every listener; the session's result. */
  stop(): Promise<RunResult>;
  /** Settles once the server has stopped, whoever stopped it (`stop()`, or `POST /v1/stop` on the control listener). */
  stopped: Promise<RunResult>;
  /** The session's files as they are written (with `out`). */
  files?: RunFiles;
  /** How virtual time moves (a resumed session keeps its own). */
  clock: ClockMode;
  /** Where the recording goes on stop (`record`, or the resumed session's). */
  record?: string;
  /** For a resumed session: the steps and events taken back, and the events left out (a step no client was answered). */
  resumed?: { steps: number; events: number; leftOut: number };
}

const NAME = /^[a-z][a-z0-9-]*$/;

async function setUp(options: ServeOptions): Promise<{ world: World; base: RecordingBase; expect: Scenario['expect']; setup?: RunResult; watch?: Watch }> {
  if (options.scenario !== undefined) {
    if (options.clusters) throw new ServeError('give either a scenario file or --clusters, not both (the scenario names its clusters)');
    let text: string;
    try {
      text = readRegularFile(options.scenario, SCENARIO_BOUNDS.maxFileBytes, 'scenario file');
    } catch (e) {
      throw new ServeError(e instanceof InputFileError ? e.message : `${options.scenario}: cannot read: ${(e as Error).message}`);
    }
    const loaded = loadScenario(text, options.scenario);
    if (!loaded.ok) throw new ServeError(loaded.errors.map(formatScenarioError).join('\n'));
    const scenario = loaded.scenario;
    const seed = options.seed ?? scenario.seed;
    let watch: Watch | undefined;
    const result = await runScenario(scenario, { seed, onWatch: (w) => (watch = w) });
    if (result.steps.some((s) => !s.ok)) throw new ServeError(`${options.scenario}: not served: ${result.reasons[0]}`);
    const raw = parseYaml(text) as Record<string, unknown>;
    const base: RecordingBase = {
      name: scenario.name,
      description: scenario.description,
      seed,
      clusters: raw.clusters as Record<string, unknown>,
      steps: (raw.steps as RawStep[]) ?? [],
    };
    return { world: result.world, base, expect: scenario.expect, setup: result, watch };
  }
  const names = options.clusters ?? ['east', 'west'];
  if (names.length === 0) throw new ServeError('--clusters needs at least one cluster name');
  for (const n of names) if (!NAME.test(n)) throw new ServeError(`cluster name "${n}" must match [a-z][a-z0-9-]*`);
  if (new Set(names).size !== names.length) throw new ServeError(`--clusters names a cluster twice: ${names.join(',')}`);
  const seed = options.seed ?? 1;
  const clusters = Object.fromEntries(names.map((n) => [n, {}]));
  // Through the scenario schema, so the world is exactly the one the recording's `clusters` block rebuilds.
  const parsed = parseScenario({ name: 'serve', clusters, steps: [] });
  if (!parsed.success) throw new ServeError(`--clusters: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const world = World.create(topologyOf(parsed.data), { seed });
  return { world, base: { name: `replsim serve session (${names.join(', ')})`, seed, clusters, steps: [] }, expect: 'pass' };
}

/** A listener: the TCP server bound to the port, and the HTTP server its connections are handed to. */
interface Listener {
  tcp: NetServer;
  http: HttpServer;
}

function listen(l: Listener, port: number): Promise<number> {
  const server = l.tcp;
  return new Promise((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(new ServeError(e.code === 'EADDRINUSE' ? `port ${port} on ${HOST} is in use: choose another with --port (0 picks free ports)` : `cannot listen on ${HOST}:${port}: ${e.message}`));
    };
    const onListening = () => {
      server.off('error', onError);
      // The HTTP server is handed connections rather than listening itself; 'listening' starts its
      // checks of slow clients (headersTimeout, requestTimeout).
      l.http.emit('listening');
      resolve((server.address() as AddressInfo).port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, HOST);
  });
}

/** A listener whose every request passes the Host and Origin guard (guard.ts) before `handler`. */
function makeListener(limits: ListenerLimits, allowHosts: AllowedHosts, handler: (req: IncomingMessage, res: ServerResponse) => void): Listener {
  const port = () => ((tcp.address() as AddressInfo | null)?.port ?? -1);
  const guardedHandler = guarded(handler, port, allowHosts);
  const http = createHttpServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      keepAliveTimeout: 5_000,
      // How often Node looks for clients past those timeouts (its default, 30 s, would let a slow client linger).
      connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    (req, res) => {
      guardedHandler(req, res);
    },
  );
  // Malformed HTTP: 400 and the connection closed; a client too slow with its headers or body
  // gets 408, as Node itself answers. Never let a socket error reach the process.
  http.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
    if (socket.writable && !socket.writableEnded) socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    else socket.destroy();
  });
  const tcp = createNetServer((socket) => {
    socket.setNoDelay(true);
    socket.on('error', () => socket.destroy());
    http.emit('connection', new ListMethodSocket(socket));
  });
  return { tcp, http };
}

/** Starts serving. Every listener is bound before this resolves; on any failure none is left open. */
export async function serve(options: ServeOptions = {}): Promise<ServeHandle> {
  const limits: ListenerLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const resumed = options.resume === undefined ? undefined : await resumeFrom(options.resume, options);
  if (resumed) options = { ...options, clock: resumed.header.clock, speed: resumed.header.speed, out: options.out ?? options.resume, record: options.record ?? resumed.header.record };
  const { world, base, expect, setup, watch } = resumed ?? (await setUp(options));
  const clock = options.clock === 'manual' ? new ManualClock() : new WallClock(options.speed ?? 1);
  if (options.clock !== undefined && options.clock !== 'manual' && options.clock !== 'wall') throw new ServeError(`--clock must be wall or manual, got "${options.clock}"`);
  const startEvents = world.log.length;
  const startRng = world.generatorState();
  let files: RunFiles | undefined;
  let journal: JournalWriter | undefined;
  let recording: RecordingFile | undefined;
  const session = new Session({
    world,
    clock,
    base,
    expect,
    setup: setup && { steps: setup.steps, findings: setup.findings },
    timeline: resumed?.timeline,
    monitors: resumed?.monitors,
    watch,
    onFinding: options.onFinding,
    resumed: resumed && { builtins: resumed.header.builtins, namedTokens: resumed.header.namedTokens, calls: resumed.entries.map((e) => e.recorder) },
    onCommitted: (record, call) => {
      // The step's events first, then the journal line: a journal step always has its events on disk.
      files?.follow(world.log);
      journal?.append({ events: world.log.length, rng: world.generatorState(), record: journalRecord(record), recorder: call });
      recording?.update();
    },
  });

  const allowHosts = options.allowHosts ?? [];
  for (const h of allowHosts) {
    const why = checkAllowedHost(h);
    if (why) throw new ServeError(`--allow-host: ${why}`);
  }
  const secret = options.controlSecret ?? newControlSecret();
  if (!/^[\x21-\x7e]{16,}$/.test(secret)) throw new ServeError('the control secret must be at least 16 printable characters without spaces');

  const firstPort = options.port ?? 0;
  if (!Number.isInteger(firstPort) || firstPort < 0 || firstPort > 65535) throw new ServeError(`--port must be a port number (0 to 65535), got ${firstPort}`);
  const servers: Listener[] = [];
  const clusters: Record<string, ClusterEndpoint> = {};
  try {
    let i = 0;
    // A listener's URL (or host:port) in a request body means that cluster's simulated API address.
    const addressOf = (url: string): string | undefined => {
      for (const [name, e] of Object.entries(clusters)) if (url === e.url || url === `${HOST}:${e.port}` || url === `localhost:${e.port}` || url === `http://localhost:${e.port}`) return world.state.clusters.named(name).apiAddr;
      return undefined;
    };
    for (const name of session.clusters) {
      const server = makeListener(limits, allowHosts, clusterHandler(session, name, limits, addressOf));
      servers.push(server);
      // A resumed session listens where it did, so its clients carry on unchanged.
      const port = await listen(server, resumed ? (resumed.header.ports[name] ?? 0) : firstPort === 0 ? 0 : firstPort + i++);
      clusters[name] = { url: `http://${HOST}:${port}`, port };
    }
    let stopNow: () => void = () => undefined;
    // The live view (/ui) is served before the control routes: like the plain page `/`, it needs no
    // secret (it shows secrets shortened, as the report does) but is behind the Host and Origin guard.
    const controlRoutes = controlHandler(session, () => clusters, clock.mode, limits, secret, () => stopNow());
    const controlServer = makeListener(limits, allowHosts, options.ui === true ? withLiveUi(session, () => clusters, controlRoutes) : controlRoutes);
    servers.push(controlServer);
    const wanted = resumed ? resumed.header.controlPort : (options.controlPort ?? (firstPort === 0 ? 0 : firstPort + session.clusters.length));
    const controlPort = await listen(controlServer, wanted);
    const spec = options.controlSecretFile;
    const secretFile = typeof spec === 'function' ? spec(controlPort) : spec;
    if (secretFile) {
      try {
        writeSecretFile(secretFile.path, secret, secretFile.folder);
      } catch (e) {
        throw new ServeError(`cannot write the control secret to ${secretFile.path}: ${(e as Error).message}`);
      }
    }
    const control = { url: `http://${HOST}:${controlPort}`, port: controlPort, secret, secretFile: secretFile?.path };
    if (options.out !== undefined) {
      try {
        files = RunFiles.open(options.out, { now: realMs, everyMs: 1000 });
        files.follow(world.log);
        const header: JournalHeader = {
          format: JOURNAL_FORMAT,
          seed: base.seed,
          clusters: [...session.clusters],
          ports: Object.fromEntries(Object.entries(clusters).map(([n, e]) => [n, e.port])),
          controlPort,
          clock: clock.mode,
          ...(options.speed !== undefined ? { speed: options.speed } : {}),
          ...(options.record !== undefined ? { record: options.record } : {}),
          base,
          expect,
          builtins: session.builtins,
          namedTokens: session.namedTokens,
          startEvents: resumed?.header.startEvents ?? startEvents,
          startRng: resumed?.header.startRng ?? startRng,
        };
        journal = new JournalWriter(join(options.out, JOURNAL_FILE), header, resumed?.entries);
      } catch (e) {
        throw new ServeError(`--out ${options.out}: cannot write the session's files: ${(e as Error).message}`);
      }
    }
    if (options.record !== undefined) {
      try {
        recording = new RecordingFile(options.record, session.recorder, () => session.recordedExpect());
      } catch (e) {
        throw new ServeError(`--record ${options.record}: cannot write the recording: ${(e as Error).message}`);
      }
    }

    let stopping: Promise<RunResult> | null = null;
    let settle: (r: RunResult) => void = () => undefined;
    const stopped = new Promise<RunResult>((resolve) => (settle = resolve));
    const stop = () =>
      (stopping ??= (async () => {
        // Stop accepting; in-flight requests finish; idle keep-alive connections close now, and a
        // client that keeps its connection busy past 5 s is cut.
        const closed = servers.map((s) => new Promise<void>((resolve) => s.tcp.close(() => resolve())));
        for (const s of servers) {
          s.http.close(() => undefined);
          s.http.closeIdleConnections();
        }
        const cut = setTimeout(() => servers.forEach((s) => s.http.closeAllConnections()), 5_000);
        await Promise.all(closed);
        clearTimeout(cut);
        await session.drained();
        if (secretFile) removeSecretFile(secretFile.path);
        journal?.close();
        recording?.close();
        const result = session.result();
        settle(result);
        return result;
      })());
    stopNow = () => void stop();
    if (options.crashed === 'refuse') refuseWhileCrashed(world, (name) => servers[session.clusters.indexOf(name)], clusters, () => stopping !== null);
    else if (options.crashed !== undefined && options.crashed !== '503') throw new ServeError(`--crashed must be 503 or refuse, got "${options.crashed}"`);
    return { world, session, clusters, control, stop, stopped, files, clock: clock.mode, record: options.record, ...(resumed ? { resumed: resumed.summary } : {}) };
  } catch (e) {
    for (const s of servers) {
      s.tcp.close();
      s.http.close(() => undefined);
    }
    files?.release();
    journal?.close();
    recording?.close();
    throw e;
  }
}

/**
 * `--crashed refuse`: a cluster's listener closes when it crashes (its open connections cut) and
 * listens again on the same port when it restarts. A cluster the served scenario left crashed starts closed.
 */
function refuseWhileCrashed(world: World, listenerOf: (name: string) => Listener, clusters: Record<string, ClusterEndpoint>, stopping: () => boolean): void {
  const close = (name: string) => {
    const l = listenerOf(name);
    l.tcp.close();
    l.http.closeAllConnections();
  };
  for (const name of Object.keys(clusters)) if (!isUp(world.state.network, name)) close(name);
  world.events$.subscribe((e) => {
    if (stopping() || !('cluster' in e) || typeof e.cluster !== 'string' || !hasOwn(clusters, e.cluster)) return;
    if (e.type === 'cluster-crashed') close(e.cluster);
    if (e.type === 'cluster-restarted') listen(listenerOf(e.cluster), clusters[e.cluster].port).catch((err: Error) => process.stderr.write(`replsim serve: ${e.cluster} cannot listen again: ${err.message}\n`));
  });
}

/** A step's record as the journal keeps it: without the world's states, which a resume folds again. */
function journalRecord(r: StepRecord): JournalRecord {
  return {
    kind: r.kind,
    title: r.title,
    virtualAt: r.virtualAt,
    virtualMs: r.virtualMs,
    ...(r.request ? { request: r.request } : {}),
    ...(r.response ? { response: r.response } : {}),
    ...(r.endpoint ? { endpoint: r.endpoint } : {}),
    findings: r.findings,
  };
}

/**
 * Rebuilds a session kept in `dir` (history.jsonl and session.jsonl): the world from the history's
 * events up to the journal's last step (with the generator where it was then), each step's record
 * with its states folded again, and the journal's header for the listeners, the clock and the
 * recording. Events past the journal's last step are left out: no client was answered for them.
 */
async function resumeFrom(dir: string, options: ServeOptions) {
  if (options.scenario !== undefined || options.clusters !== undefined) throw new ServeError('--resume takes the clusters, ports and clock of the session it resumes: give no scenario or --clusters');
  let header: JournalHeader;
  let entries: JournalEntry[];
  let history: History<SimEvent>;
  try {
    ({ header, entries } = readJournal(join(dir, JOURNAL_FILE)));
    history = readHistory<SimEvent>(join(dir, 'history.jsonl'), isKnownEventType, { incomplete: true });
  } catch (e) {
    if (e instanceof JournalError || e instanceof HistoryFileError) throw new ServeError(`--resume ${dir}: ${e.message}`);
    throw e;
  }
  let k = entries.length;
  while (k > 0 && entries[k - 1].events > history.events.length) k--;
  const kept = entries.slice(0, k);
  const n = k > 0 ? kept[k - 1].events : header.startEvents;
  if (n > history.events.length) throw new ServeError(`--resume ${dir}: history.jsonl holds ${history.events.length} events, fewer than the session started with (${n}): it is not this session's`);
  const events = history.events.slice(0, n);
  let world: World;
  let timeline: Timeline;
  let monitors: Monitor[];
  const records: StepRecord[] = [];
  const findings: Finding[] = [];
  try {
    // The monitors are shown every step again, from a world rebuilt from the events before serving
    // began, to which each step's recorded events are appended in turn with the answer its client
    // got: they resume knowing what they knew (a hazard that spans the restart is still seen).
    // A session that served a scenario runs its steps again (the journal keeps them, as written, and
    // the seed): the records of those steps, what their monitors found and saw, as the session had them.
    const served = await servedAgain(dir, header, events.slice(0, header.startEvents));
    const replica = served?.world ?? World.replay(events.slice(0, header.startEvents));
    const watch = served?.watch ?? new Watch(replica);
    if (served) {
      records.push(...served.steps);
      findings.push(...served.findings);
    }
    // The steps' states are read from checkpoints, as a live session's are (timeline.ts): noted
    // while the steps are shown, then handed to a timeline over the resumed world's own log.
    const noted = new Timeline(events);
    noted.note(header.startEvents, replica.state);
    const ranges: [number, number][] = [];
    const pictures: StepPicture[] = [];
    let at = header.startEvents;
    for (const e of kept) {
      const before = replica.state;
      replica.appendRecorded(events.slice(at, e.events));
      const r = e.record;
      if (r.request && r.response) watch.observeResponse(r.request.cluster, { method: r.request.method, path: r.request.path, body: r.request.body, namespace: r.request.namespace }, r.response, before);
      // What they find again was found before the restart: the journal's record keeps it.
      watch.afterStep();
      noted.note(e.events, replica.state);
      pictures.push(stepPicture(before, replica.state));
      ranges.push([at, e.events]);
      at = e.events;
    }
    monitors = watch.monitors;
    const rng = k > 0 ? kept[k - 1].rng : header.startRng;
    world = World.replay({ events, end: { events: n, rng, stateHash: hashOf(replica.state) }, file: history.file });
    timeline = noted.over(world.log);
    const first = records.length;
    for (const [i, e] of kept.entries()) {
      const state = world.state;
      const record: StepRecord = { index: first + i, ...e.record, kind: e.record.kind as StepRecord['kind'], ok: true, before: state, after: state, events: [], saved: {}, savedFrom: {}, picture: pictures[i] };
      records.push(timeline.attach(record, ranges[i][0], ranges[i][1]));
      findings.push(...e.record.findings);
    }
  } catch (e) {
    if (e instanceof HistoryFileError) throw new ServeError(`--resume ${dir}: ${e.message}`);
    throw e;
  }
  return {
    header,
    entries: kept,
    world,
    base: header.base,
    expect: header.expect,
    setup: { steps: records, findings },
    timeline,
    monitors,
    watch: undefined,
    summary: { steps: kept.length, events: n, leftOut: history.events.length - n },
  };
}

/**
 * The scenario a resumed session served, run again from the journal's copy of its steps and seed, or
 * undefined when it served none. Its world must be the one the history begins with.
 */
async function servedAgain(dir: string, header: JournalHeader, events: readonly SimEvent[]): Promise<(RunResult & { watch: Watch }) | undefined> {
  if (header.base.steps.length === 0) return undefined;
  const b = header.base;
  const parsed = parseScenario({ name: b.name, ...(b.description !== undefined ? { description: b.description } : {}), seed: b.seed, clusters: b.clusters, steps: b.steps, expect: header.expect });
  if (!parsed.success) throw new ServeError(`--resume ${dir}: the scenario the session served, as ${JOURNAL_FILE} keeps it, does not load: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  let watch: Watch | undefined;
  const result = await runScenario(parsed.data, { seed: b.seed, onWatch: (w) => (watch = w) });
  if (result.steps.some((s) => !s.ok) || result.world.log.length !== events.length || result.stateHash !== hashOf(World.replay(events).state)) {
    throw new ServeError(`--resume ${dir}: the scenario the session served does not run again to the history's first ${events.length} events: they are not this session's`);
  }
  return { ...result, watch: watch! };
}

/**
 * Writes what `--record` and `--out` ask for, once the server has stopped: each file under a
 * temporary name, then renamed (history.jsonl, written as the session went, gets its closing line).
 */
export function writeSessionFiles(handle: ServeHandle, result: RunResult, files: { record?: string; out?: string }): string[] {
  const written: string[] = [];
  const record = files.record ?? handle.record;
  if (record) {
    mkdirSync(dirname(record), { recursive: true });
    whileWriting(() => writeFileAtomic(record, handle.session.scenarioYaml()));
    written.push(record);
  }
  if (handle.files) written.push(...handle.files.finish(record ?? 'replsim serve', result));
  else if (files.out) {
    writeRunFiles(files.out, record ?? 'replsim serve', result);
    written.push(`${files.out}/results.json`, `${files.out}/history.jsonl`);
  }
  return written;
}
