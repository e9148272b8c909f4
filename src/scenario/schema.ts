// The scenario file, format 1 (docs/scenario-format.md), as one zod schema. The same schema
// validates files, gives the runner its types and writes the JSON Schema that editors use, so the three
// cannot disagree. Every message a user can cause names the key and, where it can guess, the fix.
import { closest } from '../kernel/suggest.js';
import { z } from 'zod/v4';
import { isStoreRef, STORE_REF_HELP } from '../areas/sync/external-store.js';
import { parseRegexLiteral } from './match.js';
import { readPolicy } from '../areas/core/policy-text.js';
import { strictPolicyAttributes, UNAUTHENTICATED_FAMILIES } from '../areas/core/version-rules.js';
import type { AreaStep, AreaStepAction, StepDeclaration } from '../areas/core/steps.js';
import { AREA_STEPS } from '../areas.js';

// ---------------------------------------------------------------------------------------------------
// Vocabularies (the spec's own are defined once, in src/areas/core/vocabulary.ts; a scenario's store
// reference may name every destination type the service has, `in-mem` too)
import { CAPABILITIES, DESTINATION_FAULTS, HAZARD_IDS, INVARIANT_IDS, SERVICE_DESTINATION_TYPES as DESTINATION_TYPES } from '../areas/core/vocabulary.js';
export { CAPABILITIES, DESTINATION_FAULTS, DESTINATION_TYPES, HAZARD_IDS, INVARIANT_IDS };
import type { Capability, DestinationFault, HazardId, InvariantId, ServiceDestinationType as DestinationType } from '../areas/core/vocabulary.js';
export type { Capability, DestinationFault, DestinationType, HazardId, InvariantId };

/** The action keys of the simulator's own steps: a request, the clock's and the network's. */
const OWN_STEP_ACTIONS = ['request', 'decode-token', 'wait', 'partition', 'slow', 'heal', 'crash', 'restart'] as const;
/** The action keys of a step, the areas' faults and inspections after the simulator's own (src/areas/core/steps.ts); a step has exactly one. */
export const STEP_ACTIONS: readonly StepAction[] = [...OWN_STEP_ACTIONS, ...AREA_STEPS.keys()];
/** Methods a request line may start with (LIST is the service's own verb). */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'LIST'] as const;
/** Licences a cluster may run under. */
export const LICENSES = ['enterprise', 'managed', 'none'] as const;
/** Secrets engines a mount may hold. */
export const MOUNT_TYPES = ['kv-v2', 'kv-v1'] as const;

/** A step's action key. */
export type StepAction = (typeof OWN_STEP_ACTIONS)[number] | AreaStepAction;
/** A request line's method. */
export type HttpMethod = (typeof HTTP_METHODS)[number];
/** A cluster's licence. */
export type License = (typeof LICENSES)[number];
/** A mount's secrets engine. */
export type MountType = (typeof MOUNT_TYPES)[number];

// ---------------------------------------------------------------------------------------------------
// The parsed steps. Each carries a `kind` (its action key) and normalised fields, so the runner never
// re-reads the file's shorthands (`partition: [a, b]`, `wait: 10s`, `mounts: { x: kv-v2 }`).

/** What a request step expects of the response; without one the request must answer 2xx. */
export interface RequestExpectation {
  status?: number;
  /** A substring of one of the response's `errors`, or `/regex/flags`. */
  error?: string;
  /** Partial deep match on the whole response body. */
  body?: Record<string, unknown>;
  /** Shorthand for `body: { data: ... }`; both may be given, and both must match. */
  data?: unknown;
}

/** `request: METHOD path`: one API call to one cluster. */
export interface RequestStep {
  kind: 'request';
  name?: string;
  method: HttpMethod;
  /** Without `/v1/` or a leading `/`; may carry a query string and `${var}`s. */
  path: string;
  on: string;
  body?: Record<string, unknown>;
  /** A token name, `root` (the default), `none`, or a string with `${var}`s. */
  token: string;
  namespace?: string;
  expect?: RequestExpectation;
  /** Variable name -> dotted path into the response body. */
  save: Record<string, string>;
}

/** `decode-token`: decode an encoded operation token with its OTP, as the service's CLI does. */
export interface DecodeTokenStep {
  kind: 'decode-token';
  name?: string;
  /** The encoded token, usually `${var}`. */
  token: string;
  otp: string;
  /** The variable that receives the decoded token. */
  save?: string;
}

/** `wait`: advance the virtual clock. */
export interface WaitStep {
  kind: 'wait';
  name?: string;
  ms: number;
}

/** `partition`: cut every link between clusters of different groups (`[a, b]` is `[[a], [b]]`). */
export interface PartitionStep {
  kind: 'partition';
  name?: string;
  groups: string[][];
}

/** `slow`: the link between two clusters takes `latencyMs` for each message sent on it, until a `heal` restores it. */
export interface SlowStep {
  kind: 'slow';
  name?: string;
  link: [string, string];
  latencyMs: number;
}

/** `heal`: restore the links between the groups, or every link (cut or slowed). */
export interface HealStep {
  kind: 'heal';
  name?: string;
  groups: string[][] | 'all';
}

/** `crash`: the cluster stops answering and streaming; its storage is kept. */
export interface CrashStep {
  kind: 'crash';
  name?: string;
  cluster: string;
}

/** `restart`: the crashed cluster comes back, unsealed, with its storage. */
export interface RestartStep {
  kind: 'restart';
  name?: string;
  cluster: string;
}

/** One parsed step, discriminated by `kind`. */
export type Step =
  | RequestStep
  | DecodeTokenStep
  | WaitStep
  | PartitionStep
  | SlowStep
  | HealStep
  | CrashStep
  | RestartStep
  | AreaStep;

// ---------------------------------------------------------------------------------------------------
// Messages

