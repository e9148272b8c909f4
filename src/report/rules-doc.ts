// docs/rules.md: every rule id that narration, results.json, the refusal registry, the tutorials and
// the gallery cite, with its words and where it is enforced. Generated from the numbered rules
// (rules.ts) and the refusal registry (kernel/refusal.ts), so neither can drift from the page.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { registeredRefusals, type RefusalDef } from '../kernel/refusal.js';
import { NUMBERED_RULES } from './rules.js';
import '../world.js'; // registers every area's refusals (each area's refusals.ts, through its routes)

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/**
 * Where a refusal code's definition lives: the area's refusals.ts, the listener's http.ts, or for
 * `cluster.*` the core's (the authorisation step and the routing refuse with them; the cluster area
 * lists them as its own).
 */
function definedIn(code: string): string {
  const area = code.slice(0, code.indexOf('.'));
  if (area === 'http') return 'src/kernel/http/http.ts';
  return area === 'cluster' ? 'src/areas/core/refusals.ts' : `src/areas/${area}/refusals.ts`;
}

/** The source files (sorted) that return a refusal by its constructor: `R.unsafePromotion(`, `errors.badJson(`. */
function callers(root: string, sources: readonly { path: string; text: string }[], code: string): string[] {
  const key = code.slice(code.indexOf('.') + 1);
  const call = new RegExp(`\\b(?:R|T|err|errors|http|\\w+Refusals)\\.${key}\\(`);
  const own = definedIn(code);
  return sources.filter((s) => s.path !== own && call.test(s.text)).map((s) => s.path);
}

function sourceFiles(root: string): { path: string; text: string }[] {
  const dir = join(root, 'src');
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ path: relative(root, join(dir, f)).split('\\').join('/'), text: readFileSync(join(dir, f), 'utf8') }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}

interface Row {
  id: string;
  words: string[];
  where: Set<string>;
  codes: string[];
}

/** The text of docs/rules.md, reading the sources under `root` for where each refusal is returned. */
export function rulesReference(root: string): string {
  const sources = sourceFiles(root);
  const rows = new Map<string, Row>();
  const row = (id: string) => {
    let r = rows.get(id);
    if (!r) rows.set(id, (r = { id, words: [], where: new Set(), codes: [] }));
    return r;
  };
  for (const rule of NUMBERED_RULES) {
    const r = row(rule.id);
    r.words.push(rule.words);
    for (const w of rule.where) r.where.add(w);
  }
  const numbered = new Set(NUMBERED_RULES.map((r) => r.id));
  for (const d of registeredRefusals() as RefusalDef[]) {
    const r = row(d.rule.id);
    r.codes.push(d.code);
    // A numbered rule keeps its own words; any other id is worded by the refusals that apply it.
    if (!numbered.has(d.rule.id) && !r.words.includes(d.rule.words)) r.words.push(d.rule.words);
    r.where.add(definedIn(d.code));
    for (const f of callers(root, sources, d.code)) r.where.add(f);
  }
  const order = (id: string) => {
    const family = ['A.', 'B.', 'C.', 'D.', 'auth.', 'versioning.', 'limits.', 'role-table.', 'generation-table.', 'runtime-table.', 'endpoints', 'facts.', 'replsim.'];
    const k = family.findIndex((f) => id.startsWith(f));
    return k < 0 ? family.length : k;
  };
  const sorted = [...rows.values()].sort((a, b) => order(a.id) - order(b.id) || a.id.localeCompare(b.id, 'en', { numeric: true }));
  const lines = [
    '# Rules',
    '',
    'Generated from `src/report/rules.ts` and the refusal registry (`npx tsx src/report/write-rules.ts`);',
    'do not edit by hand. Every rule id that narration, `results.json` (`rule`), the report, the refusal',
    'registry ([refusals.md](refusals.md)), the tutorials and the gallery cite, in the project\'s words,',
    'with the files that enforce it and the refusal codes that apply it.',
    '',
    '**The spec** is the description of the service\'s replication administration API that replsim',
    'simulates: its resources, state tables, endpoints (areas A to D) and numbered rules. **The facts',
    'file** is the project\'s notes on the real service\'s behaviour beyond it (status codes, error texts,',
    'the HTTP listener). Neither ships with the repository: this page says each rule in the project\'s',
    'own words, and the code that enforces it is the reference.',
    '',
    'How ids read: `A.rule3` is rule 3 of area A (DR replication; B is performance replication, C the',
    'plugin runtime catalog, D secret sync), cited in prose as "area A rule 3"; `auth.2` is rule 2 of',
    'Authentication; `versioning.1` rule 1 of Versioning; `limits.*` a limit of the service;',
    '`role-table.promote` the promote row of the replication role table (`generation-table.*`: the',
    'operation-token generation attempt\'s table; `runtime-table.*`: the plugin runtime\'s); `A.*`, `B.*`,',
    '`C.*`, `D.*` without a number name an endpoint or field of that area; `endpoints` the endpoint list',
    'itself; `facts.*` the service\'s behaviour outside the spec (status codes, KV, tokens, the HTTP',
    'listener); `replsim.*` the simulator itself.',
    '',
    '| rule | in the project\'s words | enforced in | refusal codes |',
    '|---|---|---|---|',
  ];
  for (const r of sorted) {
    const where = [...r.where].sort().map((w) => `\`${w}\``).join(', ');
    const codes = r.codes.length ? r.codes.map((c) => `\`${c}\``).join(', ') : '—';
    lines.push(`| \`${r.id}\` | ${cell(r.words.join(' · '))} | ${where} | ${codes} |`);
  }
  return lines.join('\n') + '\n';
}
