// `${name}` variables in scenario files: replacing them while a run goes, and checking before it starts
// that every one will be known when its step runs (a typo found at step 40 wastes a whole run).
import type { Locate, ScenarioError, ScenarioPath } from './errors.js';
import { didYouMean, type Scenario, type Step } from './schema.js';
import { quoteName } from '../kernel/suggest.js';

/** Variable values by name: built-ins (`east.root_token`) and saved ones (`westToken`). */
export type Variables = ReadonlyMap<string, unknown> | Readonly<Record<string, unknown>>;

/** A value with its variables replaced, or the first unknown variable and where it was (dotted path). */
export type Interpolated<T = unknown> =
  | { ok: true; value: T }
  | { ok: false; variable: string; path: string; message: string };

/** One `${name}` found in a value, with the path of the string (or map key) that holds it. */
export interface VariableReference {
  name: string;
  path: (string | number)[];
}

const REFERENCE = /\$\{([^}]*)\}/g;
const WHOLE_REFERENCE = /^\$\{([^}]*)\}$/;

/** Replaces `${name}` in every string (and map key) of a value; a string that is exactly `${name}` takes the value as it is. */
export function interpolate(value: unknown, variables: Variables): Interpolated {
  return replaceIn(value, variables, '');
}

/** Replaces `${name}` in one string, always giving a string (a non-string value is written out as JSON). */
export function interpolateString(text: string, variables: Variables): Interpolated<string> {
  return replaceText(text, variables, '');
}

/** Every variable name a value refers to, each once, in the order they first appear. */
export function collectVariables(value: unknown): string[] {
  return [...new Set(collectReferences(value).map((reference) => reference.name))];
}

/** Every `${name}` in a value, with where each is; names are trimmed, an empty `${}` gives "". */
export function collectReferences(value: unknown, at: (string | number)[] = []): VariableReference[] {
  if (typeof value === 'string') return namesIn(value).map((name) => ({ name, path: at }));
  if (Array.isArray(value)) return value.flatMap((item, i) => collectReferences(item, [...at, i]));
  if (isPlainObject(value)) {
    return Object.entries(value).flatMap(([key, item]) => [
      ...namesIn(key).map((name) => ({ name, path: [...at, key] })),
      ...collectReferences(item, [...at, key]),
    ]);
  }
  return [];
}

/** The built-in variable names of a scenario: `<cluster>.root_token`, `<cluster>.keys.<i>`, `<cluster>.api_addr`, `<cluster>.cluster_addr`. */
export function builtinVariableNames(scenario: Pick<Scenario, 'clusters'>): string[] {
  return Object.entries(scenario.clusters).flatMap(([cluster, spec]) => [
    `${cluster}.root_token`,
    ...Array.from({ length: spec.keyShares }, (_, i) => `${cluster}.keys.${i}`),
    `${cluster}.api_addr`,
    `${cluster}.cluster_addr`,
  ]);
}

/** Where `checkVariables` reports: the file name and, from the loader, the line of a key path. */
export interface VariableCheckOptions {
  file?: string;
  locate?: Locate;
}

/** Reports every variable that is neither built in nor saved by an earlier step (line 0 when no `locate`). */
export function checkVariables(
  scenario: Scenario,
  isBuiltin: (name: string) => boolean = builtinPredicate(scenario),
  options: VariableCheckOptions = {},
): ScenarioError[] {
  const { file = '', locate } = options;
  const errors: ScenarioError[] = [];
  const firstSaver = new Map<string, number>();
  scenario.steps.forEach((step, i) => {
    for (const name of savedBy(step)) if (!firstSaver.has(name)) firstSaver.set(name, i);
  });
  const saved = new Set<string>();
  const candidates = builtinVariableNames(scenario);
  scenario.steps.forEach((step, i) => {
    for (const reference of referencesIn(step)) {
      const name = reference.name;
      if (name !== '' && (isBuiltin(name) || saved.has(name))) continue;
      const path: ScenarioPath = ['steps', i, ...reference.path];
      const where = locate ? locate(path) : { line: 0, column: 0 };
      errors.push({ file, ...where, key: path.join('.'), message: unknownVariableMessage(name, i, scenario, firstSaver, [...saved, ...candidates]) });
    }
    for (const name of savedBy(step)) saved.add(name);
  });
  return errors;
}

function builtinPredicate(scenario: Scenario): (name: string) => boolean {
  const names = new Set(builtinVariableNames(scenario));
  return (name) => names.has(name);
}