/**
 * The closest candidate to a misspelt word (case, `-` and `_` aside, or a small edit distance), if
 * any. Bounded (src/kernel/suggest.ts): a word much longer than every candidate is compared with none.
 */
export function didYouMean(input: string, candidates: readonly string[]): string | undefined {
  // One edit per three letters: "tokn" finds "token", but "on" must not find "otp" nor "FETCH" "PATCH".
  return closest(input, candidates, { maxEdits: (w) => Math.max(1, Math.floor(w.length / 3)), fold, compare: (w) => w.toLowerCase() });
}

function fold(word: string): string {
  return word.toLowerCase().replace(/[-_\s]/g, '');
}

function hint(input: string, candidates: readonly string[]): string {
  const guess = didYouMean(input, candidates);
  return guess === undefined ? '' : `: did you mean "${guess}"?`;
}

function quoteList(words: readonly string[]): string {
  return words.length === 0 ? '(none)' : words.join(', ');
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

const TYPE_NAMES: Record<string, string> = {
  object: 'a map',
  record: 'a map',
  array: 'a list',
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  float: 'a fractional number',
  boolean: 'true or false',
  null: 'an empty value (null)',
  undefined: 'nothing',
};

/** What zod hands an error map: an issue, with the value it is about as `input`. */
type RawIssue = z.core.$ZodRawIssue;

// The type of a value as the messages name it (TYPE_NAMES): an integer field given 1.5 got a fractional number.
function typeOf(value: unknown, expected: string): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isNaN(value) ? 'nan' : expected === 'int' && !Number.isInteger(value) ? 'float' : 'number';
  return typeof value;
}

// What a value is, then the value itself: `a number 5`, `a list []`, `an empty value (null)`.
function got(input: unknown, expected: string): string {
  const received = typeOf(input, expected);
  return `${TYPE_NAMES[received] ?? received}${input === null ? '' : ` ${show(input)}`}`;
}

/**
 * zod's messages in the words of a YAML file. A schema that words its own message (a union, a
 * version, a regular expression's `error`) is asked first, by zod; this map words the rest.
 */
export const scenarioErrorMap = (issue: RawIssue): string | undefined => {
  const input = issue.input;
  // A key that is not there, whatever it should have held (a string, an option, one of a choice's forms).
  if (input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union')) return 'required';
  switch (issue.code) {
    case 'invalid_type': {
      const expected = issue.expected === 'int' ? 'integer' : issue.expected;
      return `expected ${TYPE_NAMES[expected] ?? expected}, got ${got(input, issue.expected)}`;
    }
    case 'invalid_value': {
      // One value is a literal ("expected "pass""), several an enum's options, with a guess.
      if (issue.inst instanceof z.ZodLiteral) return `expected ${show(issue.values[0])}, got ${show(input)}`;
      // Not a string at all: say what it is, and every option.
      if (typeof input !== 'string') return `expected ${issue.values.map((v) => `'${String(v)}'`).join(' | ')}, got ${got(input, '')}`;
      const options = issue.values.map(String);
      return `${show(input)} is not one of ${quoteList(options)}${hint(String(input), options)}`;
    }
    case 'too_small': {
      const minimum = Number(issue.minimum);
      if (issue.origin === 'array') return `needs at least ${minimum} item${minimum === 1 ? '' : 's'}`;
      if (issue.origin === 'string') return 'must not be empty';
      return `must be at least ${minimum}, got ${show(input)}`;
    }
    case 'too_big':
      if (issue.origin === 'array') return `takes at most ${Number(issue.maximum)} items`;
      return `must be at most ${Number(issue.maximum)}, got ${show(input)}`;
    case 'invalid_key':
      // A map's key that breaks its rule: the rule's own message (a cluster name, a token name).
      return issue.issues[0]?.message;
    default:
      return undefined;
  }
};

// A union's own message: what it accepts, what it got, and a guess when a string is close to an option.
function unionErrorMap(accepts: string): (issue: RawIssue) => string | undefined {
  return (issue) => {
    // A missing value is left to scenarioErrorMap: "required", as for any other key.
    if (issue.code !== 'invalid_union' || issue.input === undefined) return undefined;
    const options = issue.errors.flat().flatMap((i) => (i.code === 'invalid_value' ? i.values.map(String) : []));
    const guess = typeof issue.input === 'string' ? hint(issue.input, options) : '';
    return `expected ${accepts}, got ${show(issue.input)}${guess}`;
  };
}

// ---------------------------------------------------------------------------------------------------
// Building blocks

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// zod's `.strict()` reports every unknown key of a map in one issue, at the map; a user wants one error
// per key, at the key's own line, with a guess at the key meant. So unknown keys are reported here and
// removed before the strict object sees them (which then only serves the types and the JSON Schema).
function strictObject<T extends z.ZodRawShape>(what: string, shape: T) {
  const allowed = Object.keys(shape);
  return z.preprocess((value, ctx) => {
    if (!isPlainObject(value)) return value;
    const unknownKeys = Object.keys(value).filter((key) => !Object.hasOwn(shape, key));
    if (unknownKeys.length === 0) return value;
    for (const key of unknownKeys) {
      ctx.addIssue({ code: 'unrecognized_keys', keys: [key], input: value, path: [key], message: unknownKeyMessage(key, what, allowed) });
    }
    return Object.fromEntries(Object.entries(value).filter(([key]) => Object.hasOwn(shape, key)));
  }, z.strictObject(shape));
}

function unknownKeyMessage(key: string, what: string, allowed: readonly string[]): string {
  const guess = didYouMean(key, allowed);
  return guess === undefined
    ? `unknown key ${show(key)} in ${what}; it takes ${quoteList(allowed)}`
    : `unknown key ${show(key)} in ${what}: did you mean "${guess}"?`;
}

// A union whose options are told apart by which key is present. The chosen option is parsed first, on
// its own, so its errors (not "matches no option") reach the user; the union then gives types and JSON Schema.
function forwardIssues(ctx: z.RefinementCtx, error: z.ZodError): void {
  for (const issue of error.issues) ctx.addIssue({ ...issue, fatal: true } as RawIssue);
}

// Codes that say a value does not have an option's shape at all; any other issue is a rule of the
// option that the value broke.
const SHAPE_CODES: ReadonlySet<string> = new Set(['invalid_type', 'invalid_value', 'invalid_union']);

/**
 * A union that words its failures as the rest of the file does. When no option matches, the first
 * option whose shape the value has says which of its rules was broken (an unknown key in a mount, a
 * cluster named twice), at that rule's key; a value of no option's shape gets the union's own
 * message: what it accepts, and a guess.
 */
function unionOf<const T extends readonly [z.ZodType, z.ZodType, ...z.ZodType[]]>(accepts: string, options: T) {
  const union = z.union(options, { error: unionErrorMap(accepts) });
  return z.preprocess((value, ctx) => {
    // A missing value is the union's own "required". Otherwise the union is asked first: a value
    // that matches costs no error object (zod's errors capture a stack, some 0.2 ms each). The
    // steps' union tries every step's schema on a step, so each unionOf sees missing values often.
    if (value === undefined || union.safeParse(value).success) return value;
    for (const option of options) {
      const parsed = option.safeParse(value, { error: scenarioErrorMap });
      if (!parsed.success && parsed.error.issues.every((issue) => !SHAPE_CODES.has(issue.code))) {
        forwardIssues(ctx, parsed.error);
        break;
      }
    }
    return value;
  }, union);
}

const CLUSTER_NAME = /^[a-z][a-z0-9-]*$/;
const NAMESPACE_PATH = /^[\w.-]+(\/[\w.-]+)*\/?$/;
const MOUNT_PATH = /^[^\s/]\S*$/;
const VARIABLE_NAME = /^[A-Za-z_][\w-]*$/;
const TOKEN_NAME = /^(?!(?:root|none)$)[A-Za-z_][\w-]*$/;
const DOTTED_PATH = /^[^.\s]+(\.[^.\s]+)*$/;
const SEMVER = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;
const REQUEST_LINE = /^(GET|POST|PUT|PATCH|DELETE|LIST) +(\S+)$/;
const DURATION = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h))+$/;
const DURATION_PART = /(\d+)(?:\.(\d+))?(ms|s|m|h)/g;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const DURATION_HELP = 'a duration is a number and a unit (ms, s, m or h), like 500ms, 10s, 31m, 2h or 1h30m';

