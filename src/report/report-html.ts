// report.html: one self-contained, offline page per run (no network at view time: the data, the
// style and the script are inline). A trainer moves a slider through the steps and sees the topology
// at that step (roles, who follows whom, streaming, partitions, crashes, external stores), the
// request and the whole response, the rule behind a refusal, the hazards and violations where they
// arose, a space-time (Lamport) diagram of every message that crossed the simulated network, and a
// timeline of each cluster's roles. The page draws plain SVG itself; it needs no library.
import type { ReportHead, ReportModel, ReportStream } from './report-model.js';

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
body { font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; background: var(--bg); color: #222; }
header { padding: 6px 16px; background: #fff; border-bottom: 1px solid #ddd; }
header details { font-size: 12px; color: #444; } header details p { margin: 4px 0; white-space: pre-wrap; }
h1 { font-size: 17px; margin: 0 0 2px; } h2 { font-size: 14px; margin: 6px 0 4px; } h3 { font-size: 13px; margin: 6px 0 2px; }
.verdict { display: inline-block; padding: 0 6px; border-radius: 4px; color: #fff; font-weight: 600; }
.verdict.valid { background: var(--secondary); } .verdict.invalid { background: var(--crashed); }
#top { display: grid; grid-template-columns: 220px 600px minmax(0, 1fr); gap: 10px; padding: 8px 16px; }
#steps { list-style: none; margin: 0; padding: 0; max-height: 560px; overflow: auto; border: 1px solid #ddd; background: #fff; }
#steps li { padding: 2px 6px; cursor: pointer; border-bottom: 1px solid #eee; font-size: 12px; }
#steps li.current { background: #e8f0fb; font-weight: 600; }
#steps li.failed { border-left: 4px solid var(--crashed); } #steps li.hazard { border-left: 4px solid var(--warn); }
.controls { display: flex; align-items: center; gap: 6px; margin-bottom: 4px; }
#slider { flex: 1; }
.panel { background: #fff; border: 1px solid #ddd; padding: 6px 10px; margin: 0 0 10px; overflow-x: auto; }
#step { max-height: 600px; overflow: auto; }
pre { white-space: pre-wrap; word-break: break-all; font-size: 11.5px; background: #f4f4f4; padding: 4px 6px; margin: 2px 0; }
#http { max-height: 120px; overflow: auto; } #response { max-height: 190px; overflow: auto; } #curl { max-height: 90px; overflow: auto; }
.rule { color: #0b6f80; } .finding.hazard { color: var(--warn); font-weight: 600; } .finding.violation { color: var(--crashed); font-weight: 600; }
.held { color: var(--secondary); font-weight: 600; } .broken { color: var(--crashed); font-weight: 600; }
ul { margin: 2px 0; padding-left: 18px; }
svg text { font: 11px system-ui, sans-serif; }
.legend span { display: inline-block; margin-right: 10px; font-size: 11px; }
.swatch { display: inline-block; width: 10px; height: 10px; margin-right: 3px; vertical-align: middle; }
.wide { padding: 0 16px; }
#spacetime-box { max-height: 75vh; overflow: auto; border: 1px solid #eee; }
button.copy { font-size: 11px; }
`;

// The page's script. It only reads the model: every value shown was computed by replsim. A live view
// (replsim serve --ui) calls window.replsimUpdate(model) with each new model; the page redraws.
const SCRIPT = String.raw`
let M = JSON.parse(document.getElementById('model').textContent);
const SVGNS = 'http://www.w3.org/2000/svg';
const COLOR = { primary: '#1b6ac9', secondary: '#2e8b57', disabled: '#888888', crashed: '#b22222' };
const KIND = { dr: 'DR', performance: 'perf' };
let current = M.steps.length;
let zoom = 1;

function el(tag, attrs, text) {
  const e = tag.startsWith('svg:') ? document.createElementNS(SVGNS, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}
function fmt(ms) {
  if (ms >= 3600000 && ms % 3600000 === 0) return ms / 3600000 + 'h';
  if (ms >= 60000 && ms % 60000 === 0) return ms / 60000 + 'm';
  if (ms >= 1000 && ms % 100 === 0) return ms / 1000 + 's';
  return ms + 'ms';
}
function topologyAt(i) { return i === 0 ? M.initial : M.steps[i - 1].topology; }
function alarmed(t, name, kind) { return t.alarms.some((a) => a.kind === kind && a.primaries.includes(name)); }

// ---- topology ---------------------------------------------------------------------------------
function drawTopology(i) {
  const t = topologyAt(i);
  const box = document.getElementById('topology');
  box.replaceChildren();
  const n = t.clusters.length + t.stores.length;
  const W = 600, H = 330, cx = W / 2, cy = H / 2, R = Math.min(W, H) / 2 - 60, BW = 212, BH = 80;
  const svg = el('svg:svg', { viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, role: 'img', 'aria-label': 'topology at step ' + i });
  const defs = el('svg:defs');
  for (const [id, color] of [['arrow-dr', '#2e8b57'], ['arrow-perf', '#6a3fb5']]) {
    const m = el('svg:marker', { id, viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
    m.appendChild(el('svg:path', { d: 'M0,0 L10,5 L0,10 z', fill: color }));
    defs.appendChild(m);
  }
  svg.appendChild(defs);
  const pos = {};
  t.clusters.map((c) => c.name).concat(t.stores).forEach((name, k) => {
    const a = (2 * Math.PI * k) / Math.max(1, n) - Math.PI / 2 + (n === 2 ? Math.PI / 2 : 0);
    pos[name] = [cx + ((W - BW) / 2 - 8) * Math.cos(a), cy + ((H - BH) / 2 - 10) * Math.sin(a)];
  });
  for (const [a, b] of t.cut) {
    if (!pos[a] || !pos[b]) continue;
    svg.appendChild(el('svg:line', { x1: pos[a][0], y1: pos[a][1], x2: pos[b][0], y2: pos[b][1], stroke: '#b22222', 'stroke-dasharray': '3 5', 'stroke-width': 2, 'data-cut': a + '|' + b }));
    svg.appendChild(el('svg:text', { x: (pos[a][0] + pos[b][0]) / 2, y: (pos[a][1] + pos[b][1]) / 2 + 26, fill: '#b22222', 'text-anchor': 'middle' }, '✂ partitioned'));
  }
  for (const c of t.clusters) {
    for (const kind of ['dr', 'performance']) {
      const r = c[kind];
      if (!r.follows || !pos[r.follows]) continue;
      const [x1, y1] = pos[c.name], [x2, y2] = pos[r.follows];
      const off = kind === 'dr' ? -7 : 7;
      const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy) || 1, ux = dx / len, uy = dy / len;
      const sx = Math.abs(ux) * BW / 2 > Math.abs(uy) * BH / 2 ? BW / 2 / Math.max(0.01, Math.abs(ux)) : BH / 2 / Math.max(0.01, Math.abs(uy));
      const pts = { x1: x1 + ux * sx - uy * off, y1: y1 + uy * sx + ux * off, x2: x2 - ux * sx - uy * off, y2: y2 - uy * sx + ux * off };
      const color = kind === 'dr' ? '#2e8b57' : '#6a3fb5';
      const line = el('svg:line', Object.assign({}, pts, {
        stroke: color, 'stroke-width': 2, 'stroke-dasharray': r.streaming ? '' : '6 4',
        'marker-end': 'url(#' + (kind === 'dr' ? 'arrow-dr' : 'arrow-perf') + ')', 'data-follows': c.name + '>' + r.follows + ':' + kind,
      }));
      line.appendChild(el('svg:title', {}, c.name + ' follows ' + r.follows + ' (' + KIND[kind] + ')' + (r.status ? ': state ' + r.status.state + ', connection_state ' + r.status.connection_state : '')));
      svg.appendChild(line);
      const mx = (pts.x1 + pts.x2) / 2 - uy * off * 2, my = (pts.y1 + pts.y2) / 2 + ux * off * 2;
      const words = [KIND[kind] + ' ' + (r.status ? r.status.connection_state : '')];
      if (r.filtered.length) words.push('filtered: ' + r.filtered.join(', '));
      const label = el('svg:text', { x: mx, y: my, 'text-anchor': 'middle', fill: color, 'paint-order': 'stroke', stroke: '#fff', 'stroke-width': 3, 'data-link-label': c.name + ':' + kind });
      words.forEach((w, k) => { const ts = el('svg:tspan', { x: mx, dy: k === 0 ? 0 : 12 }, w); if (k > 0) ts.setAttribute('data-filtered', r.filtered.join(',')); label.appendChild(ts); });
      svg.appendChild(label);
    }
  }
  for (const c of t.clusters) {
    const [x, y] = pos[c.name];
    const two = alarmed(t, c.name, 'dr') || alarmed(t, c.name, 'performance');
    const lagging = ['dr', 'performance'].some((k) => c[k].lag && c[k].lag.wals > 0);
    const revoked = c.dr.revoked || c.performance.revoked;
    const alarm = two ? 'two-primaries' : lagging ? 'lag' : revoked ? 'revoked' : '';
    const g = el('svg:g', { 'data-cluster': c.name, 'data-dr': c.dr.mode, 'data-performance': c.performance.mode, 'data-crashed': c.crashed, 'data-alarm': alarm });
    const main = c.crashed ? 'crashed' : c.dr.mode === 'primary' || c.performance.mode === 'primary' ? 'primary' : c.dr.mode === 'secondary' || c.performance.mode === 'secondary' ? 'secondary' : 'disabled';
    const fill = two ? '#fde2e2' : lagging ? '#fff1d6' : '#fff';
    const stroke = two ? '#d00000' : lagging ? '#c77700' : COLOR[main];
    g.appendChild(el('svg:rect', { x: x - BW / 2, y: y - BH / 2, width: BW, height: BH, rx: 8, fill, stroke, 'stroke-width': two || lagging ? 4 : c.crashed ? 3 : 2, 'stroke-dasharray': c.crashed ? '4 3' : '' }));
    g.appendChild(el('svg:text', { x, y: y - BH / 2 + 14, 'text-anchor': 'middle', 'font-weight': 600 }, c.name + (c.crashed ? ' ✖ crashed' : '')));
    let line = 0;
    const row = (text, fillColor, attrs) => { g.appendChild(el('svg:text', Object.assign({ x, y: y - BH / 2 + 29 + 12 * line++, 'text-anchor': 'middle', fill: fillColor, 'font-size': 10.5 }, attrs || {}), text)); };
    for (const kind of ['dr', 'performance']) {
      const r = c[kind];
      if (r.mode === 'disabled' && kind === 'performance' && c.dr.mode !== 'disabled') continue;
      let text = KIND[kind] + ': ' + r.role;
      if (r.mode === 'primary') text += ' · last_wal ' + c.lastWal;
      if (r.mode === 'secondary' && r.lastRemoteWal !== null) text += ' · last_remote_wal ' + r.lastRemoteWal;
      row(text, COLOR[r.mode]);
    }
    if (two) row('⚠ two primaries of one set', '#d00000', { 'font-weight': 700, 'data-alarm-text': 'two-primaries' });
    for (const kind of ['dr', 'performance']) {
      const r = c[kind];
      if (r.lag && r.lag.wals > 0) row('lag ' + r.lag.wals + ' WAL' + (r.lag.wals === 1 ? '' : 's') + ', ' + r.lag.ms + ' ms (' + KIND[kind] + ')', '#a65f00', { 'font-weight': 700, 'data-lag': r.lag.wals + ':' + r.lag.ms });
      if (r.revoked) row('⛔ revoked: barred (' + KIND[kind] + ')', '#b22222', { 'font-weight': 700, 'data-revoked': kind });
    }
    g.appendChild(el('svg:title', {}, c.name + ' ' + c.version));
    svg.appendChild(g);
  }
  for (const s of t.stores) {
    const [x, y] = pos[s];
    const g = el('svg:g', { 'data-store': s });
    g.appendChild(el('svg:ellipse', { cx: x, cy: y, rx: 62, ry: 22, fill: '#fff8e6', stroke: '#c77700' }));
    g.appendChild(el('svg:text', { x, y: y + 4, 'text-anchor': 'middle' }, '⛁ ' + s));
    svg.appendChild(g);
  }
  box.appendChild(svg);
  document.getElementById('time').textContent = 'virtual time ' + fmt(t.at);
}

// ---- the step panel -----------------------------------------------------------------------------
function httpOf(s) {
  const r = s.request;
  const addr = M.addresses[r.cluster] || ('http://' + r.cluster);
  const url = addr + '/v1/' + r.path;
  const lines = [r.method + ' /v1/' + r.path + ' HTTP/1.1', 'Host: ' + addr.replace(/^https?:\/\//, '')];
  if (r.token !== 'none') lines.push('X-Vault-Token: <' + (r.token === 'root' ? r.cluster + "'s root token" : r.token) + '>');
  if (r.namespace) lines.push('X-Vault-Namespace: ' + r.namespace);
  const body = r.body === undefined ? '' : JSON.stringify(r.body);
  if (body) lines.push('', body);
  const q = (v) => "'" + v.replace(/'/g, "'\\''") + "'";
  const curl = ['curl -sS', r.method === 'GET' ? '' : '-X ' + r.method, r.token === 'none' ? '' : '-H "X-Vault-Token: $VAULT_TOKEN"', r.namespace ? '-H ' + q('X-Vault-Namespace: ' + r.namespace) : '', body ? '-d ' + q(body) : '', q(url)].filter(Boolean).join(' ');
  return { http: lines.join('\n'), curl };
}
function drawStep(i) {
  const box = document.getElementById('step');
  box.replaceChildren();
  if (i === 0) { box.appendChild(el('p', {}, 'Before the first step: every cluster initialised, unsealed, replication disabled.')); return; }
  const s = M.steps[i - 1];
  box.appendChild(el('h2', {}, s.n + '. ' + (s.name ? s.name + ' — ' : '') + s.title));
  box.appendChild(el('p', { class: 'when' }, 'virtual time ' + fmt(s.at) + (s.topology.at !== s.at ? ' → ' + fmt(s.topology.at) : '') + (s.endpoint ? ' · ' + s.endpoint : '')));
  if (s.request) {
    const h = httpOf(s);
    box.appendChild(el('pre', { id: 'http' }, h.http));
    if (s.response) {
      box.appendChild(el('div', { id: 'status' }, '→ ' + s.response.status));
      box.appendChild(el('pre', { id: 'response' }, s.response.body === null ? '(no content)' : JSON.stringify(s.response.body, null, 2)));
    }
    if (s.rule) box.appendChild(el('p', { class: 'rule' }, 'rule (' + s.rule.rule + '): ' + s.rule.words));
  } else {
    box.appendChild(el('p', { class: 'action', id: 'action' }, 'operator: ' + s.title));
    if (s.inspected) box.appendChild(el('pre', { id: 'response' }, JSON.stringify(s.inspected, null, 2)));
  }
  const ex = el('div', { id: 'expect' });
  ex.appendChild(el('h3', {}, 'expected'));
  const held = el('span', { class: s.ok ? 'held' : 'broken', 'data-held': s.ok }, s.ok ? ' ✓ held' : ' ✗ did not hold: ' + (s.failure || 'failed'));
  const what = s.expect === null ? (s.request ? 'a 2xx answer' : 'the step to run') : JSON.stringify(s.expect);
  const p = el('p', {}, what); p.appendChild(held); ex.appendChild(p);
  box.appendChild(ex);
  for (const f of s.findings) {
    const fp = el('p', { class: 'finding ' + f.kind, 'data-finding': f.id }, (f.kind === 'hazard' ? '⚠ hazard ' : '✗ violation ') + f.id + ' at ' + fmt(f.at) + ': ' + f.message);
    box.appendChild(fp);
    if (f.lostKeys.length) box.appendChild(el('p', { class: 'finding hazard', 'data-lost-keys': f.lostKeys.join(', ') }, 'lost: ' + f.lostKeys.join(', ')));
  }
  const ch = el('div', { id: 'changes' });
  ch.appendChild(el('h3', {}, 'what changed'));
  const ul = el('ul');
  for (const c of s.changes) ul.appendChild(el('li', {}, c));
  if (!s.changes.length) ul.appendChild(el('li', {}, 'nothing in the topology'));
  ch.appendChild(ul);
  box.appendChild(ch);
  if (s.request) {
    const h = httpOf(s);
    const head = el('h3', {}, 'as curl ');
    const btn = el('button', { class: 'copy', type: 'button' }, 'copy');
    btn.addEventListener('click', () => { navigator.clipboard && navigator.clipboard.writeText(h.curl); });
    head.appendChild(btn);
    box.appendChild(head);
    box.appendChild(el('pre', { id: 'curl' }, h.curl));
    box.appendChild(el('p', { class: 'legend' }, 'addresses as replsim serve listens (' + Object.entries(M.addresses).map(([k, v]) => k + ' ' + v).join(', ') + '); VAULT_TOKEN as it prints; secrets in bodies are shortened here.'));
  }
}

// ---- roles, one column per step ------------------------------------------------------------------
function drawRoles() {
  const box = document.getElementById('roles');
  box.replaceChildren();
  const rows = [];
  for (const c of M.clusterNames) for (const k of ['dr', 'performance']) rows.push([c, k]);
  const cols = M.steps.length + 1;
  const left = 110, colW = Math.max(16, Math.min(40, Math.floor(1200 / cols))), rowH = 18, top = 18;
  const W = left + cols * colW + 10, H = top + rows.length * rowH + 34;
  const svg = el('svg:svg', { viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, id: 'roles-svg' });
  for (let i = 0; i < cols; i++) {
    const x = left + i * colW;
    if (i % Math.ceil(18 / colW) === 0 || i === cols - 1) svg.appendChild(el('svg:text', { x: x + colW / 2, y: 12, 'text-anchor': 'middle', fill: '#666' }, String(i)));
    const t = topologyAt(i);
    rows.forEach(([c, k], r) => {
      const v = t.clusters.find((x) => x.name === c);
      const mode = v.crashed ? 'crashed' : v[k].mode;
      const alarm = alarmed(t, c, k);
      const rect = el('svg:rect', { x: x + 1, y: top + r * rowH + 2, width: colW - 2, height: rowH - 4, fill: COLOR[mode], stroke: alarm ? '#d00000' : 'none', 'stroke-width': alarm ? 3 : 0, 'data-cell': c + ':' + k + ':' + i, 'data-mode': mode, 'data-alarm': alarm ? 'two-primaries' : '' });
      rect.appendChild(el('svg:title', {}, 'after step ' + i + ' (' + fmt(t.at) + '): ' + c + ' ' + KIND[k] + ' ' + (v.crashed ? 'crashed' : v[k].role)));
      rect.addEventListener('click', () => select(i));
      svg.appendChild(rect);
    });
    // The secondary axis: virtual time, written where it moved.
    const prev = i === 0 ? -1 : topologyAt(i - 1).at;
    if (t.at !== prev) svg.appendChild(el('svg:text', { x: x + 2, y: top + rows.length * rowH + 14, fill: '#999', transform: 'rotate(30 ' + (x + 2) + ' ' + (top + rows.length * rowH + 14) + ')' }, fmt(t.at)));
  }
  rows.forEach(([c, k], r) => svg.appendChild(el('svg:text', { x: 4, y: top + r * rowH + 13 }, c + ' ' + KIND[k])));
  svg.appendChild(el('svg:rect', { id: 'roles-now', x: left, y: top - 2, width: colW, height: rows.length * rowH + 4, fill: 'none', stroke: '#000', 'stroke-width': 1.5 }));
  box.appendChild(svg);
  const legend = el('p', { class: 'legend' });
  for (const [k, v] of Object.entries(COLOR)) { const sp = el('span'); sp.append(el('span', { class: 'swatch', style: 'background:' + v }), k); legend.appendChild(sp); }
  legend.appendChild(el('span', {}, 'one column per step (the state after it), virtual time below; red outline: two primaries of one set'));
  box.appendChild(legend);
  return (i) => { const r = document.getElementById('roles-now'); r.setAttribute('x', left + i * colW); };
}

// ---- space-time ----------------------------------------------------------------------------------
function laneOf(s) {
  if (!s.request) return 'operator';
  return /^sys\//.test(s.request.path) ? 'operator' : 'client';
}
function drawSpaceTime() {
  const box = document.getElementById('spacetime-box');
  box.replaceChildren();
  const lanes = ['operator', 'client'].concat(M.clusterNames);
  for (const m of M.messages.concat(M.lost)) for (const e of [m.from, m.to]) if (!lanes.includes(e)) lanes.push(e);
  // One row per step and per log position at which a message left or arrived, in log order: the
  // order the simulator applied them (a Lamport diagram: what happened at one instant stays apart).
  const slotKey = [];
  let prev = 1;
  // A step that appended nothing shares its log position with the next: each still gets its own row.
  M.steps.forEach((s, k) => { slotKey.push(prev + 0.25 + k * 1e-6); prev = Math.max(prev, s.seqEnd); });
  const endKey = prev + 0.75;
  const keys = new Set(slotKey.concat([endKey]));
  for (const m of M.messages) { keys.add(m.sentBy); keys.add(m.seq); }
  for (const m of M.lost) { keys.add(m.sentBy); keys.add(m.droppedBy === null ? endKey : m.droppedBy); }
  const sorted = [...keys].sort((a, b) => a - b);
  const index = new Map(sorted.map((k, i) => [k, i]));
  const rowH = 20, top = 28, left = 64, colW = Math.max(150, Math.min(240, Math.floor(960 / lanes.length))), notes = 420;
  const W = left + lanes.length * colW + notes, H = top + sorted.length * rowH + 20;
  const y = (k) => top + index.get(k) * rowH + rowH / 2;
  const x = (name) => left + lanes.indexOf(name) * colW + colW / 2;
  const svg = el('svg:svg', { viewBox: '0 0 ' + W + ' ' + H, width: W * zoom, height: H * zoom, id: 'spacetime-svg', 'data-w': W, 'data-h': H });
  const defs = el('svg:defs');
  for (const [id, color] of [['arrow-msg', '#555'], ['arrow-op', '#1b6ac9']]) {
    const mk = el('svg:marker', { id, viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' });
    mk.appendChild(el('svg:path', { d: 'M0,0 L10,5 L0,10 z', fill: color }));
    defs.appendChild(mk);
  }
  svg.appendChild(defs);
  lanes.forEach((name) => {
    svg.appendChild(el('svg:text', { x: x(name), y: 16, 'text-anchor': 'middle', 'font-weight': 600 }, name));
    svg.appendChild(el('svg:line', { x1: x(name), y1: top, x2: x(name), y2: H - 10, stroke: name === 'operator' || name === 'client' ? '#c9d8ee' : '#bbb', 'stroke-width': name === 'operator' || name === 'client' ? 3 : 1 }));
  });
  // Crashed clusters: a red band from the step that crashed them to the one that restarted them.
  M.steps.forEach((s, k) => {
    for (const c of s.topology.clusters) if (c.crashed) {
      const y1 = y(slotKey[k]), y2 = k + 1 < M.steps.length ? y(slotKey[k + 1]) : y(endKey);
      svg.appendChild(el('svg:rect', { x: x(c.name) - 5, y: y1, width: 10, height: Math.max(2, y2 - y1), fill: '#b22222', opacity: 0.35, 'data-crashed-span': c.name }));
    }
  });
  const KCOL = { wal: '#2e8b57', 'merkle-sync': '#1b6ac9', connect: '#555', unwrap: '#6a3fb5', 'forwarded-write': '#c77700', 'sync-job': '#8b4513', heartbeat: '#9a9a9a' };
  const label = (x1, y1, x2, y2, text, color, attrs) => {
    const t = el('svg:text', Object.assign({ x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 3, 'text-anchor': 'middle', fill: color, 'font-size': 10, 'paint-order': 'stroke', stroke: '#fff', 'stroke-width': 3 }, attrs || {}), text);
    svg.appendChild(t);
  };
  for (const m of M.messages) {
    const x1 = x(m.from), y1 = y(m.sentBy), x2 = x(m.to), y2 = y(m.seq);
    const line = el('svg:line', { x1, y1, x2, y2, stroke: KCOL[m.kind] || '#555', 'stroke-width': 1.5, 'marker-end': 'url(#arrow-msg)', class: 'msg', 'data-kind': m.kind });
    line.appendChild(el('svg:title', {}, m.label + '\n' + m.from + ' → ' + m.to + '\nsent ' + fmt(m.sentAt) + ', delivered ' + fmt(m.at) + ' (log #' + m.seq + ')'));
    svg.appendChild(line);
    label(x1, y1, x2, y2, m.label, KCOL[m.kind] || '#555', { class: 'msg-label' });
  }
  for (const m of M.lost) {
    const x1 = x(m.from), y1 = y(m.sentBy), y2 = y(m.droppedBy === null ? endKey : m.droppedBy);
    // A lost message stops half-way to its receiver, where it was lost, with a cross.
    const x2 = x1 + (x(m.to) - x1) * 0.6;
    const what = m.droppedAt === null ? 'never delivered (in flight at the end)' : 'dropped at ' + fmt(m.droppedAt) + ': ' + m.reason;
    const g = el('svg:g', { 'data-lost': m.label, class: 'lost' });
    const line = el('svg:line', { x1, y1, x2, y2, stroke: '#d00000', 'stroke-width': 1.5, 'stroke-dasharray': '5 3' });
    line.appendChild(el('svg:title', {}, m.label + '\n' + m.from + ' → ' + m.to + ', sent ' + fmt(m.sentAt) + '\n' + what));
    g.appendChild(line);
    g.appendChild(el('svg:text', { x: x2, y: y2 + 4, 'text-anchor': 'middle', fill: '#d00000', 'font-weight': 700, 'font-size': 14 }, '✗'));
    svg.appendChild(g);
    label(x1, y1, x2, y2, m.label + (m.droppedAt === null ? ' never delivered' : ' dropped'), '#d00000', { 'data-lost-label': m.label });
  }
  M.steps.forEach((s, k) => {
    const yy = y(slotKey[k]);
    svg.appendChild(el('svg:text', { x: 4, y: yy + 4, fill: '#999' }, fmt(s.at)));
    const lane = laneOf(s);
    const target = s.request ? s.request.cluster : null;
    const text = s.n + '. ' + (s.request ? s.request.method + ' ' + s.request.path + (s.response ? ' → ' + s.response.status : '') : s.title);
    if (target) {
      const line = el('svg:line', { x1: x(lane), y1: yy, x2: x(target), y2: yy, stroke: s.ok ? '#1b6ac9' : '#d00000', 'stroke-width': 1.2, 'marker-end': 'url(#arrow-op)', 'data-step': s.n, 'data-lane': lane });
      line.appendChild(el('svg:title', {}, text));
      svg.appendChild(line);
      svg.appendChild(el('svg:text', { x: x(lane) + 6, y: yy - 3, fill: s.ok ? '#1b6ac9' : '#d00000', 'font-size': 10, 'paint-order': 'stroke', stroke: '#fff', 'stroke-width': 3 }, text.length > 46 ? text.slice(0, 45) + '…' : text));
    } else {
      svg.appendChild(el('svg:circle', { cx: x(lane), cy: yy, r: 4, fill: '#1b6ac9', 'data-step': s.n, 'data-lane': lane }));
      svg.appendChild(el('svg:text', { x: x(lane) + 8, y: yy + 4, fill: '#1b6ac9', 'font-size': 10 }, text));
    }
    let dy = 0;
    for (const f of s.findings) {
      const words = (f.kind === 'hazard' ? '⚠ ' : '✗ ') + f.id + (f.lostKeys.length ? ': lost ' + f.lostKeys.join(', ') : '');
      svg.appendChild(el('svg:text', { x: left + lanes.length * colW + 6, y: yy + 4 + dy, fill: f.kind === 'hazard' ? '#c77700' : '#b22222', 'font-weight': 600, 'data-finding-mark': f.id }, words));
      dy += 13;
    }
  });
  svg.appendChild(el('svg:line', { id: 'now-line', x1: 0, x2: W, y1: top, y2: top, stroke: '#1b6ac9', 'stroke-dasharray': '2 3' }));
  box.appendChild(svg);
  document.getElementById('spacetime-note').textContent = M.messages.length + ' messages delivered, ' + M.lost.length + ' lost (dashed red, ✗); time runs down, one row per step and per message sent or delivered, in the order the log applied them (heartbeats, grey, between two steps: only the first and last round trips of each connection are drawn, the last one says how many more crossed); ' + fmt(M.end) + ' of virtual time in all.';
  return (i) => { const yy = i === 0 ? top : y(slotKey[i - 1]); const now = document.getElementById('now-line'); now.setAttribute('y1', yy); now.setAttribute('y2', yy); };
}
function setZoom(z) {
  zoom = Math.max(0.25, Math.min(4, z));
  const svg = document.getElementById('spacetime-svg');
  svg.setAttribute('width', Number(svg.dataset.w) * zoom);
  svg.setAttribute('height', Number(svg.dataset.h) * zoom);
  document.getElementById('zoom-level').textContent = Math.round(zoom * 100) + '%';
}

let markSpaceTime, markRoles;
function select(i) {
  current = Math.max(0, Math.min(M.steps.length, i));
  document.getElementById('slider').value = String(current);
  document.getElementById('position').textContent = current === 0 ? 'start' : 'step ' + current + ' of ' + M.steps.length;
  document.querySelectorAll('#steps li').forEach((li) => li.classList.toggle('current', Number(li.dataset.i) === current));
  drawTopology(current);
  drawStep(current);
  markSpaceTime(current);
  markRoles(current);
}

function drawAll(follow) {
  const list = document.getElementById('steps');
  list.replaceChildren();
  list.appendChild(el('li', { 'data-i': 0 }, '0. start'));
  M.steps.forEach((s, k) => {
    const cls = !s.ok ? 'failed' : s.findings.length ? 'hazard' : '';
    list.appendChild(el('li', { 'data-i': k + 1, class: cls }, s.n + '. ' + (s.name || s.title)));
  });
  document.getElementById('slider').max = String(M.steps.length);
  document.getElementById('verdict').textContent = M.verdict.toUpperCase();
  document.getElementById('verdict').className = 'verdict ' + (M.verdict === 'valid' ? 'valid' : 'invalid');
  document.getElementById('count').textContent = M.steps.length + ' steps';
  markSpaceTime = drawSpaceTime();
  markRoles = drawRoles();
  if (follow) select(M.steps.length);
}

function init() {
  document.getElementById('steps').addEventListener('click', (e) => { const li = e.target.closest('li'); if (li) select(Number(li.dataset.i)); });
  const slider = document.getElementById('slider');
  slider.addEventListener('input', () => select(Number(slider.value)));
  document.getElementById('prev').addEventListener('click', () => select(current - 1));
  document.getElementById('next').addEventListener('click', () => select(current + 1));
  document.getElementById('zoom-in').addEventListener('click', () => setZoom(zoom * 1.25));
  document.getElementById('zoom-out').addEventListener('click', () => setZoom(zoom / 1.25));
  document.getElementById('zoom-fit').addEventListener('click', () => { const svg = document.getElementById('spacetime-svg'); setZoom(document.getElementById('spacetime-box').clientWidth / Number(svg.dataset.w)); });
  document.getElementById('spacetime-box').addEventListener('wheel', (e) => { if (!e.ctrlKey) return; e.preventDefault(); setZoom(zoom * (e.deltaY < 0 ? 1.1 : 1 / 1.1)); }, { passive: false });
  // Arrow keys step through the run, except on the slider, which moves by itself (and fires input).
  document.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement) return;
    if (e.key === 'ArrowLeft') select(current - 1);
    if (e.key === 'ArrowRight') select(current + 1);
  });
  drawAll(false);
  const first = M.steps.findIndex((s) => s.findings.length > 0 || !s.ok);
  select(first >= 0 ? first + 1 : M.steps.length);
}
// A live view hands each new model here; the page follows the newest step unless someone moved back.
window.replsimUpdate = (model) => {
  const atEnd = current === M.steps.length;
  M = model;
  drawAll(false);
  select(atEnd ? M.steps.length : Math.min(current, M.steps.length));
};
init();
`;

/**
 * The whole page for a run. `options.live` is a script a live view adds (replsim serve --ui): it
 * fetches each new model and hands it to `window.replsimUpdate`.
 */
export function reportHtml(model: ReportModel, options: { live?: string } = {}): string {
  const [before, after] = page(model, model.steps.length, options.live ?? '');
  return before + scriptJson(model) + after;
}

/**
 * The page for a run read one step at a time (reportStream), in pieces to write one after another:
 * the same text as reportHtml of the whole model, without ever holding it whole.
 */
export function* reportHtmlChunks(stream: ReportStream): Generator<string> {
  const [before, after] = page(stream.head, stream.count, '');
  yield before;
  // The model's text around its steps and roles, which are written in between as they are read.
  const { initial, messages, lost, end, ...rest } = stream.head;
  // The keys in the order of ReportModel's, as reportModel makes them.
  const text = scriptJson({ ...rest, initial, steps: STEPS_MARK, messages, lost, roles: ROLES_MARK, end });
  const stepsKey = `"steps":${scriptJson(STEPS_MARK)}`;
  const rolesKey = `"roles":${scriptJson(ROLES_MARK)}`;
  const s = text.indexOf(stepsKey);
  const r = text.indexOf(rolesKey);
  yield text.slice(0, s) + '"steps":[';
  const steps = stream.steps();
  let next = steps.next();
  for (let first = true; !next.done; next = steps.next(), first = false) yield (first ? '' : ',') + scriptJson(next.value);
  yield ']' + text.slice(s + stepsKey.length, r) + `"roles":${scriptJson(next.value)}` + text.slice(r + rolesKey.length);
  yield after;
}

/** Stand-ins for the steps and the roles in the model's text: a key followed by one cannot occur inside a string. */
const STEPS_MARK = '\u0000steps';
const ROLES_MARK = '\u0000roles';

/** The page before and after the model's data. */
function page(model: ReportHead, count: number, live: string): [string, string] {
  const expect = typeof model.expect === 'string' ? model.expect : JSON.stringify(model.expect);
  return [`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="replsim">
<link rel="icon" href="data:,">
<title>${escapeHtml(model.name)} — replsim report</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(model.name)}</h1>
<div><span class="verdict ${model.verdict === 'valid' ? 'valid' : 'invalid'}" id="verdict">${escapeHtml(model.verdict.toUpperCase())}</span>
 ${escapeHtml(model.file)} · seed ${model.seed} · expected ${escapeHtml(expect)} · <span id="count">${count} steps</span>${live ? ' · <span id="live">live</span>' : ''}</div>
${model.description ? `<details><summary>about this scenario</summary><p>${escapeHtml(model.description)}</p></details>` : ''}
${model.reasons.map((r) => `<p class="finding violation">${escapeHtml(r)}</p>`).join('\n')}
</header>
<div id="top">
<nav><h2>Steps</h2><ol id="steps"></ol></nav>
<section>
<div class="controls"><button id="prev" type="button">◀</button><input id="slider" type="range" min="0" value="0" aria-label="step"><button id="next" type="button">▶</button><span id="position"></span> · <span id="time"></span></div>
<div class="panel"><div id="topology"></div>
<p class="legend"><span><span class="swatch" style="background:#2e8b57"></span>DR: secondary → the primary it follows</span><span><span class="swatch" style="background:#6a3fb5"></span>performance</span><span>dashed: not streaming</span><span style="color:#b22222">✂ partition</span><span style="color:#d00000">red box: two primaries of one set</span><span style="color:#c77700">amber box: a secondary lagging</span></p></div>
</section>
<section class="panel" id="step"></section>
</div>
<div class="wide">
<div class="panel"><h2>Roles, step by step</h2><div id="roles"></div></div>
<div class="panel"><h2>Messages over time (space-time diagram)</h2>
<div class="controls"><button id="zoom-out" type="button">−</button><span id="zoom-level">100%</span><button id="zoom-in" type="button">+</button><button id="zoom-fit" type="button">fit width</button><span class="legend">ctrl + wheel zooms too</span></div>
<div id="spacetime-box"></div><p class="legend" id="spacetime-note"></p></div>
</div>
<script type="application/json" id="model">`,
    `</script>
<script>${SCRIPT}</script>
${live ? `<script>${live}</script>` : ''}
</body>
</html>
`,
  ];
}
