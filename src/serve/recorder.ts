// Turns a serving session into a format-1 scenario (`replsim serve --record FILE.yaml`): every
// request a client sent that the service carried out, named after its endpoint in the spec's words,
// with what it answered as the step's `expect` (the status; for a replication status read its mode,
// state and connection_state); a request the service refused (it changed nothing) as a comment line
// with the refusal's status and text; the time that passed as `wait` steps; the faults the control
// listener injected; and as `expect` the verdict the session had (the hazards that arose). Replayed
// with `replsim run`, the file drives a fresh world with the same seed through the same steps, so it
// reaches the same verdict and the same world. Its first and last lines give its step count
// (src/scenario/recording-mark.ts), so a copy cut short is refused rather than run.
//
// Secrets are not copied: a value a response gave (an activation token, a nonce, an OTP, an
// encoded token) that a later request sends back is saved with `save:` on the step that produced
// it and referred to as `${name}`; a root token or key share the world started with is written as
// the built-in variable (`${east.root_token}`, `${east.keys.0}`); a DR operation token (or root
// token) the client decoded itself becomes a `decode-token` step.
import { Document, isSeq, type Node as YamlNode } from 'yaml';
import { decodeToken } from '../areas/core/crypto/otp.js';
import { formatMs } from '../kernel/clock.js';
import { recordingClosing, recordingInProgress, recordingOpening } from '../scenario/recording-mark.js';

/** A step as it is written in the file (raw YAML data, not the parsed form). */
export type RawStep = Record<string, unknown>;

/** What the recording starts from: the scenario given to `serve`, or the clusters of `--clusters`. */
export interface RecordingBase {
  name: string;
  description?: string;
  seed: number;
  clusters: Record<string, unknown>;
  /** The steps of the scenario given to `serve` (run before serving), as written in its file. */
  steps: RawStep[];
}

export interface RecordedRequest {
  cluster: string;
  method: string;
  path: string;
  body?: unknown;
  token?: string;
  namespace?: string;
}

/** What the session knows of an answered request besides its response. */
export interface AnswerInfo {
  /** The endpoint's summary in the spec's words, when a route matched. */
  endpoint?: string;
  /** Whether the request appended events (changed the world). */
  changed: boolean;
}

/** A comment line among the steps (a refused request), kept where it happened. */
const COMMENT = Symbol('comment');
type Entry = RawStep & { [COMMENT]?: string };

/** The replication status reads whose key fields a recorded step expects. */
const STATUS_READ = /^sys\/replication\/(?:dr\/|performance\/)?status$/;
const STATUS_FIELDS = ['mode', 'state', 'connection_state'] as const;

/** Where a value first appeared in a response: the step and the dotted path to it. */
interface Origin {
  step: RawStep;
  path: string;
  cluster: string;
  key: string;
}

/** A token the client could decode from an encoded token and the OTP it was given. */
interface Decodable {
  after: RawStep;
  /** The variable's name: what the token is for. */
  name: string;
  encoded: string;
  otp: string;
}

/** Strings shorter than this are not treated as secrets (ids, modes, small numbers). */
const MIN_SECRET_LENGTH = 8;

export class Recorder {
  private readonly steps: Entry[] = [];
  /** Values already nameable in the file: built-ins and saved variables, as `${name}`. */
  private readonly refs = new Map<string, string>();
  private readonly origins = new Map<string, Origin>();
  private readonly decodable = new Map<string, Decodable>();
  /** OTPs seen in responses, by cluster, to try against encoded tokens. */
  private readonly otps = new Map<string, string[]>();
  private readonly taken = new Set<string>();
  /** Requests that changed the world but could not be written as steps. */
  private readonly omissions: string[] = [];
  /** Changes to what was already told (a `save` or `decode-token` step added before, a warning at the top): a file written step by step is then written again. */
  private edits = 0;

  /**
   * @param builtins the world's built-in variables (`east.root_token` → value)
   * @param namedTokens per cluster, the scenario's token names and their values (`root`, `ops`)
   */
  constructor(
    private readonly base: RecordingBase,
    builtins: Record<string, string>,
    private readonly namedTokens: Record<string, Record<string, string>>,
  ) {
    for (const [name, value] of Object.entries(builtins)) if (!this.refs.has(value)) this.refs.set(value, `\${${name}}`);
    for (const s of base.steps) for (const name of Object.keys(savesOf(s))) this.taken.add(name);
  }