function stripTrailingSlash(path: string): string {
  return path.endsWith('/') ? path.slice(0, -1) : path;
}

// Whole milliseconds, computed without floating point so "1.1s" is exactly 1100 and "0.5ms" is refused.
// A bare number is refused (0 aside, the same in every unit): the format lists durations with their
// unit only (`wait: 10s`; ms, s, m, h), and guessing one made `wait: 10` mean 10 ms to replsim while
// an operator reading the runbook took it for 10 s. Saying so costs the writer two letters.
function tryParseDuration(input: string | number): { ok: true; ms: number } | { ok: false; message: string } {
  const text = typeof input === 'number' ? String(input) : input.trim();
  if (typeof input === 'number' && !(Number.isSafeInteger(input) && input >= 0)) {
    return { ok: false, message: `${input} is not a duration: ${DURATION_HELP}` };
  }
  if (/^\d+$/.test(text)) {
    if (Number(text) === 0) return { ok: true, ms: 0 };
    return { ok: false, message: `${show(input)} has no unit: write ${text}ms, ${text}s, ${text}m or ${text}h (the format gives every duration its unit)` };
  }
  if (!DURATION.test(text)) return { ok: false, message: `${show(input)} is not a duration: ${DURATION_HELP}` };
  let ms = 0;
  for (const [, whole, fraction = '', unit] of text.matchAll(DURATION_PART)) {
    const scale = 10 ** fraction.length;
    const scaled = Number(fraction || '0') * UNIT_MS[unit];
    if (scaled % scale !== 0) {
      return { ok: false, message: `${show(input)} is not a whole number of milliseconds` };
    }
    ms += Number(whole) * UNIT_MS[unit] + scaled / scale;
  }
  if (!Number.isSafeInteger(ms)) return { ok: false, message: `${show(input)} is too long a duration` };
  return { ok: true, ms };
}

/** Milliseconds in a duration (`500ms`, `10s`, `31m`, `2h`, `1h30m`; a bare 0); throws a RangeError naming the problem. */
export function parseDuration(input: string | number): number {
  const parsed = tryParseDuration(input);
  if (!parsed.ok) throw new RangeError(parsed.message);
  return parsed.ms;
}

// ---------------------------------------------------------------------------------------------------
// Clusters

const VersionSchema = z
  .string({ error: (issue) => (issue.input === undefined ? undefined : `a version is a string like "1.16.0" (quote it in YAML), got ${show(issue.input)}`) })
  .regex(SEMVER, { message: 'a version is "major.minor.patch", like "1.16.0"' })
  .describe('Service version, compared as semver.');

const NamespaceSchema = z
  .string()
  .regex(NAMESPACE_PATH, { message: 'a namespace path is names separated by "/", like team-a/dev' })
  .transform(stripTrailingSlash);

const MountSchema = unionOf('kv-v2, kv-v1 or { type: kv-v2, local: true }', [
  z.enum(MOUNT_TYPES),
  strictObject('a mount', {
    type: z.enum(MOUNT_TYPES),
    local: z.boolean().default(false).describe('A local mount never leaves the cluster, except to DR secondaries.'),
  }),
]).transform((mount) => (typeof mount === 'string' ? { type: mount, local: false } : mount));

