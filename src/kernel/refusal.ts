// Refusals are data. Every way the simulated service can refuse a request is registered here once,
// by the module that owns the rule: a code, the HTTP status, the service's text (from
// the project's notes on the real service (docs/rules.md names each rule), or replsim's own wording where the facts have a gap, marked
// `wording: 'simulator'`), and the rule of the spec it applies, by its id (`A.rule3`,
// `role-table.promote`, `auth.4`) and in the spec's words for people.
//
// A handler returns a refusal value (the code and its parameters, see `Refused` in http.ts); the
// router renders the text and status from this registry (`render`), and narration, results.json and
// the report read the code. A refusal value can only be made by a registered definition: the code's
// type is branded, so a handler cannot return an unregistered error (the type checker refuses it).

/** The spec rule a refusal applies. */
export interface SpecRule {
  /** Where the rule is in the spec: `auth.2`, `A.rule3`, `role-table.promote`, `D.errors`… */
  id: string;
  /** The rule in the spec's words, as narration prints it under a refused request. */
  words: string;
}

declare const registered: unique symbol;
/** A registered refusal's code, e.g. `replication.must-promote`. Only `defineRefusals` makes one. */
export type RefusalCode = string & { readonly [registered]: true };

/** The parameters a refusal's text is made from (names, counts, the text of a nested failure). */
export type RefusalParams = readonly (string | number | readonly string[])[];

export interface RefusalSpec<P extends RefusalParams> {
  /** The HTTP status; a function where the status depends on the parameters. */
  status: number | ((...p: P) => number);
  /** The `errors` of the response body (the service answers some 404s with an empty list). */
  text: (...p: P) => string[];
  /** Whose words `text` is: the service's (facts file, issues, docs), or replsim's where they are not public. */
  wording: 'service' | 'simulator';
  rule: SpecRule;
}

export interface RefusalDef<P extends RefusalParams = RefusalParams> extends RefusalSpec<P> {
  code: RefusalCode;
}

/** What a handler returns to refuse: the code and parameters; `render` makes the text. */
export interface Refused {
  kind: 'error';
  code: RefusalCode;
  params: RefusalParams;
}

const registry = new Map<string, RefusalDef<any>>();

/**
 * Registers an area's refusals under `area.key` and returns one constructor per refusal. A code is
 * registered once: a second definition of the same code is a programming error.
 */
export function defineRefusals<const T extends Record<string, RefusalSpec<any>>>(
  area: string,
  specs: T,
): { [K in keyof T]: T[K] extends RefusalSpec<infer P> ? (...p: P) => Refused : never } {
  const out: Record<string, (...p: RefusalParams) => Refused> = {};
  for (const [key, spec] of Object.entries(specs)) {
    const code = `${area}.${key}` as RefusalCode;
    if (registry.has(code)) throw new Error(`refusal ${code} is registered twice`);
    registry.set(code, { ...spec, code });
    out[key] = (...params) => ({ kind: 'error', code, params });
  }
  return out as never;
}

/** The registered definition of a code (undefined for a code nobody registered). */
export function refusalDef(code: string): RefusalDef | undefined {
  return registry.get(code);
}

/** Every registered refusal, in registration order (for the docs and the registry's own test). */
export function registeredRefusals(): RefusalDef[] {
  return [...registry.values()];
}

/** A refusal's status and error texts, as the service answers it. */
export function refusalResponse(r: Refused): { status: number; errors: string[] } {
  const def = registry.get(r.code);
  if (!def) throw new Error(`unregistered refusal code ${r.code}`);
  const status = typeof def.status === 'function' ? def.status(...r.params) : def.status;
  return { status, errors: def.text(...r.params) };
}

/** What narration, results.json and the report say about a refusal: its code and the spec rule. */
export interface RefusalExplanation {
  code: string;
  rule: string;
  words: string;
}

export function explainRefusal(r: Refused): RefusalExplanation {
  const def = registry.get(r.code);
  if (!def) throw new Error(`unregistered refusal code ${r.code}`);
  return { code: def.code, rule: def.rule.id, words: def.rule.words };
}