  /**
   * Records a request the world answered: a step, or — refused, so it changed nothing — a comment
   * line with the refusal (replaying it would add nothing but a check of the client's mistake).
   */
  request(r: RecordedRequest, status: number, responseBody: unknown, info: AnswerInfo = { changed: true }): void {
    if (status >= 400 && !info.changed) {
      const why = refusalText(responseBody);
      this.comment(`refused (${status}): ${r.method} ${r.path} on ${r.cluster}${why ? `: ${why}` : ''}`);
      return;
    }
    const step: RawStep = {};
    if (info.endpoint) step.name = info.endpoint;
    step.request = `${r.method} ${r.path}`;
    step.on = r.cluster;
    if (r.body !== undefined && r.body !== null) step.body = this.referenced(r.body);
    const token = this.tokenRef(r.cluster, r.token);
    if (token !== 'root') step.token = token;
    if (r.namespace) step.namespace = this.referenced(r.namespace);
    step.expect = expectationOf(r.path, status, responseBody);
    this.steps.push(step);
    this.learn(step, r.cluster, responseBody);
  }

  /** A comment line at this point of the steps (one line: newlines become spaces). */
  comment(text: string): void {
    this.steps.push({ [COMMENT]: text.replace(/\s*\n\s*/g, ' ').trim() });
  }

  /** Records elapsed virtual time; consecutive waits merge into one. */
  wait(ms: number): void {
    if (ms <= 0) return;
    const last = this.steps[this.steps.length - 1] as (Entry & { wait?: unknown; __ms?: number }) | undefined;
    if (last && last.__ms !== undefined) {
      last.__ms += ms;
      last.wait = formatMs(last.__ms);
      return;
    }
    const step: RawStep = { wait: formatMs(ms) };
    Object.defineProperty(step, '__ms', { value: ms, writable: true, enumerable: false });
    this.steps.push(step);
  }

  /** Records a fault step (partition, heal, crash, restart, corrupt, destination-fault) as given. */
  fault(step: RawStep): void {
    this.steps.push({ ...step });
  }

  /** Notes a request that changed the world but cannot be written in format 1. */
  omitted(what: string): void {
    this.omissions.push(what);
    this.edits++;
  }

  /** How many times what was already told has changed (recording-file.ts writes the file again then). */
  get revision(): number {
    return this.edits;
  }

  /** How many steps the session added (comment lines are not steps). */
  get length(): number {
    return this.steps.filter((s) => s[COMMENT] === undefined).length;
  }

  /** The recording as a format-1 scenario document (its steps without the comment lines). */
  document(expect: unknown): Record<string, unknown> {
    const doc: Record<string, unknown> = { name: this.base.name };
    doc.description = this.base.description ?? 'Recorded by replsim serve: the requests real clients sent, the time that passed and the faults injected.';
    doc.seed = this.base.seed;
    doc.expect = expect;
    doc.clusters = this.base.clusters;
    doc.steps = [...this.base.steps, ...this.steps.filter((s) => s[COMMENT] === undefined)];
    return doc;
  }

  /** The recording as YAML text: opened and closed by its step count, refused requests as comments where they happened. */
  yaml(expect: unknown): string {
    const document = this.document(expect);
    const count = (document.steps as RawStep[]).length;
    const doc = new Document(document);
    const items = isSeq(doc.get('steps')) ? (doc.get('steps') as { items: YamlNode[] }).items : [];
    // Comment lines go before the step that followed them; those after the last step, after it.
    let at = this.base.steps.length;
    let pending: string[] = [];
    const attach = (node: YamlNode | undefined, where: 'commentBefore' | 'comment') => {
      if (pending.length === 0 || !node) return;
      const text = pending.map((c) => ` ${c}`).join('\n');
      node[where] = node[where] ? `${node[where]}\n${text}` : text;
      pending = [];
    };
    for (const s of this.steps) {
      if (s[COMMENT] !== undefined) pending.push(s[COMMENT]);
      else attach(items[at++], 'commentBefore');
    }
    attach(items[items.length - 1], 'comment');
    if (pending.length > 0) doc.comment = pending.map((c) => ` ${c}`).join('\n');
    return this.head(recordingOpening(count)) + doc.toString({ lineWidth: 0 }) + recordingClosing(count) + '\n';
  }