const TokenSchema = strictObject('a token', {
  namespace: unionOf('a namespace path like team-a/dev, or "" for the root namespace', [NamespaceSchema, z.literal('')]).default('').describe('"" is the root namespace.'),
  policy: z.record(z.string().min(1), z.array(z.enum(CAPABILITIES))).default({}).describe('Path glob -> capabilities.'),
  policies: z.array(z.string().min(1)).optional().describe('Named ACL policies (of this cluster\'s `policies`), as auth/token/create takes them; `default` is added.'),
  type: z.enum(['service', 'batch']).optional().describe('service (hvs., stored) or batch (hvb., sealed with the keyring, stored nowhere).'),
  role: z.string().min(1).optional().describe('A token role of this cluster\'s `roles`: its allowed policies, type, orphan and renewable apply.'),
  ttl: z
    .string()
    .optional()
    .refine((t) => t === undefined || tryParseDuration(t).ok, { message: 'a ttl is a duration with its unit, like "8h" or "30m"' })
    .describe('How long the token lives from the start, like "8h"; absent: it never expires.'),
});

/** A token role, as auth/token/roles/:name takes it (the parts a declared token uses). */
const RoleSchema = strictObject('a token role', {
  allowed_policies: z.array(z.string().min(1)).default([]),
  disallowed_policies: z.array(z.string().min(1)).default([]),
  orphan: z.boolean().default(false),
  renewable: z.boolean().default(true),
  token_type: z.enum(['service', 'batch', 'default-service', 'default-batch']).default('default-service'),
});

/** A named ACL policy: its HCL or JSON text, or path glob -> capabilities. */
const PolicySchema = unionOf('HCL or JSON policy text, or path glob -> capabilities', [z.string().min(1), z.record(z.string().min(1), z.array(z.enum(CAPABILITIES)))]).describe('HCL or JSON policy text, or path glob -> capabilities.');

// Rules between a cluster's own keys, checked on the file's values so a default can be named as such.
function checkClusterRules(raw: unknown, ctx: z.RefinementCtx): unknown {
  if (raw === null) return {}; // `east:` with nothing after it means all defaults, as `east: {}` does
  if (!isPlainObject(raw)) return raw;
  const shares = raw.keyShares ?? 5;
  const threshold = raw.keyThreshold ?? 3;
  // Out-of-range numbers get their own error from the field; comparing them would only repeat it.
  const comparable = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= 255;
  if (comparable(shares) && comparable(threshold) && threshold > shares) {
    ctx.addIssue({
      code: 'custom',
      path: [raw.keyThreshold === undefined ? 'keyShares' : 'keyThreshold'],
      message:
        `keyThreshold ${threshold}${raw.keyThreshold === undefined ? ' (the default)' : ''} is more than ` +
        `keyShares ${shares}${raw.keyShares === undefined ? ' (the default)' : ''}: the threshold cannot exceed the shares`,
    });
  }
  if (isPlainObject(raw.policies)) {
    const strict = typeof raw.version === 'string' && strictPolicyAttributes(raw.version);
    for (const [name, text] of Object.entries(raw.policies)) {
      if (typeof text !== 'string') continue;
      const read = readPolicy(text, strict);
      if (!read.ok) ctx.addIssue({ code: 'custom', path: ['policies', name], message: `the policy cannot be read: ${read.error}` });
    }
  }
  if (isPlainObject(raw.tokens)) {
    const roles = isPlainObject(raw.roles) ? Object.keys(raw.roles) : [];
    for (const [name, token] of Object.entries(raw.tokens)) {
      if (!isPlainObject(token) || typeof token.role !== 'string' || roles.includes(token.role)) continue;
      ctx.addIssue({ code: 'custom', path: ['tokens', name, 'role'], message: `role "${token.role}" is not among this cluster's roles${roles.length ? ` (${quoteList(roles)})${hint(token.role, roles)}` : ': declare it under roles'}` });
    }
  }
  if (isPlainObject(raw.tokens)) {
    const declared = Array.isArray(raw.namespaces)
      ? raw.namespaces.filter((n): n is string => typeof n === 'string').map(stripTrailingSlash)
      : [];
    for (const [name, token] of Object.entries(raw.tokens)) {
      if (!isPlainObject(token) || typeof token.namespace !== 'string' || token.namespace === '') continue;
      const namespace = stripTrailingSlash(token.namespace);
      if (declared.includes(namespace)) continue;
      ctx.addIssue({
        code: 'custom',
        path: ['tokens', name, 'namespace'],
        message:
          declared.length === 0
            ? `namespace "${namespace}" is not declared: add it to this cluster's namespaces`
            : `namespace "${namespace}" is not among this cluster's namespaces (${quoteList(declared)})${hint(namespace, declared)}`,
      });
    }
  }
  return raw;
}

