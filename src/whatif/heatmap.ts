// report.html of `replsim whatif --out DIR`: a heat map, the runbook's steps down and the fault kinds
// across, each cell coloured by the worst outcome of the variants whose first fault is of that kind
// at that step. A cell opens its variants, each with its own run: the steps it ran, the faults where
// they were inserted, and what went wrong. One self-contained page (data, style and script inline).
import type { Step } from '../scenario/schema.js';
import type { Action, VariantResult } from './engine.js';
import { worst, variantWords, type Matrix } from './report.js';

/** Variants whose runs are embedded (the rest are counted in their cell): the page stays small enough to open. */
export const EMBEDDED_RUNS = 2000;

function actionText(a: Action, steps: readonly Step[], titles: string[]): string {
  if ('original' in a) return `${a.original + 1}. ${titles[a.original]}${a.waitMs !== undefined ? ` (${a.waitMs} ms of it)` : ''}`;
  if ('inserted' in a) {
    const name = (a.yaml as { name?: unknown }).name;
    return `   ⚡ ${a.note === 'retry' ? `step ${(a.yaml as { retryOf: number }).retryOf + 1} sent a first time, its answer (${(a.yaml as { status: number }).status}) lost` : typeof name === 'string' ? name : a.note}`;
  }
  return `   … the world left ${a.ms / 1000}s to settle, then the status records read`;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function heatmapHtml(input: { file: string; verdict: string; summary: string; matrix: Matrix; results: readonly VariantResult[]; steps: readonly Step[] }): string {
  const { matrix, results, steps } = input;
  const titles = matrix.rows.map((r) => r.title);
  const runs: Record<number, { words: string; outcome: string; reason: string; run: string[] }> = {};
  for (const r of results.slice(0, EMBEDDED_RUNS)) runs[r.n] = { words: variantWords(r, steps), outcome: r.outcome, reason: r.reason, run: r.actions.map((a) => actionText(a, steps, titles)) };
  const head = `<tr><th>step</th>${matrix.kinds.map((k) => `<th>${escape(k)}</th>`).join('')}</tr>`;
  const body = matrix.rows
    .map((row) => {
      const cells = matrix.kinds
        .map((k) => {
          const c = row.cells[k];
          if (!c) return '<td class="none"></td>';
          const n = c.ok + c.stopped + c.unsafe;
          const label = c.unsafe ? `${c.unsafe}/${n} unsafe` : c.stopped ? `${c.stopped}/${n} stopped` : `${n} ok`;
          return `<td class="${worst(c)}" tabindex="0" data-variants="${c.variants.join(',')}" title="${escape(`${k} at step ${row.step + 1}: ${label}`)}">${escape(label)}</td>`;
        })
        .join('');
      return `<tr><th class="step">${row.step + 1}${row.line ? ` <small>line ${row.line}</small>` : ''} ${escape(row.title)}</th>${cells}</tr>`;
    })
    .join('\n');
  const data = JSON.stringify(runs).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>replsim whatif: ${escape(input.file)}</title>
<style>
body{font:14px system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:.3em .6em;text-align:left}
th.step{font-weight:normal;max-width:32em}td{cursor:pointer;min-width:7em}td.none{cursor:default;background:#f6f6f6}
td.ok{background:#d8f0d8}td.stopped{background:#fde9b0}td.unsafe{background:#f4a6a6;font-weight:bold}
td:focus{outline:2px solid #333}#variants{margin-top:1em}pre{background:#f6f6f6;padding:.6em;white-space:pre-wrap}
.verdict{font-size:1.2em;font-weight:bold}
</style></head><body>
<h1>replsim whatif: ${escape(input.file)}</h1>
<p class="verdict">${escape(input.verdict)}</p><p>${escape(input.summary)}</p>
<p>Steps down, fault kinds across: each cell holds the variants whose (first) fault is of that kind, placed before or inside that step. Green: every variant held; amber: a runbook guard stopped some (an operator steps in); red: some were unsafe. Select a cell to see its variants and each one's run.</p>
<table><thead>${head}</thead><tbody>
${body}
</tbody></table>
<div id="variants"></div>
<script>
const runs = ${data};
const panel = document.getElementById('variants');
function show(td) {
  const ns = td.dataset.variants.split(',').map(Number);
  panel.textContent = '';
  for (const n of ns) {
    const r = runs[n];
    const h = document.createElement('h3');
    h.textContent = 'variant ' + n + (r ? ': ' + r.words + ' - ' + r.outcome : ' (its run is not embedded: the page keeps the first ${EMBEDDED_RUNS})');
    panel.appendChild(h);
    if (!r) continue;
    if (r.reason) { const p = document.createElement('p'); p.textContent = r.reason; panel.appendChild(p); }
    const pre = document.createElement('pre'); pre.textContent = r.run.join('\\n'); panel.appendChild(pre);
  }
}
for (const td of document.querySelectorAll('td[data-variants]')) {
  td.addEventListener('click', () => show(td));
  td.addEventListener('keydown', (e) => { if (e.key === 'Enter') show(td); });
}
</script>
</body></html>
`;
}
