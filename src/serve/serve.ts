// `serve`: a simulated topology behind real HTTP listeners, one per cluster on 127.0.0.1 (on
// consecutive ports from `port`, or on free ports with port 0), plus a control listener. The
// programmatic entry (src/entry/index.ts) and `replsim serve` (src/cli/serve.ts) both start here.
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { Finding } from '../areas/monitoring/types.js';
import { writeRunFiles } from '../report/results.js';
import { formatScenarioError, loadScenario } from '../scenario/loader.js';
import { runScenario, topologyOf, type RunResult } from '../scenario/runner.js';
import { parseScenario, type Scenario } from '../scenario/schema.js';
import { World } from '../world.js';
import { InputFileError, readRegularFile } from '../kernel/files.js';
import { SCENARIO_BOUNDS } from '../scenario/bounds.js';
import { controlHandler, type ClusterEndpoint } from './control.js';
import { clusterHandler, DEFAULT_LIMITS, type ListenerLimits } from './http-face.js';
import { ListMethodSocket } from './list-method.js';
import type { RawStep, RecordingBase } from './recorder.js';
import { Session } from './session.js';
import { ManualClock, WallClock, type ClockMode } from './wall-clock.js';

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
  /** Told of every invariant violation or hazard as it arises. */
  onFinding?: (f: Finding) => void;
}

export interface ServeHandle {
  world: World;
  session: Session;
  /** Each cluster's listener. */
  clusters: Record<string, ClusterEndpoint>;
  control: ClusterEndpoint;
  /** Stops accepting, lets in-flight requests finish, closes every listener; the session's result. */
  stop(): Promise<RunResult>;
  /** Settles once the server has stopped, whoever stopped it (`stop()`, or `POST /v1/stop` on the control listener). */
  stopped: Promise<RunResult>;
}

const NAME = /^[a-z][a-z0-9-]*$/;

async function setUp(options: ServeOptions): Promise<{ world: World; base: RecordingBase; expect: Scenario['expect']; setup?: RunResult }> {
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
    const result = await runScenario(scenario, { seed });
    if (result.steps.some((s) => !s.ok)) throw new ServeError(`${options.scenario}: not served: ${result.reasons[0]}`);
    const raw = parseYaml(text) as Record<string, unknown>;
    const base: RecordingBase = {
      name: scenario.name,
      description: scenario.description,
      seed,
      clusters: raw.clusters as Record<string, unknown>,
      steps: (raw.steps as RawStep[]) ?? [],
    };
    return { world: result.world, base, expect: scenario.expect, setup: result };
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

function makeListener(limits: ListenerLimits, handler: (req: IncomingMessage, res: ServerResponse) => void): Listener {
  const http = createHttpServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      keepAliveTimeout: 5_000,
      // How often Node looks for clients past those timeouts (its default, 30 s, would let a slow client linger).
      connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    (req, res) => {
      // The response is out: the next bytes on this connection start a request line (list-method.ts).
      res.on('finish', () => {
        if (req.socket instanceof ListMethodSocket) req.socket.atRequestStart = true;
      });
      handler(req, res);
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
  const { world, base, expect, setup } = await setUp(options);
  const clock = options.clock === 'manual' ? new ManualClock() : new WallClock(options.speed ?? 1);
  if (options.clock !== undefined && options.clock !== 'manual' && options.clock !== 'wall') throw new ServeError(`--clock must be wall or manual, got "${options.clock}"`);
  const session = new Session({ world, clock, base, expect, setup: setup && { steps: setup.steps, findings: setup.findings }, onFinding: options.onFinding });

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
      const server = makeListener(limits, clusterHandler(session, name, limits, addressOf));
      servers.push(server);
      const port = await listen(server, firstPort === 0 ? 0 : firstPort + i++);
      clusters[name] = { url: `http://${HOST}:${port}`, port };
    }
    let stopNow: () => void = () => undefined;
    const controlServer = makeListener(limits, controlHandler(session, () => clusters, clock.mode, limits, () => stopNow()));
    servers.push(controlServer);
    const wanted = options.controlPort ?? (firstPort === 0 ? 0 : firstPort + session.clusters.length);
    const controlPort = await listen(controlServer, wanted);
    const control = { url: `http://${HOST}:${controlPort}`, port: controlPort };

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
        const result = session.result();
        settle(result);
        return result;
      })());
    stopNow = () => void stop();
    return { world, session, clusters, control, stop, stopped };
  } catch (e) {
    for (const s of servers) {
      s.tcp.close();
      s.http.close(() => undefined);
    }
    throw e;
  }
}

/** Writes what `--record` and `--out` ask for, once the server has stopped. */
export function writeSessionFiles(handle: ServeHandle, result: RunResult, files: { record?: string; out?: string }): string[] {
  const written: string[] = [];
  if (files.record) {
    mkdirSync(dirname(files.record), { recursive: true });
    writeFileSync(files.record, handle.session.scenarioYaml());
    written.push(files.record);
  }
  if (files.out) {
    writeRunFiles(files.out, files.record ?? 'replsim serve', result);
    written.push(`${files.out}/results.json`, `${files.out}/history.jsonl`);
  }
  return written;
}