const ClusterSchema = z.preprocess(
  checkClusterRules,
  strictObject('a cluster', {
    version: VersionSchema.default('1.16.0'),
    license: z.enum(LICENSES).default('enterprise'),
    keyShares: z.number().int().min(1).max(255).default(5).describe('Root key shares made at initialisation.'),
    keyThreshold: z.number().int().min(1).max(255).default(3).describe('Shares needed to rebuild the root key; at most keyShares.'),
    namespaces: z
      .array(NamespaceSchema)
      .default([])
      .superRefine((namespaces, ctx) => {
        namespaces.forEach((namespace, i) => {
          if (namespaces.indexOf(namespace) !== i) {
            ctx.addIssue({ code: 'custom', path: [i], message: `namespace "${namespace}" is declared twice` });
          }
        });
      }),
    mounts: z
      .record(z.string().regex(MOUNT_PATH, { message: 'a mount path is like secret or team-a/apps: no spaces, no leading "/"' }), MountSchema)
      // A prefault, not a default: it is parsed like a written value, so the shorthand is expanded.
      .prefault({ secret: 'kv-v2' })
      .describe('Mount path -> kv-v2 | kv-v1 | { type, local }; a path inside a declared namespace mounts there.'),
    tokens: z
      .record(
        z.string().regex(TOKEN_NAME, { message: 'a token name is letters, digits, "_" and "-", and not root or none (those are built in)' }),
        TokenSchema,
      )
      .default({})
      .describe('Token name -> namespace and policy; `root` always exists.'),
    policies: z.record(z.string().regex(TOKEN_NAME, { message: 'a policy name is letters, digits, "_" and "-", and not root or none' }), PolicySchema).optional().describe('Named ACL policies the cluster starts with.'),
    roles: z.record(z.string().regex(TOKEN_NAME, { message: 'a role name is letters, digits, "_" and "-"' }), RoleSchema).optional().describe('Token roles the cluster starts with.'),
    enableUnauthenticatedAccess: z
      .array(z.enum(UNAUTHENTICATED_FAMILIES))
      .optional()
      .describe('The server configuration\'s enable_unauthenticated_access (2.x): endpoint families served without a token again.'),
  }),
);

// ---------------------------------------------------------------------------------------------------
// Steps

const StepName = z.string().min(1).describe('Shown in narration and reports.');
const ClusterRef = z.string(); // existence is checked against `clusters` by checkReferences
const VariableName = z.string().regex(VARIABLE_NAME, {
  message: 'a variable name is letters, digits, "_" and "-", starting with a letter or "_" (dotted names are built in)',
});

// Regular expressions in expectations are compiled now, so a typo fails at load and not mid-run. Strings
// with `${var}` are compiled after interpolation, by the runner.
function checkRegexes(value: unknown, ctx: z.RefinementCtx, path: (string | number)[] = []): void {
  if (typeof value === 'string') {
    const literal = value.includes('${') ? undefined : parseRegexLiteral(value);
    if (literal && 'error' in literal) ctx.addIssue({ code: 'custom', path, message: literal.error });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => checkRegexes(item, ctx, [...path, i]));
  } else if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) checkRegexes(item, ctx, [...path, key]);
  }
}

// The message depends on what was written, so it comes from the string's own error map.
function requestLineMessage(line: string): string {
  const [method = '', ...rest] = line.trim().split(/\s+/);
  const path = rest.join(' ');
  const upper = method.toUpperCase();
  if ((HTTP_METHODS as readonly string[]).includes(upper) && upper !== method) return `write the method in capitals: "${upper} ${path}"`;
  if (!(HTTP_METHODS as readonly string[]).includes(upper)) {
    return `a request is "METHOD path" with METHOD one of ${HTTP_METHODS.join(', ')}; "${method}" is not one${hint(upper, HTTP_METHODS)}`;
  }
  if (path === '') return `the request "${line}" has no path: write "${method} sys/..."`;
  return `a request is "METHOD path", one space apart, the path without spaces, like "POST sys/replication/dr/primary/enable"`;
}

const RequestLineSchema = z
  .string()
  .regex(REQUEST_LINE, { abort: true, error: (issue) => (typeof issue.input === 'string' ? requestLineMessage(issue.input) : undefined) })
  .transform((line, ctx) => {
    const [, method, written] = REQUEST_LINE.exec(line) as RegExpExecArray;
    // The file may copy a path from the docs (`/v1/sys/...`) or from curl (`/sys/...`).
    const path = written.startsWith('/v1/') ? written.slice(4) : written.startsWith('/') ? written.slice(1) : written;
    if (path === '') {
      ctx.addIssue({ code: 'custom', message: `the request "${line}" has no path` });
      return z.NEVER;
    }
    return { method: method as HttpMethod, path };
  });

const RequestExpectationSchema = strictObject('a request expectation', {
  status: z.number().int().min(100).max(599).optional().describe('Exact status code.'),
  error: z.string().min(1).optional().describe('A substring of one of the `errors` strings, or /regex/flags.'),
  body: z.record(z.string(), z.unknown()).optional().describe('Partial deep match on the whole response body.'),
  data: z.unknown().optional().describe('Shorthand for body: { data: ... }.'),
}).superRefine((expectation, ctx) => checkRegexes(expectation, ctx));

const RequestStepSchema = strictObject('a request step', {
  request: RequestLineSchema.describe('"METHOD path", e.g. "POST sys/replication/dr/primary/enable".'),
  name: StepName.optional(),
  on: ClusterRef.describe('The cluster that receives the request.'),
  body: z.record(z.string(), z.unknown()).optional(),
  token: z.string().min(1).default('root').describe('A token name, root, none, or "${var}".'),
  namespace: z.string().optional().describe('As the X-Vault-Namespace header.'),
  expect: RequestExpectationSchema.optional(),
  save: z.record(VariableName, z.string().regex(DOTTED_PATH, { message: 'a dotted path into the response body, like wrap_info.token or keys.0' })).default({}),
}).transform(({ request, ...rest }): RequestStep => ({ kind: 'request', method: request.method, path: request.path, ...rest }));

const DecodeTokenStepSchema = strictObject('a decode-token step', {
  'decode-token': z.string().min(1).describe('The encoded operation token, usually "${var}".'),
  name: StepName.optional(),
  otp: z.string().min(1),
  save: VariableName.optional().describe('The variable that receives the decoded token.'),
}).transform(({ 'decode-token': token, ...rest }): DecodeTokenStep => ({ kind: 'decode-token', token, ...rest }));

// A number is let through to the transform only so that `wait: 10` is told which units to add.
const DurationSchema = unionOf('a duration like 500ms, 10s, 31m or 2h', [z.number(), z.string()]).transform((written, ctx) => {
    const parsed = tryParseDuration(written);
    if (parsed.ok) return parsed.ms;
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  });

