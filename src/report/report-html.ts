// report.html: one self-contained, offline page per run (no network at view time: the data, the
// style and the script are inline). A trainer moves a slider through the steps and sees the topology
// at that step (roles, who follows whom, streaming, partitions, crashes, external stores), the
// request and the whole response, the rule behind a refusal, the hazards and violations where they
// arose, a space-time (Lamport) diagram of every message that crossed the simulated network, and a
// timeline of each cluster's roles. The page draws plain SVG itself; it needs no library.
import type { ReportModel } from './report-model.js';

/** JSON safe inside a <script> element: no `</script>` or `<!--` can close or open anything. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

const STYLE = `
:root { --primary:#1b6ac9; --secondary:#2e8b57; --disabled:#888; --crashed:#b22222; --warn:#c77700; --bg:#fafafa; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; background: var(--bg); color: #222; }
header { padding: 12px 20px; background: #fff; border-bottom: 1px solid #ddd; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 18px 0 8px; }
.verdict { display: inline-block; padding: 1px 8px; border-radius: 4px; color: #fff; font-weight: 600; }
.verdict.valid { background: var(--secondary); } .verdict.invalid { background: var(--crashed); }
main { display: grid; grid-template-columns: 320px 1fr; gap: 16px; padding: 12px 20px; }
#steps { list-style: none; margin: 0; padding: 0; max-height: 80vh; overflow: auto; border: 1px solid #ddd; background: #fff; }
#steps li { padding: 4px 8px; cursor: pointer; border-bottom: 1px solid #eee; font-size: 13px; }
#steps li.current { background: #e8f0fb; font-weight: 600; }
#steps li.failed { border-left: 4px solid var(--crashed); } #steps li.hazard { border-left: 4px solid var(--warn); }
.controls { display: flex; align-items: center; gap: 8px; margin-bottom: 8px; }
#slider { flex: 1; }
.panel { background: #fff; border: 1px solid #ddd; padding: 8px 12px; margin-bottom: 12px; overflow-x: auto; }
main > section { min-width: 0; }
pre { white-space: pre-wrap; word-break: break-all; font-size: 12px; background: #f4f4f4; padding: 6px; margin: 4px 0; }
.rule { color: #0b6f80; } .finding.hazard { color: var(--warn); font-weight: 600; } .finding.violation { color: var(--crashed); font-weight: 600; }
table { border-collapse: collapse; font-size: 13px; } td, th { border: 1px solid #ddd; padding: 2px 6px; text-align: left; }
svg text { font: 12px system-ui, sans-serif; }
.legend span { display: inline-block; margin-right: 12px; font-size: 12px; }
.swatch { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: middle; }
`;

// The page's script. It only reads the model: every value shown was computed by replsim.
const SCRIPT = String.raw`
const M = JSON.parse(document.getElementById('model').textContent);
const SVGNS = 'http://www.w3.org/2000/svg';
const COLOR = { primary: '#1b6ac9', secondary: '#2e8b57', disabled: '#888888', crashed: '#b22222' };
const KIND = { dr: 'DR', performance: 'perf' };
let current = M.steps.length;

function el(tag, attrs, text) {
  const e = tag.startsWith('svg:') ? document.createElementNS(SVGNS, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}
function fmt(ms) {
  if (ms >= 3600000 && ms % 3600000 === 0) return ms / 3600000 + 'h';
  if (ms >= 60000 && ms % 60000 === 0) return ms / 60000 + 'm';
  if (ms >= 1000 && ms % 1000 === 0) return ms / 1000 + 's';
  return ms + 'ms';
}
function topologyAt(i) { return i === 0 ? M.initial : M.steps[i - 1].topology; }

function drawTopology(i) {
  const t = topologyAt(i);
  const box = document.getElementById('topology');
  box.replaceChildren();
  const n = t.clusters.length + t.stores.length;
  const W = 640, H = 360, cx = W / 2, cy = H / 2, R = Math.min(W, H) / 2 - 70;
  const svg = el('svg:svg', { viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, role: 'img', 'aria-label': 'topology at step ' + i });
  const defs = el('svg:defs');
  for (const [id, color] of [['arrow-dr', '#2e8b57'], ['arrow-perf', '#6a3fb5'], ['arrow-msg', '#555']]) {
    const m = el('svg:marker', { id, viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
    m.appendChild(el('svg:path', { d: 'M0,0 L10,5 L0,10 z', fill: color }));
    defs.appendChild(m);
  }
  svg.appendChild(defs);
  const pos = {};
  const nodes = t.clusters.map((c) => c.name).concat(t.stores);
  nodes.forEach((name, k) => {
    const a = (2 * Math.PI * k) / Math.max(1, n) - Math.PI / 2;
    pos[name] = [cx + R * Math.cos(a), cy + R * Math.sin(a)];
  });
  for (const [a, b] of t.cut) {
    if (!pos[a] || !pos[b]) continue;
    svg.appendChild(el('svg:line', { x1: pos[a][0], y1: pos[a][1], x2: pos[b][0], y2: pos[b][1], stroke: '#b22222', 'stroke-dasharray': '3 5', 'stroke-width': 2, 'data-cut': a + '|' + b }));
    svg.appendChild(el('svg:text', { x: (pos[a][0] + pos[b][0]) / 2, y: (pos[a][1] + pos[b][1]) / 2, fill: '#b22222', 'text-anchor': 'middle' }, '✂ partitioned'));
  }
  for (const c of t.clusters) {
    for (const kind of ['dr', 'performance']) {
      const r = c[kind];
      if (!r.follows || !pos[r.follows]) continue;
      const [x1, y1] = pos[c.name], [x2, y2] = pos[r.follows];
      const off = kind === 'dr' ? -6 : 6;
      const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy) || 1, ux = dx / len, uy = dy / len;
      const ready = r.streaming && r.streaming.includes('stream-wals') && r.streaming.includes('ready');
      const line = el('svg:line', {
        x1: x1 + ux * 60 - uy * off, y1: y1 + uy * 36 + ux * off, x2: x2 - ux * 60 - uy * off, y2: y2 - uy * 36 + ux * off,
        stroke: kind === 'dr' ? '#2e8b57' : '#6a3fb5', 'stroke-width': 2, 'stroke-dasharray': ready ? '' : '6 4',
        'marker-end': 'url(#' + (kind === 'dr' ? 'arrow-dr' : 'arrow-perf') + ')', 'data-follows': c.name + '>' + r.follows + ':' + kind,
      });
      line.appendChild(el('svg:title', {}, c.name + ' follows ' + r.follows + ' (' + KIND[kind] + '): ' + (r.streaming || 'not connected')));
      svg.appendChild(line);
    }
  }
  for (const c of t.clusters) {
    const [x, y] = pos[c.name];
    const g = el('svg:g', { 'data-cluster': c.name, 'data-dr': c.dr.mode, 'data-performance': c.performance.mode, 'data-crashed': c.crashed });
    const main = c.crashed ? 'crashed' : c.dr.mode === 'primary' || c.performance.mode === 'primary' ? 'primary' : c.dr.mode === 'secondary' || c.performance.mode === 'secondary' ? 'secondary' : 'disabled';
    g.appendChild(el('svg:rect', { x: x - 60, y: y - 36, width: 120, height: 72, rx: 8, fill: '#fff', stroke: COLOR[main], 'stroke-width': c.crashed ? 3 : 2, 'stroke-dasharray': c.crashed ? '4 3' : '' }));
    g.appendChild(el('svg:text', { x, y: y - 18, 'text-anchor': 'middle', 'font-weight': 600 }, c.name + (c.crashed ? ' ✖ crashed' : '')));
    g.appendChild(el('svg:text', { x, y: y, 'text-anchor': 'middle', fill: COLOR[c.dr.mode] }, 'DR: ' + c.dr.mode));
    g.appendChild(el('svg:text', { x, y: y + 16, 'text-anchor': 'middle', fill: COLOR[c.performance.mode] }, 'perf: ' + c.performance.mode));
    g.appendChild(el('svg:title', {}, c.name + ' ' + c.version + '\nDR ' + c.dr.role + (c.dr.follows ? ' → ' + c.dr.follows : '') + (c.dr.streaming ? ' (' + c.dr.streaming + ')' : '') +
      '\nperformance ' + c.performance.role + (c.performance.follows ? ' → ' + c.performance.follows : '') + (c.performance.filtered.length ? '\nfiltered: ' + c.performance.filtered.join(', ') : '')));
    svg.appendChild(g);
  }
  for (const s of t.stores) {
    const [x, y] = pos[s];
    const g = el('svg:g', { 'data-store': s });
    g.appendChild(el('svg:ellipse', { cx: x, cy: y, rx: 62, ry: 24, fill: '#fff8e6', stroke: '#c77700' }));
    g.appendChild(el('svg:text', { x, y: y + 4, 'text-anchor': 'middle' }, '⛁ ' + s));
    svg.appendChild(g);
  }
  box.appendChild(svg);
  const table = el('table', { id: 'roles-table' });
  table.appendChild(el('tr')).append(el('th', {}, 'cluster'), el('th', {}, 'DR'), el('th', {}, 'performance'), el('th', {}, 'state'));
  for (const c of t.clusters) {
    const row = el('tr', { 'data-row': c.name });
    const role = (r) => r.role + (r.follows ? ' → ' + r.follows : '') + (r.streaming ? ' (' + r.streaming + ')' : '') + (r.filtered.length ? ' filtered: ' + r.filtered.join(', ') : '');
    row.append(el('td', {}, c.name), el('td', { 'data-kind': 'dr' }, role(c.dr)), el('td', { 'data-kind': 'performance' }, role(c.performance)), el('td', {}, c.crashed ? 'crashed' : 'running'));
    table.appendChild(row);
  }
  box.appendChild(table);
  document.getElementById('time').textContent = 'virtual time ' + fmt(t.at);
}

function drawStep(i) {
  const box = document.getElementById('step');
  box.replaceChildren();
  if (i === 0) { box.appendChild(el('p', {}, 'Before the first step: every cluster initialised, unsealed, replication disabled.')); return; }
  const s = M.steps[i - 1];
  box.appendChild(el('h2', {}, s.n + '. ' + (s.name ? s.name + ' — ' : '') + s.title));
  if (s.endpoint) box.appendChild(el('p', { class: 'endpoint' }, s.endpoint));
  if (s.request) { const d = el('details'); d.appendChild(el('summary', {}, 'request')); d.appendChild(el('pre', {}, JSON.stringify(s.request, null, 2))); box.appendChild(d); }
  if (s.response) {
    box.appendChild(el('p', {}, '→ status ' + s.response.status));
    const d = el('details', { open: '' }); d.appendChild(el('summary', {}, 'response body')); d.appendChild(el('pre', { id: 'response' }, JSON.stringify(s.response.body, null, 2))); box.appendChild(d);
  }
  if (s.rule) box.appendChild(el('p', { class: 'rule' }, 'rule: ' + s.rule.words));
  for (const f of s.findings) box.appendChild(el('p', { class: 'finding ' + f.kind, 'data-finding': f.id }, (f.kind === 'hazard' ? '⚠ hazard ' : '✗ violation ') + f.id + ' at ' + fmt(f.at) + ': ' + f.message));
  if (!s.ok) box.appendChild(el('p', { class: 'finding violation' }, '✗ ' + (s.failure || 'failed')));
}

function drawSpaceTime() {
  const box = document.getElementById('spacetime');
  const nodes = M.clusterNames.slice();
  for (const m of M.messages) for (const e of [m.from, m.to]) if (!nodes.includes(e)) nodes.push(e);
  // Ordinal time: every instant at which something happened gets one row, so messages a few
  // milliseconds apart stay apart and hours of quiet take no room. Times between rows interpolate.
  const times = new Set([0, M.end]);
  for (const m of M.messages) { times.add(m.sentAt); times.add(m.at); }
  for (const s of M.steps) { times.add(s.topology.at); for (const f of s.findings) times.add(f.at); }
  for (const sp of M.roles) { times.add(sp.from); times.add(sp.to); }
  const ticks = [...times].sort((a, b) => a - b);
  const rowH = 22, colW = 140, top = 30, H = top + ticks.length * rowH + 10, W = Math.max(420, nodes.length * colW + 120);
  const y = (t) => {
    let k = ticks.findIndex((u) => u >= t);
    if (k < 0) k = ticks.length - 1;
    if (k > 0 && ticks[k] !== t) { const a = ticks[k - 1], b = ticks[k]; return top + (k - 1 + (t - a) / (b - a)) * rowH; }
    return top + k * rowH;
  };
  const svg = el('svg:svg', { viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, id: 'spacetime-svg' });
  for (const t of ticks) svg.appendChild(el('svg:text', { x: W - 4, y: y(t) + 4, 'text-anchor': 'end', fill: '#999' }, fmt(t)));
  const x = (name) => 60 + nodes.indexOf(name) * colW + colW / 2;
  nodes.forEach((name) => {
    svg.appendChild(el('svg:text', { x: x(name), y: 16, 'text-anchor': 'middle', 'font-weight': 600 }, name));
    svg.appendChild(el('svg:line', { x1: x(name), y1: top, x2: x(name), y2: H - 10, stroke: '#bbb' }));
  });
  for (const sp of M.roles) if (sp.mode === 'crashed') svg.appendChild(el('svg:rect', { x: x(sp.cluster) - 5, y: y(sp.from), width: 10, height: Math.max(2, y(sp.to) - y(sp.from)), fill: '#b22222', opacity: 0.35 }));
  const KCOL = { wal: '#2e8b57', 'merkle-sync': '#1b6ac9', connect: '#555', unwrap: '#6a3fb5', 'forwarded-write': '#c77700', 'sync-job': '#8b4513' };
  for (const m of M.messages) {
    const line = el('svg:line', { x1: x(m.from), y1: y(m.sentAt), x2: x(m.to), y2: y(m.at), stroke: KCOL[m.kind] || '#555', 'stroke-width': 1.5, 'marker-end': 'url(#arrow-msg)', class: 'msg', 'data-kind': m.kind });
    line.appendChild(el('svg:title', {}, m.label + '\n' + m.from + ' → ' + m.to + '\nsent ' + fmt(m.sentAt) + ', delivered ' + fmt(m.at) + ' (log #' + m.seq + ')'));
    svg.appendChild(line);
  }
  for (const s of M.steps) for (const f of s.findings) {
    svg.appendChild(el('svg:circle', { cx: 30, cy: y(f.at), r: 5, fill: f.kind === 'hazard' ? '#c77700' : '#b22222' }));
    svg.appendChild(el('svg:title', {}, f.kind + ' ' + f.id));
  }
  svg.appendChild(el('svg:line', { id: 'now-line', x1: 0, x2: W, y1: top, y2: top, stroke: '#1b6ac9', 'stroke-dasharray': '2 3' }));
  const defs = el('svg:defs');
  const mk = el('svg:marker', { id: 'arrow-msg', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' });
  mk.appendChild(el('svg:path', { d: 'M0,0 L10,5 L0,10 z', fill: '#555' }));
  defs.appendChild(mk); svg.appendChild(defs);
  box.appendChild(svg);
  box.appendChild(el('p', { class: 'legend' }, M.messages.length + ' messages; time runs down (one row per instant at which something happened, ' + fmt(M.end) + ' in all); hover an arrow for what it carried.'));
  return y;
}

function drawTimeline() {
  const box = document.getElementById('timeline');
  const rows = [];
  for (const c of M.clusterNames) for (const k of ['dr', 'performance']) rows.push([c, k]);
  const W = 900, left = 140, rowH = 18, H = rows.length * rowH + 24, end = Math.max(1, M.end);
  const svg = el('svg:svg', { viewBox: '0 0 ' + W + ' ' + H, width: W, height: H });
  const x = (t) => left + (t / end) * (W - left - 10);
  rows.forEach(([c, k], r) => {
    svg.appendChild(el('svg:text', { x: 4, y: r * rowH + 14 }, c + ' ' + KIND[k]));
    for (const sp of M.roles.filter((s) => s.cluster === c && s.kind === k)) {
      const rect = el('svg:rect', { x: x(sp.from), y: r * rowH + 3, width: Math.max(2, x(sp.to) - x(sp.from)), height: rowH - 6, fill: COLOR[sp.mode], 'data-span': c + ':' + k + ':' + sp.mode });
      rect.appendChild(el('svg:title', {}, c + ' ' + KIND[k] + ' ' + sp.mode + ' from ' + fmt(sp.from) + ' to ' + fmt(sp.to)));
      svg.appendChild(rect);
    }
  });
  svg.appendChild(el('svg:line', { id: 'timeline-now', x1: left, x2: left, y1: 0, y2: H, stroke: '#000', 'stroke-dasharray': '2 2' }));
  box.appendChild(svg);
  const legend = el('p', { class: 'legend' });
  for (const [k, v] of Object.entries(COLOR)) { const s = el('span'); s.append(el('span', { class: 'swatch', style: 'background:' + v }), k); legend.appendChild(s); }
  box.appendChild(legend);
  return x;
}

let yOf, xOf;
function select(i) {
  current = Math.max(0, Math.min(M.steps.length, i));
  document.getElementById('slider').value = String(current);
  document.getElementById('position').textContent = current === 0 ? 'start' : 'step ' + current + ' of ' + M.steps.length;
  document.querySelectorAll('#steps li').forEach((li) => li.classList.toggle('current', Number(li.dataset.i) === current));
  drawTopology(current);
  drawStep(current);
  const t = topologyAt(current).at;
  const now = document.getElementById('now-line'); now.setAttribute('y1', yOf(t)); now.setAttribute('y2', yOf(t));
  const tl = document.getElementById('timeline-now'); tl.setAttribute('x1', xOf(t)); tl.setAttribute('x2', xOf(t));
}

function init() {
  const list = document.getElementById('steps');
  const start = el('li', { 'data-i': 0 }, '0. start');
  list.appendChild(start);
  M.steps.forEach((s, k) => {
    const cls = !s.ok ? 'failed' : s.findings.length ? 'hazard' : '';
    list.appendChild(el('li', { 'data-i': k + 1, class: cls }, s.n + '. ' + (s.name || s.title)));
  });
  list.addEventListener('click', (e) => { const li = e.target.closest('li'); if (li) select(Number(li.dataset.i)); });
  const slider = document.getElementById('slider');
  slider.max = String(M.steps.length);
  slider.addEventListener('input', () => select(Number(slider.value)));
  document.getElementById('prev').addEventListener('click', () => select(current - 1));
  document.getElementById('next').addEventListener('click', () => select(current + 1));
  // Arrow keys step through the run, except on the slider, which moves by itself (and fires input).
  document.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement) return;
    if (e.key === 'ArrowLeft') select(current - 1);
    if (e.key === 'ArrowRight') select(current + 1);
  });
  yOf = drawSpaceTime();
  xOf = drawTimeline();
  const first = M.steps.findIndex((s) => s.findings.length > 0 || !s.ok);
  select(first >= 0 ? first + 1 : M.steps.length);
}
init();
`;

/** The whole page for a run. */
export function reportHtml(model: ReportModel): string {
  const expect = typeof model.expect === 'string' ? model.expect : JSON.stringify(model.expect);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="replsim">
<title>${escapeHtml(model.name)} — replsim report</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(model.name)}</h1>
<div><span class="verdict ${model.verdict === 'valid' ? 'valid' : 'invalid'}" id="verdict">${escapeHtml(model.verdict.toUpperCase())}</span>
 ${escapeHtml(model.file)} · seed ${model.seed} · expected ${escapeHtml(expect)} · ${model.steps.length} steps</div>
${model.description ? `<p>${escapeHtml(model.description)}</p>` : ''}
${model.reasons.map((r) => `<p class="finding violation">${escapeHtml(r)}</p>`).join('\n')}
</header>
<main>
<nav><h2>Steps</h2><ol id="steps"></ol></nav>
<section>
<div class="controls"><button id="prev" type="button">◀</button><input id="slider" type="range" min="0" value="0" aria-label="step"><button id="next" type="button">▶</button><span id="position"></span> · <span id="time"></span></div>
<div class="panel"><h2>Topology</h2><div id="topology"></div>
<p class="legend"><span><span class="swatch" style="background:#2e8b57"></span>DR: secondary → the primary it follows</span><span><span class="swatch" style="background:#6a3fb5"></span>performance</span><span>dashed: not streaming</span><span style="color:#b22222">✂ partition</span></p></div>
<div class="panel" id="step"></div>
<div class="panel"><h2>Messages over time (space-time diagram)</h2><div id="spacetime"></div></div>
<div class="panel"><h2>Roles over time</h2><div id="timeline"></div></div>
</section>
</main>
<script type="application/json" id="model">${scriptJson(model)}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
