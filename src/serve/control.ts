// The control listener: a separate loopback port through which an operator (or `replsim ctl`, or
// a test) moves time and injects faults while real clients talk to the clusters. Commands are
// scenario steps in JSON, checked by the scenario schema, so what the control listener accepts is
// exactly what a recording can replay:
//
//   POST /v1/step      {"wait": "10s"} | {"partition": ["east", "west"]} | {"heal": "all"} |
//                      {"crash": "east"} | {"restart": "east"} |
//                      {"corrupt": {"on": "west", "tree": "replicated", "page": 3, "subpage": 17}} |
//                      {"destination-fault": {"on": "east", "type": "codehost", "name": "gh1", "fault": "unreachable"}}
//   GET  /v1/status    the clusters (listener URL, roles, running), virtual time, findings (JSON)
//   GET  /             the same as a plain-text page for a browser or `curl`
//   GET  /v1/scenario  the recording so far, as a format-1 scenario (YAML)
//   POST /v1/stop      stop serving as on SIGTERM (scripts that started `serve` in the background end it so)
//   GET  /v1/health    {"ok": true} while serving
//
// Every route but the health check and the plain-text page (which shows no secrets) needs the
// session's secret, `Authorization: Bearer <secret>` (control-secret.ts); without it, 401.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { modeOf } from '../../models/replication-role.machine.js';
import { isUp } from '../kernel/network.js';
import { rfc3339 } from '../kernel/clock.js';
import { showsSecret } from './control-secret.js';
import { readBody, sendJson, type ListenerLimits } from './http-face.js';
import { bodyLimitProblem, DEFAULT_REQUEST_LIMITS } from '../kernel/http/limits.js';
import type { Session } from './session.js';

/** A cluster's listener, as the status page shows it. */
export interface ClusterEndpoint {
  url: string;
  port: number;
}

export function controlHandler(session: Session, endpoints: () => Record<string, ClusterEndpoint>, clockMode: string, limits: ListenerLimits, secret: string, requestStop: () => void) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '').split('?')[0];
    const open = req.method === 'GET' || req.method === 'HEAD' ? path === '/v1/health' || path === '/' : false;
    if (!open && !showsSecret(req.headers.authorization, secret)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="replsim serve control"');
      return sendJson(
        res,
        401,
        {
          errors: [
            `the control listener needs this session's secret: send "Authorization: Bearer <secret>" (replsim serve prints it at start as REPLSIM_CTL_SECRET; replsim ctl reads it from that variable or from the secret file serve writes)`,
          ],
        },
        { close: true },
      );
    }
    handleControl(session, endpoints, clockMode, limits, requestStop, req, res).catch((e: unknown) => {
      process.stderr.write(`replsim serve: internal error on the control listener: ${(e as Error)?.stack ?? String(e)}\n`);
      sendJson(res, 500, { errors: ['internal error in replsim (please report)'] });
    });
  };
}

async function handleControl(
  session: Session,
  endpoints: () => Record<string, ClusterEndpoint>,
  clockMode: string,
  limits: ListenerLimits,
  requestStop: () => void,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const path = (req.url ?? '').split('?')[0];
  const method = req.method ?? '';
  const body = await readBody(req, limits.maxRequestSize);
  if (body === 'aborted') return;
  if (body === 'too-large') return sendJson(res, 413, { errors: ['error parsing JSON'] }, { close: true });

  if (path === '/v1/health' && (method === 'GET' || method === 'HEAD')) return sendJson(res, 200, { ok: true }, { head: method === 'HEAD' });
  if ((path === '/v1/status' || path === '/') && method === 'GET') {
    const s = await session.status();
    const w = session.world.state;
    const eps = endpoints();
    const clusters: Record<string, unknown> = {};
    for (const name of session.clusters) {
      const c = w.clusters.named(name);
      const ops = w.operators[name];
      clusters[name] = {
        url: eps[name]?.url ?? null,
        running: isUp(w.network, name),
        dr: modeOf(c.replication.dr.role),
        performance: modeOf(c.replication.performance.role),
        // What `vault operator init` handed this cluster's operators: a rehearsal needs them
        // (DR operation tokens are generated from the primary's key shares). Loopback only.
        root_token: ops.rootToken,
        keys: ops.keys,
        simulated_api_addr: c.apiAddr,
      };
    }
    const status = { now_ms: s.now, now: rfc3339(s.now), clock: clockMode, steps: s.steps, clusters, findings: s.findings };
    if (path === '/v1/status') return sendJson(res, 200, status);
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.end(statusPage(status));
    return;
  }
  if (path === '/v1/scenario' && method === 'GET') {
    await session.drained();
    res.setHeader('Content-Type', 'application/yaml');
    res.end(session.scenarioYaml());
    return;
  }
  if (path === '/v1/stop') {
    if (method !== 'POST' && method !== 'PUT') return sendJson(res, 405, { errors: [] });
    // Answer first: stopping closes this listener too.
    res.on('finish', requestStop);
    return sendJson(res, 202, { stopping: true }, { close: true });
  }
  if (path === '/v1/step') {
    if (method !== 'POST' && method !== 'PUT') return sendJson(res, 405, { errors: [] });
    let raw: unknown;
    try {
      raw = JSON.parse(body);
    } catch {
      return sendJson(res, 400, { errors: ['error parsing JSON'] });
    }
    // The bounds the clusters' listeners put on a body: a command nested thousands deep would
    // otherwise reach code that recurses (the schema, the recording) and exhaust the stack.
    const tooBig = bodyLimitProblem(raw, { ...DEFAULT_REQUEST_LIMITS, maxRequestSize: limits.maxRequestSize });
    if (tooBig) return sendJson(res, 400, { errors: [tooBig] });
    const a = await session.control(raw);
    if (!a.ok) return sendJson(res, a.status, { errors: [a.error] });
    return sendJson(res, 200, { step: a.title, now_ms: a.now, now: rfc3339(a.now), findings: a.findings });
  }
  return sendJson(res, 404, { errors: [] });
}

interface StatusView {
  now: string;
  clock: string;
  steps: number;
  clusters: Record<string, unknown>;
  findings: { kind: string; id: string; clusters: string[]; message: string }[];
}

/** The status as a page a person reads (secrets left out: `replsim ctl status` has them). */
function statusPage(s: StatusView): string {
  const lines = [`replsim serve — virtual time ${s.now} (clock: ${s.clock}), ${s.steps} steps so far`, ''];
  lines.push('cluster      listener                    running  DR         performance');
  for (const [name, raw] of Object.entries(s.clusters)) {
    const c = raw as { url: string | null; running: boolean; dr: string; performance: string };
    lines.push(`${name.padEnd(12)} ${String(c.url).padEnd(27)} ${(c.running ? 'yes' : 'CRASHED').padEnd(8)} ${c.dr.padEnd(10)} ${c.performance}`);
  }
  lines.push('');
  if (s.findings.length === 0) lines.push('no invariant violated, no hazard so far');
  for (const f of s.findings) lines.push(`${f.kind === 'violation' ? 'VIOLATION' : 'HAZARD'} ${f.id} (${f.clusters.join(', ')}): ${f.message}`);
  return lines.join('\n') + '\n';
}