const WaitStepSchema = strictObject('a wait step', {
  wait: DurationSchema.describe('Advance the virtual clock by a duration with its unit: 500ms, 10s, 31m, 2h, 1h30m.'),
  name: StepName.optional(),
}).transform(({ wait, ...rest }): WaitStep => ({ kind: 'wait', ms: wait, ...rest }));

const GroupsSchema = unionOf('two cluster names [a, b] or a list of groups [[a], [b, c]]', [z.tuple([ClusterRef, ClusterRef]), z.array(z.array(ClusterRef).min(1)).min(2)])
  .transform((written): string[][] => (written.every((item) => typeof item === 'string') ? written.map((name) => [name as string]) : (written as string[][])))
  .superRefine((groups, ctx) => {
    const seen = new Set<string>();
    for (const name of groups.flat()) {
      if (seen.has(name)) ctx.addIssue({ code: 'custom', message: `cluster "${name}" is named twice: groups must not overlap` });
      seen.add(name);
    }
  });

const PartitionStepSchema = strictObject('a partition step', {
  partition: GroupsSchema.describe('Cut links: [a, b], or between groups [[a], [b, c]].'),
  name: StepName.optional(),
}).transform(({ partition, ...rest }): PartitionStep => ({ kind: 'partition', groups: partition, ...rest }));

const SlowStepSchema = strictObject('a slow step', {
  slow: strictObject('slow', {
    link: z
      .tuple([ClusterRef, ClusterRef])
      .refine(([a, b]) => a !== b, { message: 'a link joins two different clusters' })
      .describe('The two clusters the link joins: [a, b].'),
    latency: DurationSchema.refine((ms) => ms >= 1, { message: 'a latency is at least 1ms' }).describe("The link's one-way latency while slowed, with its unit: 500ms, 2s."),
  }).describe('Slow the link between two clusters until a heal restores it: { link: [a, b], latency: 2s }.'),
  name: StepName.optional(),
}).transform(({ slow, ...rest }): SlowStep => ({ kind: 'slow', link: slow.link, latencyMs: slow.latency, ...rest }));

const HealStepSchema = strictObject('a heal step', {
  heal: unionOf('all, two cluster names [a, b] or a list of groups [[a], [b, c]]', [z.literal('all'), GroupsSchema])
    .describe('Restore links, cut or slowed: [a, b], groups, or all.'),
  name: StepName.optional(),
}).transform(({ heal, ...rest }): HealStep => ({ kind: 'heal', groups: heal, ...rest }));

const CrashStepSchema = strictObject('a crash step', {
  crash: ClusterRef.describe('The cluster that stops; its storage is kept.'),
  name: StepName.optional(),
}).transform(({ crash, ...rest }): CrashStep => ({ kind: 'crash', cluster: crash, ...rest }));

const RestartStepSchema = strictObject('a restart step', {
  restart: ClusterRef.describe('The crashed cluster that comes back.'),
  name: StepName.optional(),
}).transform(({ restart, ...rest }): RestartStep => ({ kind: 'restart', cluster: restart, ...rest }));

/** A step an area declares (src/areas/core/steps.ts), made of the schema's own building blocks. */
function areaStepSchema(declared: StepDeclaration): z.ZodType<AreaStep, unknown> {
  const { action } = declared;
  const content = declared.content({ strictObject, clusterRef: ClusterRef }).describe(declared.describe);
  const shape: Record<string, z.ZodType> = { [action]: content, name: StepName.optional() };
  if (declared.inspects) shape.expect = z.record(z.string(), z.unknown()).superRefine((expectation, ctx) => checkRegexes(expectation, ctx)).optional().describe(declared.inspects);
  return strictObject(`${/^[aeiou]/.test(action) ? 'an' : 'a'} ${action} step`, shape).transform(
    ({ [action]: given, ...rest }) => ({ kind: action, ...declared.fields(given), ...rest }) as AreaStep,
  );
}

const AREA_STEP_SCHEMAS = new Map([...AREA_STEPS.values()].map((declared) => [declared.action, areaStepSchema(declared)]));

const STEP_SCHEMAS: Record<StepAction, z.ZodType> = {
  request: RequestStepSchema,
  'decode-token': DecodeTokenStepSchema,
  wait: WaitStepSchema,
  partition: PartitionStepSchema,
  slow: SlowStepSchema,
  heal: HealStepSchema,
  crash: CrashStepSchema,
  restart: RestartStepSchema,
  ...(Object.fromEntries(AREA_STEP_SCHEMAS) as Record<AreaStepAction, z.ZodType>),
};

// Every key any step may carry: a key outside this set, on a step without an action, is likely a
// misspelt action ("reqest"); a key inside it ("on") is not.
const ANY_STEP_KEY = new Set<string>([...STEP_ACTIONS, 'name', 'on', 'body', 'token', 'namespace', 'expect', 'save', 'otp']);

function isStepAction(key: string): key is StepAction {
  return (STEP_ACTIONS as readonly string[]).includes(key);
}

function dispatchStep(value: unknown, ctx: z.RefinementCtx): unknown {
  if (!isPlainObject(value)) {
    ctx.addIssue({
      code: 'custom',
      fatal: true,
      message: `a step is a map with one action key (${STEP_ACTIONS.join(', ')}), like "wait: 10s"; got ${show(value)}`,
    });
    return value;
  }
  const keys = Object.keys(value);
  const actions = keys.filter(isStepAction);
  if (actions.length > 1) {
    ctx.addIssue({
      code: 'custom',
      fatal: true,
      path: [actions[1]],
      message: `a step has exactly one action, this one has ${actions.join(' and ')}: make them separate steps`,
    });
    return value;
  }
  if (actions.length === 0) {
    const misspelt = keys.filter((key) => !ANY_STEP_KEY.has(key) && didYouMean(key, STEP_ACTIONS) !== undefined);
    for (const key of misspelt) {
      ctx.addIssue({ code: 'unrecognized_keys', keys: [key], input: value, fatal: true, path: [key], message: unknownKeyMessage(key, 'a step', STEP_ACTIONS) });
    }
    if (misspelt.length === 0) {
      ctx.addIssue({ code: 'custom', fatal: true, message: `a step needs one action key: ${STEP_ACTIONS.join(', ')}` });
    }
    return value;
  }
  const parsed = STEP_SCHEMAS[actions[0]].safeParse(value, { error: scenarioErrorMap });
  if (!parsed.success) forwardIssues(ctx, parsed.error);
  return value;
}