  /**
   * The file's start while the session goes on (recording-file.ts): the in-progress opening line,
   * the scenario's keys with `steps` last, and the served scenario's own steps; the session's
   * entries are added after it (`progress`).
   */
  progressHead(expect: unknown): string {
    const { steps: _steps, ...keys } = this.document(expect);
    const start = new Document(keys).toString({ lineWidth: 0 });
    return this.head(recordingInProgress()) + start + 'steps:\n' + this.base.steps.map(entryText).join('');
  }

  /**
   * The session's entries from `from` on, as lines to add to the file, and where the next begin. A
   * wait that is the last entry is left for later: the next wait is added to it.
   */
  progress(from: number): { text: string; next: number } {
    let end = this.steps.length;
    const last = this.steps[end - 1] as { __ms?: number } | undefined;
    if (last?.__ms !== undefined) end--;
    if (end <= from) return { text: '', next: from };
    return { text: this.steps.slice(from, end).map(entryText).join(''), next: end };
  }

  /** The comment lines at the top: the opening line, how to replay, and what could not be written. */
  private head(opening: string): string {
    const head = [opening, '# Recorded by `replsim serve --record`; replay it with `replsim run <this file>`.'];
    if (this.omissions.length > 0) {
      head.push(`# WARNING: ${this.omissions.length} request(s) changed the world but could not be written as steps, so this file`);
      head.push('# does not replay the session exactly:');
      for (const o of this.omissions) head.push(`#   ${o.replace(/\n/g, ' ')}`);
    }
    return head.join('\n') + '\n';
  }

  /** The token of a request as a step writes it: a name of the receiving cluster, a variable, or `none`. */
  private tokenRef(cluster: string, token: string | undefined): string {
    if (token === undefined || token === '') return 'none';
    for (const [name, value] of Object.entries(this.namedTokens[cluster] ?? {})) if (value === token) return name;
    const ref = this.refFor(token);
    // A token that never existed in the world is, to the simulated service, the same as none: both
    // find no token entry and get the same refusal. Writing it as `none` keeps it out of the file.
    return ref ?? 'none';
  }

  /** A value with every string that is a known secret replaced by its `${name}`. */
  private referenced(value: unknown): unknown {
    if (typeof value === 'string') return this.refFor(value) ?? value;
    if (Array.isArray(value)) return value.map((v) => this.referenced(v));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      // defineProperty: a client's `__proto__` key stays a plain key of the copy.
      for (const [k, v] of Object.entries(value)) Object.defineProperty(out, k, { value: this.referenced(v), enumerable: true, writable: true, configurable: true });
      return out;
    }
    return value;
  }

  /** `${name}` for a value the file can name, saving or decoding it on the way; null when unknown. */
  private refFor(value: string): string | null {
    const known = this.refs.get(value);
    if (known) return known;
    const origin = this.origins.get(value);
    if (origin) {
      const name = this.freshName(origin.cluster, origin.key);
      const save = (origin.step.save ??= {}) as Record<string, string>;
      save[name] = origin.path;
      this.edits++;
      return this.remember(value, name);
    }
    const d = this.decodable.get(value);
    if (d) {
      const token = this.refFor(d.encoded);
      const otp = this.refFor(d.otp);
      if (!token || !otp) return null;
      const name = this.freshName(d.name, '');
      const at = this.steps.indexOf(d.after);
      this.steps.splice(at + 1, 0, { 'decode-token': token, otp, save: name });
      this.edits++;
      return this.remember(value, name);
    }
    return null;
  }

  private remember(value: string, name: string): string {
    const ref = `\${${name}}`;
    this.refs.set(value, ref);
    return ref;
  }

  private freshName(cluster: string, key: string): string {
    const words = `${cluster} ${key}`.split(/[^A-Za-z0-9]+/).filter(Boolean);
    const base = words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1))).join('') || 'value';
    let name = base;
    for (let n = 2; this.taken.has(name); n++) name = `${base}${n}`;
    this.taken.add(name);
    return name;
  }

  /** Notes every long string of a response as a value a later request may send back. */
  private learn(step: RawStep, cluster: string, body: unknown): void {
    const walk = (v: unknown, path: string[]) => {
      // A request id is never sent back; skipping it keeps the table to values a client might reuse.
      if (path.length === 1 && path[0] === 'request_id') return;
      if (typeof v === 'string') {
        if (v.length < MIN_SECRET_LENGTH || this.refs.has(v) || this.origins.has(v) || path.length === 0) return;
        const key = path[path.length - 1] ?? 'value';
        this.origins.set(v, { step, path: path.join('.'), cluster, key: key === 'token' && path.length > 1 ? path[path.length - 2].replace(/_info$/, '') + '_token' : key });
        if (key === 'otp') this.otps.set(cluster, [...(this.otps.get(cluster) ?? []), v]);
        return;
      }
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, String(i)]));
      else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) if (k !== '' && !/[.\s]/.test(k)) walk(x, [...path, k]); // save paths cannot hold dots or spaces
    };
    walk(body, []);
    // The last update of a generation attempt hands out an encoded token: what the client decodes
    // with the OTP from the attempt's start is a token it may send later.
    const encoded = findString(body, 'encoded_token') ?? findString(body, 'encoded_root_token');
    if (encoded) {
      for (const otp of this.otps.get(cluster) ?? []) {
        try {
          const decoded = decodeToken(encoded, otp);
          const name = String(step.request).includes('generate-operation-token') ? 'dr operation token' : 'root token';
          if (!this.decodable.has(decoded)) this.decodable.set(decoded, { after: step, name, encoded, otp });
        } catch {
          // Not this OTP's token (lengths differ): try the next.
        }
      }
    }
  }
}

