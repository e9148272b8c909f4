// The classroom view (`replsim serve --ui`): the run report's page, served live from the control
// listener (loopback only, like every listener of serve) while clients send requests. The page
// polls `GET /ui/model?since=V` a few times a second; the answer is 204 while the session has not
// moved, else the report's model of the session so far and its new version. Polling, not a held
// connection: a projector left open all day holds no socket, and a stopped server just stops
// answering.
//
//   GET /ui                the page (report.html with the live script)
//   GET /ui/model?since=V  204, or {"version": V', "model": …}
import type { IncomingMessage, ServerResponse } from 'node:http';
import { reportHtml } from '../report/report-html.js';
import { reportModel, type ReportModel } from '../report/report-model.js';
import type { ClusterEndpoint } from './control.js';
import type { Session } from './session.js';

/** How often the page asks for news (ms): a request shows within a second. */
export const POLL_MS = 250;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const LIVE_SCRIPT = (version: string) => String.raw`
(function () {
  let version = ${JSON.stringify(version)};
  const live = document.getElementById('live');
  async function poll() {
    try {
      const r = await fetch('/ui/model?since=' + encodeURIComponent(version), { cache: 'no-store' });
      if (r.status === 200) {
        const j = await r.json();
        version = j.version;
        window.replsimUpdate(j.model);
      }
      if (live) live.textContent = 'live';
    } catch (e) {
      if (live) live.textContent = 'live view disconnected (the server stopped?)';
    }
    setTimeout(poll, ${POLL_MS});
  }
  setTimeout(poll, ${POLL_MS});
})();
`;

/** The report's model of the session so far, with the listeners' real addresses for the curl commands. */
function liveModel(session: Session, endpoints: () => Record<string, ClusterEndpoint>): ReportModel {
  const addresses = Object.fromEntries(Object.entries(endpoints()).map(([name, e]) => [name, e.url]));
  return reportModel('replsim serve (live)', session.result(), undefined, addresses);
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Wraps the control listener's handler: `/ui` and `/ui/model` are answered here, everything else
 * goes on to `next` (so whatever guards the control listener guards these too).
 */
export function withLiveUi(session: Session, endpoints: () => Record<string, ClusterEndpoint>, next: Handler): Handler {
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://loopback');
    if (url.pathname !== '/ui' && url.pathname !== '/ui/model') return next(req, res);
    if (req.method !== 'GET') return send(res, 405, 'application/json', '{"errors":[]}');
    const version = session.progress();
    if (url.pathname === '/ui') return send(res, 200, 'text/html; charset=utf-8', reportHtml(liveModel(session, endpoints), { live: LIVE_SCRIPT(version) }));
    if (url.searchParams.get('since') === version) return send(res, 204, 'text/plain', '');
    send(res, 200, 'application/json', JSON.stringify({ version, model: liveModel(session, endpoints) }));
  };
}