const StepSchema = z.preprocess(
  dispatchStep,
  z.union([
    RequestStepSchema,
    DecodeTokenStepSchema,
    WaitStepSchema,
    PartitionStepSchema,
    SlowStepSchema,
    HealStepSchema,
    CrashStepSchema,
    RestartStepSchema,
    ...AREA_STEP_SCHEMAS.values(),
  ]),
);

// ---------------------------------------------------------------------------------------------------
// The scenario

const HazardExpectSchema = strictObject('expect', { hazard: z.enum(HAZARD_IDS) });
/** Several hazards that arise together (a forced promotion that loses writes is both forced-promotion and lost-writes). */
const HazardsExpectSchema = strictObject('expect', { hazards: z.array(z.enum(HAZARD_IDS)).min(1) });
const ViolationExpectSchema = strictObject('expect', { violation: z.enum(INVARIANT_IDS) });
const EXPECT_FORMS = 'pass, { hazard: <id> }, { hazards: [<id>, ...] } or { violation: <id> }';

function dispatchExpect(value: unknown, ctx: z.RefinementCtx): unknown {
  if (value === 'pass') return value;
  if (typeof value === 'string') {
    // `expect: two-primaries` is a likely slip for the map form: say which one.
    const asHazard = (HAZARD_IDS as readonly string[]).includes(value) ? `: did you mean { hazard: ${value} }?` : '';
    const asViolation = (INVARIANT_IDS as readonly string[]).includes(value) ? `: did you mean { violation: ${value} }?` : '';
    ctx.addIssue({ code: 'custom', fatal: true, message: `expected ${EXPECT_FORMS}, got ${show(value)}${asHazard || asViolation || hint(value, ['pass'])}` });
    return value;
  }
  if (!isPlainObject(value)) {
    ctx.addIssue({ code: 'custom', fatal: true, message: `expected ${EXPECT_FORMS}, got ${show(value)}` });
    return value;
  }
  const forms = Object.keys(value).filter((key) => key === 'hazard' || key === 'hazards' || key === 'violation');
  if (forms.length !== 1) {
    ctx.addIssue({
      code: 'custom',
      fatal: true,
      message: forms.length === 0 ? `expected ${EXPECT_FORMS}, got ${show(value)}` : 'expect names a hazard or a violation, not both',
    });
    return value;
  }
  const parsed = (forms[0] === 'hazard' ? HazardExpectSchema : forms[0] === 'hazards' ? HazardsExpectSchema : ViolationExpectSchema).safeParse(value, { error: scenarioErrorMap });
  if (!parsed.success) forwardIssues(ctx, parsed.error);
  return value;
}

const ExpectSchema = z
  .preprocess(dispatchExpect, z.union([z.literal('pass'), HazardExpectSchema, HazardsExpectSchema, ViolationExpectSchema]))
  .default('pass')
  .describe('pass (no hazard, no violation), { hazard: <id> }, { hazards: [<id>, ...] } (each arises, no other) or { violation: <id> }.');

// References between parts of the file (a step's cluster, a request's token) are checked on the file's
// own values, before the parts are parsed, so a misnamed cluster is reported along with every other error.
function checkReferences(raw: unknown, ctx: z.RefinementCtx): unknown {
  if (!isPlainObject(raw) || !isPlainObject(raw.clusters) || !Array.isArray(raw.steps)) return raw;
  const clusters = Object.keys(raw.clusters);
  const tokens = new Set<string>();
  for (const cluster of Object.values(raw.clusters)) {
    if (isPlainObject(cluster) && isPlainObject(cluster.tokens)) for (const name of Object.keys(cluster.tokens)) tokens.add(name);
  }
  const checkClusterName = (name: unknown, path: (string | number)[]) => {
    if (typeof name !== 'string' || clusters.includes(name)) return;
    ctx.addIssue({
      code: 'custom',
      path,
      message: `unknown cluster ${show(name)}: the clusters are ${quoteList(clusters)}${hint(name, clusters)}`,
    });
  };
  // A partition or heal may also name an external store (`codehost/gh1`): the network path between
  // a cluster and a store can be cut. Whether the store exists is known only when the step runs.
  const checkNode = (name: unknown, path: (string | number)[]) => {
    if (typeof name === 'string' && name.includes('/')) {
      if (!isStoreRef(name)) ctx.addIssue({ code: 'custom', path, message: `"${name}" is neither a cluster nor a store: ${STORE_REF_HELP}` });
      return;
    }
    checkClusterName(name, path);
  };
  const checkGroups = (groups: unknown, path: (string | number)[]) => {
    if (!Array.isArray(groups)) return;
    groups.forEach((group, i) => {
      if (Array.isArray(group)) group.forEach((name, j) => checkNode(name, [...path, i, j]));
      else checkNode(group, [...path, i]);
    });
  };
  raw.steps.forEach((step, i) => {
    if (!isPlainObject(step)) return;
    const actions = Object.keys(step).filter(isStepAction);
    if (actions.length !== 1) return;
    const action = actions[0];
    const at = (...rest: (string | number)[]) => ['steps', i, ...rest];
    switch (action) {
      case 'request': {
        checkClusterName(step.on, at('on'));
        const token = step.token;
        if (typeof token === 'string' && token !== 'root' && token !== 'none' && !token.includes('${') && !tokens.has(token)) {
          const known = [...tokens];
          ctx.addIssue({
            code: 'custom',
            path: at('token'),
            message:
              `unknown token ${show(token)}: use root, none, "\${var}" or a token declared under a cluster's tokens ` +
              `(${known.length === 0 ? 'none are declared' : `declared: ${known.join(', ')}`})${hint(token, ['root', 'none', ...known])}`,
          });
        }
        break;
      }
      case 'crash':
      case 'restart':
        checkClusterName(step[action], at(action));
        break;
      case 'partition':
      case 'heal':
        checkGroups(step[action], at(action));
        break;
      case 'slow': {
        const slow = step[action];
        if (isPlainObject(slow) && Array.isArray(slow.link)) slow.link.forEach((name, j) => checkClusterName(name, at(action, 'link', j)));
        break;
      }
      case 'wait':
      case 'decode-token':
        break;
      default: {
        const key = AREA_STEPS.get(action)?.clusterKey;
        const target = step[action];
        if (key !== undefined && isPlainObject(target)) checkClusterName(target[key], at(action, key));
      }
    }
  });
  return raw;
}