function unknownVariableMessage(
  name: string,
  step: number,
  scenario: Scenario,
  firstSaver: ReadonlyMap<string, number>,
  known: readonly string[],
): string {
  if (name === '') return 'empty variable "${}": write a name between the braces';
  const saver = firstSaver.get(name);
  if (saver === step) return `variable "${name}" is saved by this step, after its response: use it from the next step on`;
  if (saver !== undefined) return `variable "${name}" is saved only later, by step ${saver + 1}: move that step before this one`;
  const keyShare = /^(.+)\.keys\.(\d+)$/.exec(name);
  const cluster = keyShare ? scenario.clusters[keyShare[1]] : undefined;
  if (keyShare && cluster) {
    return `variable "${name}": cluster "${keyShare[1]}" has ${cluster.keyShares} key shares, ${keyShare[1]}.keys.0 to ${keyShare[1]}.keys.${cluster.keyShares - 1}`;
  }
  const guess = didYouMean(name, known);
  return (
    `unknown variable ${quoteName(name)}${guess === undefined ? '' : `: did you mean "${guess}"?`}` +
    (guess === undefined
      ? ': variables are <cluster>.root_token, <cluster>.keys.<i>, <cluster>.api_addr, <cluster>.cluster_addr, or saved by an earlier step'
      : '')
  );
}

// The places of a step where the format says `${name}` is replaced, by the key the file wrote them under.
function referencesIn(step: Step): VariableReference[] {
  switch (step.kind) {
    case 'request':
      return [
        ...collectReferences(step.path, ['request']),
        ...collectReferences(step.body, ['body']),
        ...collectReferences(step.token, ['token']),
        ...collectReferences(step.namespace, ['namespace']),
        ...collectReferences(step.expect, ['expect']),
      ];
    case 'decode-token':
      return [...collectReferences(step.token, ['decode-token']), ...collectReferences(step.otp, ['otp'])];
    default:
      return [];
  }
}

/** The variables a step saves (a file checked a chunk of steps at a time carries them to the next chunk). */
export function savedBy(step: Step): string[] {
  if (step.kind === 'request') return Object.keys(step.save);
  if (step.kind === 'decode-token' && step.save !== undefined) return [step.save];
  return [];
}

function namesIn(text: string): string[] {
  return [...text.matchAll(REFERENCE)].map((match) => match[1].trim());
}

function lookup(variables: Variables, name: string): { found: true; value: unknown } | { found: false } {
  if (variables instanceof Map) return variables.has(name) ? { found: true, value: variables.get(name) } : { found: false };
  const record = variables as Readonly<Record<string, unknown>>;
  // Own keys only: a variable called "constructor" must not find Object.prototype's.
  return Object.hasOwn(record, name) ? { found: true, value: record[name] } : { found: false };
}

function unknownVariable(name: string, path: string): Interpolated<never> {
  return {
    ok: false,
    variable: name,
    path,
    message: name === '' ? 'empty variable "${}"' : `unknown variable "${name}"`,
  };
}

function replaceIn(value: unknown, variables: Variables, at: string): Interpolated {
  if (typeof value === 'string') return replaceWhole(value, variables, at);
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      const item = replaceIn(value[i], variables, join(at, String(i)));
      if (!item.ok) return item;
      out.push(item.value);
    }
    return { ok: true, value: out };
  }
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const newKey = replaceText(key, variables, join(at, key));
      if (!newKey.ok) return newKey;
      const newItem = replaceIn(item, variables, join(at, key));
      if (!newItem.ok) return newItem;
      // defineProperty: a key named `__proto__` (a client may send one) stays a plain key of the copy.
      Object.defineProperty(out, newKey.value, { value: newItem.value, enumerable: true, writable: true, configurable: true });
    }
    return { ok: true, value: out };
  }
  return { ok: true, value };
}

function replaceWhole(text: string, variables: Variables, at: string): Interpolated {
  const whole = WHOLE_REFERENCE.exec(text);
  if (!whole) return replaceText(text, variables, at);
  const name = whole[1].trim();
  const found = name === '' ? { found: false as const } : lookup(variables, name);
  return found.found ? { ok: true, value: found.value } : unknownVariable(name, at);
}

function replaceText(text: string, variables: Variables, at: string): Interpolated<string> {
  if (!text.includes('${')) return { ok: true, value: text };
  let missing: string | undefined;
  const value = text.replace(REFERENCE, (match, written: string) => {
    const name = written.trim();
    const found = name === '' ? { found: false as const } : lookup(variables, name);
    if (found.found) return asText(found.value);
    missing ??= name;
    return match;
  });
  return missing === undefined ? { ok: true, value } : unknownVariable(missing, at);
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value) ?? String(value);
}

function join(at: string, key: string): string {
  return at === '' ? key : `${at}.${key}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
