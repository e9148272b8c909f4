// An ACL policy as an operator writes it (`vault policy write NAME FILE`, `PUT sys/policies/acl/NAME`
// with `{"policy": "<text>"}`), read into the rules the ACL check uses (policy.ts): path glob →
// capabilities. The service reads HCL (version 1) or the same structure as JSON:
//
//     path "sys/replication/dr/secondary/promote" { capabilities = ["update"] }
//     {"path": {"secret/*": {"capabilities": ["read", "list"]}}}
//
// replsim reads that structure itself rather than through an HCL library: the libraries on npm read
// HCL 2 (the service's policies are HCL 1), and the one that fits best gives no text for an error,
// while a refused policy must say where it is wrong (line and what was expected). What is read:
// `path "<glob>" { ... }` blocks, comments (`#`, `//`, `/* */`), and in a block `capabilities` (a list
// of strings) and the parameter constraints (`allowed_parameters`, `denied_parameters`,
// `required_parameters`, `min_wrapping_ttl`, `max_wrapping_ttl`), which are accepted and kept but not
// enforced (README, Limits). Several blocks for one path add their capabilities up, as the service
// merges them. Since 2.1.0 an attribute given twice in one block is an error (the service's
// important changes); before, the last one is taken (simulator choice: HCL 1 kept one).
import { hasOwn, PROTO_NAME } from '../../kernel/own.js';
import { CAPABILITIES, type Capability } from './vocabulary.js';
import type { Policy } from './state.js';

/** The service's capability names, beyond the ones the simulation gates on (they are stored and reported). */
const KNOWN_CAPABILITIES: ReadonlySet<string> = new Set<string>([...CAPABILITIES, 'subscribe', 'recover']);
const CONSTRAINTS: ReadonlySet<string> = new Set(['allowed_parameters', 'denied_parameters', 'required_parameters', 'min_wrapping_ttl', 'max_wrapping_ttl']);

export type PolicyRead = { ok: true; rules: Policy } | { ok: false; error: string };

type Token = { kind: 'string' | 'word' | 'number' | 'punct'; text: string; line: number };

function tokenize(text: string): Token[] | string {
  const out: Token[] = [];
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\n') {
      line++;
      i++;
    } else if (/\s/.test(ch)) i++;
    else if (ch === '#' || (ch === '/' && text[i + 1] === '/')) {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) return `line ${line}: a comment opened with /* is never closed`;
      for (let k = i; k < end; k++) if (text[k] === '\n') line++;
      i = end + 2;
    } else if (ch === '"') {
      let j = i + 1;
      let s = '';
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\n') return `line ${line}: a string is not closed on its line`;
        if (text[j] === '\\' && j + 1 < text.length) {
          s += text[j + 1];
          j += 2;
        } else s += text[j++];
      }
      if (j >= text.length) return `line ${line}: a string is not closed`;
      out.push({ kind: 'string', text: s, line });
      i = j + 1;
    } else if ('{}[]=,'.includes(ch)) {
      out.push({ kind: 'punct', text: ch, line });
      i++;
    } else if (/[A-Za-z_]/.test(ch)) {
      let j = i;
      while (j < text.length && /[A-Za-z0-9_-]/.test(text[j])) j++;
      out.push({ kind: 'word', text: text.slice(i, j), line });
      i = j;
    } else if (/[0-9-]/.test(ch)) {
      let j = i + 1;
      while (j < text.length && /[0-9.a-z]/.test(text[j])) j++;
      out.push({ kind: 'number', text: text.slice(i, j), line });
      i = j;
    } else return `line ${line}: unexpected character ${JSON.stringify(ch)}`;
  }
  return out;
}

class Reader {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}
  peek(): Token | undefined {
    return this.tokens[this.i];
  }
  next(): Token | undefined {
    return this.tokens[this.i++];
  }
  lastLine(): number {
    return this.tokens[Math.min(this.i, this.tokens.length) - 1]?.line ?? 1;
  }
  expect(text: string): string | null {
    const t = this.next();
    if (t?.kind === 'punct' && t.text === text) return null;
    return `line ${t?.line ?? this.lastLine()}: expected "${text}"${t ? `, found ${JSON.stringify(t.text)}` : ' before the end'}`;
  }
}

/** Skips one value (a string, number, word, list or object): the parameter constraints are kept as read, not interpreted. */
function skipValue(r: Reader): string | null {
  const t = r.next();
  if (!t) return `line ${r.lastLine()}: a value is missing before the end`;
  if (t.kind !== 'punct') return null;
  const close = t.text === '[' ? ']' : t.text === '{' ? '}' : null;
  if (!close) return `line ${t.line}: expected a value, found ${JSON.stringify(t.text)}`;
  let depth = 1;
  while (depth > 0) {
    const u = r.next();
    if (!u) return `line ${t.line}: "${t.text}" is never closed`;
    if (u.kind === 'punct' && (u.text === '[' || u.text === '{')) depth++;
    if (u.kind === 'punct' && (u.text === ']' || u.text === '}')) depth--;
  }
  return null;
}