/** The scenario file, format 1: validates, normalises (steps get a `kind`) and types a parsed YAML value. */
export const ScenarioSchema = z.preprocess(
  checkReferences,
  strictObject('a scenario', {
    name: z.string().min(1).describe('The scenario title.'),
    description: z.string().optional().describe('Shown in narration and reports.'),
    seed: z.number().int().default(1).describe('Seed of the world\'s random generator.'),
    expect: ExpectSchema,
    clusters: z
      .record(z.string().regex(CLUSTER_NAME, { message: 'a cluster name is lower-case letters, digits and "-", starting with a letter' }), ClusterSchema)
      .superRefine((clusters, ctx) => {
        if (Object.keys(clusters).length === 0) ctx.addIssue({ code: 'custom', message: 'declare at least one cluster, like "east: {}"' });
      })
      .describe('Cluster name -> settings; every cluster starts initialised, unsealed, replication disabled.'),
    steps: z.array(StepSchema).describe('Each step is a map with exactly one action key.'),
  }),
);

/** A parsed, normalised scenario. */
export type Scenario = z.output<typeof ScenarioSchema>;
/** One cluster's settings, defaults filled in. */
export type ClusterSpec = Scenario['clusters'][string];
/** One mount, `kv-v2` shorthand expanded to `{ type: 'kv-v2', local: false }`. */
export type MountSpec = ClusterSpec['mounts'][string];
/** One declared token. */
export type TokenSpec = ClusterSpec['tokens'][string];
/** What the whole run should show. */
export type ScenarioExpectation = Scenario['expect'];

/** Steps and how many: an array, or a file's steps read again from its text as they are iterated (loader.ts). */
export type StepSequence = Iterable<Step> & { readonly length: number };

/** A scenario whose steps may be read as the run goes rather than held. */
export type ScenarioOfSteps = Omit<Scenario, 'steps'> & { steps: StepSequence };

/** Validates a parsed YAML value with the scenario's own messages; never throws. */
export function parseScenario(data: unknown): z.ZodSafeParseResult<Scenario> {
  const parsed = ScenarioSchema.safeParse(data, { error: scenarioErrorMap });
  if (parsed.success) return parsed;
  // One message per value where zod gives two: zod measures a value's length even when its type is
  // wrong (`name: []` is also "too short"), and checks an integer's safe range besides its field's
  // own (`status: 1e300` is above 2^53 and above 599). The type, or the field's own range, is kept.
  const at = (issue: z.core.$ZodIssue) => issue.path.join('\0');
  const mistyped = new Set(parsed.error.issues.filter((i) => i.code === 'invalid_type').map(at));
  const ranged = new Set(parsed.error.issues.filter((i) => (i.code === 'too_small' || i.code === 'too_big') && i.origin !== 'int').map(at));
  const issues = parsed.error.issues.filter(
    (i) => !((i.code === 'too_small' || i.code === 'too_big') && (mistyped.has(at(i)) || (i.origin === 'int' && ranged.has(at(i))))),
  );
  return issues.length === parsed.error.issues.length ? parsed : { success: false, error: new z.ZodError(issues) as z.ZodError<Scenario>, data: undefined };
}

// zod leaves out two things an editor should know: the default of a key whose value is read in
// more than one form (a preprocess: `expect`, a token's `namespace`), and that a pair ([a, b]) has
// exactly two items. Both are put back as the schema is written.
function keepDefaultsAndLengths({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodTypes; jsonSchema: z.core.JSONSchema.BaseSchema }): void {
  const def = zodSchema._zod.def;
  if (def.type === 'default') jsonSchema.default ??= JSON.parse(JSON.stringify(def.defaultValue));
  if (def.type === 'tuple' && def.rest === null) jsonSchema.minItems = jsonSchema.maxItems = def.items.length;
}

/** The JSON Schema of the file format, for editors; `scenarios/schema.json` is this, written by write-schema.ts. */
export function scenarioJsonSchema(): Record<string, unknown> {
  // The input side: what a file may hold, before defaults and shorthands are filled in and expanded.
  const { $schema, ...rest } = z.toJSONSchema(ScenarioSchema, { io: 'input', target: 'draft-7', unrepresentable: 'any', override: keepDefaultsAndLengths });
  return {
    $schema,
    title: 'replsim scenario, format 1',
    description: 'A world of clusters and the steps that drive it. Generated from src/scenario/schema.ts: do not edit.',
    ...rest,
  };
}

/** The text of `scenarios/schema.json`: the JSON Schema, two-space indented, with a final newline. */
export function renderScenarioJsonSchema(): string {
  return `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`;
}