/** One entry as lines of the steps list: a step as a list item, a refused request as a comment line. */
function entryText(entry: Entry): string {
  const comment = entry[COMMENT];
  if (comment !== undefined) return `# ${comment}\n`;
  return new Document([entry]).toString({ lineWidth: 0 });
}

/** What a recorded step expects: the status, and the key fields of a replication status read. */
function expectationOf(path: string, status: number, body: unknown): Record<string, unknown> {
  const expect: Record<string, unknown> = { status };
  if (status >= 400) {
    const why = refusalText(body);
    // An error text that reads as a /regex/ or holds "${" would mean something else in the file.
    if (why && !/^\/.*\/[a-z]*$/.test(why) && !why.includes('${')) expect.error = why;
    return expect;
  }
  if (!STATUS_READ.test(path.split('?')[0])) return expect;
  const data = fieldOf(body, 'data');
  const picked = pickStatus(data);
  if (picked) expect.data = picked;
  else {
    // sys/replication/status: both kinds, under dr and performance.
    const both: Record<string, unknown> = {};
    for (const kind of ['dr', 'performance']) {
      const p = pickStatus(fieldOf(data, kind));
      if (p) both[kind] = p;
    }
    if (Object.keys(both).length > 0) expect.data = both;
  }
  return expect;
}

/** mode, state and connection_state of a status record, those it has as strings. */
function pickStatus(record: unknown): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const f of STATUS_FIELDS) {
    const v = fieldOf(record, f);
    if (typeof v === 'string') out[f] = v;
  }
  return Object.keys(out).length > 0 ? out : null;
}

function fieldOf(v: unknown, key: string): unknown {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, key) ? (v as Record<string, unknown>)[key] : undefined;
}

/** The first of a refusal's `errors`, when it has one. */
function refusalText(body: unknown): string | undefined {
  const errors = fieldOf(body, 'errors');
  const first = Array.isArray(errors) ? errors[0] : undefined;
  return typeof first === 'string' && first !== '' ? first : undefined;
}

function savesOf(step: RawStep): Record<string, unknown> {
  const s = step.save;
  if (typeof s === 'string') return { [s]: true };
  return s !== null && typeof s === 'object' ? (s as Record<string, unknown>) : {};
}

/** A non-empty string field at the top level or under `data`. */
function findString(body: unknown, key: string): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const direct = Object.hasOwn(b, key) ? b[key] : undefined;
  if (typeof direct === 'string' && direct !== '') return direct;
  const data = b.data;
  if (data !== null && typeof data === 'object' && Object.hasOwn(data, key)) {
    const v = (data as Record<string, unknown>)[key];
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}