function readCapabilities(r: Reader): Capability[] | string {
  const open = r.expect('[');
  if (open) return open;
  const caps: Capability[] = [];
  for (;;) {
    const t = r.next();
    if (!t) return `line ${r.lastLine()}: the capabilities list is never closed`;
    if (t.kind === 'punct' && t.text === ']') break;
    if (t.kind === 'punct' && t.text === ',') continue;
    if (t.kind !== 'string') return `line ${t.line}: a capability is a string, found ${JSON.stringify(t.text)}`;
    if (!KNOWN_CAPABILITIES.has(t.text)) return `line ${t.line}: invalid capability ${JSON.stringify(t.text)}`;
    if ((CAPABILITIES as readonly string[]).includes(t.text) && !caps.includes(t.text as Capability)) caps.push(t.text as Capability);
  }
  return caps;
}

function readHcl(text: string, strictAttributes: boolean): PolicyRead {
  const tokens = tokenize(text);
  if (typeof tokens === 'string') return { ok: false, error: tokens };
  const r = new Reader(tokens);
  const rules: Policy = {};
  while (r.peek()) {
    const kw = r.next()!;
    if (kw.kind !== 'word' || kw.text !== 'path') return { ok: false, error: `line ${kw.line}: expected a path block (path "<glob>" { ... }), found ${JSON.stringify(kw.text)}` };
    const glob = r.next();
    if (!glob || glob.kind !== 'string') return { ok: false, error: `line ${kw.line}: a path block needs its path in quotes` };
    if (r.peek()?.kind === 'punct' && r.peek()!.text === '=') r.next();
    const open = r.expect('{');
    if (open) return { ok: false, error: open };
    const seen = new Set<string>();
    let caps: Capability[] = [];
    for (;;) {
      const t = r.next();
      if (!t) return { ok: false, error: `line ${glob.line}: the block of path ${JSON.stringify(glob.text)} is never closed` };
      if (t.kind === 'punct' && t.text === '}') break;
      if (t.kind !== 'word') return { ok: false, error: `line ${t.line}: expected an attribute, found ${JSON.stringify(t.text)}` };
      if (t.text !== 'capabilities' && !CONSTRAINTS.has(t.text)) return { ok: false, error: `line ${t.line}: invalid key ${JSON.stringify(t.text)} on path ${JSON.stringify(glob.text)}` };
      if (seen.has(t.text) && strictAttributes) return { ok: false, error: `line ${t.line}: the argument ${JSON.stringify(t.text)} was already set` };
      seen.add(t.text);
      const eq = r.expect('=');
      if (eq) return { ok: false, error: eq };
      if (t.text === 'capabilities') {
        const read = readCapabilities(r);
        if (typeof read === 'string') return { ok: false, error: read };
        caps = read;
      } else {
        const skipped = skipValue(r);
        if (skipped) return { ok: false, error: skipped };
      }
    }
    const added = addRule(rules, glob.text, caps);
    if (added) return { ok: false, error: `line ${glob.line}: ${added}` };
  }
  return { ok: true, rules };
}

/** Adds a block's capabilities to the rules read so far (several blocks of one path add up). */
function addRule(rules: Policy, glob: string, caps: Capability[]): string | null {
  if (glob.trim() === PROTO_NAME) return `the path ${JSON.stringify(glob)} cannot be used`;
  const path = glob.replace(/^\/+/, '');
  const before = hasOwn(rules, path) ? rules[path] : [];
  Object.defineProperty(rules, path, { value: [...before, ...caps.filter((c) => !before.includes(c))], enumerable: true, writable: true, configurable: true });
  return null;
}

function readJson(text: string): PolicyRead {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `the policy is neither HCL nor valid JSON: ${(e as Error).message}` };
  }
  const paths = doc !== null && typeof doc === 'object' ? (doc as { path?: unknown }).path : undefined;
  if (paths === undefined) return { ok: true, rules: {} };
  if (paths === null || typeof paths !== 'object' || Array.isArray(paths)) return { ok: false, error: '"path" must be an object of path → { capabilities }' };
  const rules: Policy = {};
  for (const [glob, block] of Object.entries(paths as Record<string, unknown>)) {
    const blocks = Array.isArray(block) ? block : [block];
    for (const b of blocks) {
      const list = b !== null && typeof b === 'object' ? (b as { capabilities?: unknown }).capabilities : undefined;
      if (list !== undefined && (!Array.isArray(list) || list.some((c) => typeof c !== 'string'))) return { ok: false, error: `the capabilities of path ${JSON.stringify(glob)} must be a list of strings` };
      const bad = (list as string[] | undefined)?.find((c) => !KNOWN_CAPABILITIES.has(c));
      if (bad !== undefined) return { ok: false, error: `invalid capability ${JSON.stringify(bad)} on path ${JSON.stringify(glob)}` };
      const added = addRule(rules, glob, ((list as string[] | undefined) ?? []).filter((c): c is Capability => (CAPABILITIES as readonly string[]).includes(c)));
      if (added) return { ok: false, error: added };
    }
  }
  return { ok: true, rules };
}

/**
 * The rules of a policy's text, or why it cannot be read (naming the line). `strictAttributes`:
 * refuse an attribute given twice in one block (the service from 2.1.0).
 */
export function readPolicy(text: string, strictAttributes: boolean): PolicyRead {
  return text.trimStart().startsWith('{') ? readJson(text) : readHcl(text, strictAttributes);
}

/** A policy's rules as HCL text, for a policy a scenario declared as a map (what a read of it shows). */
export function policyText(rules: Policy): string {
  return Object.entries(rules)
    .map(([path, caps]) => `path ${JSON.stringify(path)} {\n  capabilities = [${caps.map((c) => JSON.stringify(c)).join(', ')}]\n}`)
    .join('\n\n');
}
