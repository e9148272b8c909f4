// ACL evaluation for a token: which capabilities its policy grants on a path. Paths in a policy
// are relative to the token's namespace; a trailing `*` is a prefix glob and `+` matches one path
// segment, as in the service. When several rules match, the most specific wins (exact, then the
// longest literal prefix, then the fewest `+`), and `deny` on the winner refuses everything.
import type { Capability, Policy, TokenEntry } from './state.js';
import { remember } from '../../kernel/bounded.js';

const ALL: Capability[] = ['create', 'read', 'update', 'delete', 'list', 'patch', 'sudo'];

function ruleMatches(rule: string, path: string): boolean {
  const glob = rule.endsWith('*');
  const body = glob ? rule.slice(0, -1) : rule;
  const ruleParts = body.split('/');
  const pathParts = path.split('/');
  if (!glob && ruleParts.length !== pathParts.length) return false;
  for (let i = 0; i < ruleParts.length; i++) {
    const r = ruleParts[i];
    const p = pathParts[i];
    if (p === undefined) return false;
    const last = i === ruleParts.length - 1;
    if (r === '+') continue;
    if (last && glob) return p.startsWith(r);
    if (r !== p) return false;
  }
  return true;
}

function specificity(rule: string): [number, number, number] {
  const exact = rule.includes('*') || rule.includes('+') ? 0 : 1;
  const literal = rule.replace(/[*+]/g, '').length;
  const plus = (rule.match(/\+/g) ?? []).length;
  return [exact, literal, -plus];
}

/** The rules of a policy, with what choosing between them needs, worked out once per policy. */
interface CompiledPolicy {
  rules: { rule: string; specificity: [number, number, number]; caps: ReadonlySet<Capability> }[];
  /** Answers already given, by path (a policy is immutable state, so an answer never changes). */
  answers: Map<string, ReadonlySet<Capability>>;
}

const NONE: ReadonlySet<Capability> = new Set();
const EVERY: ReadonlySet<Capability> = new Set(ALL);
/** Policies are frozen state shared between states, so what is worked out for one lives as long as it does. */
const compiled = new WeakMap<Policy, CompiledPolicy>();
/** Paths a policy keeps answers for: the paths a run asks about are few; past this the oldest is forgotten. */
const ANSWERS_KEPT = 256;

function compile(policy: Policy): CompiledPolicy {
  let c = compiled.get(policy);
  if (!c) {
    const rules = Object.keys(policy).map((rule) => {
      const caps = policy[rule];
      return { rule, specificity: specificity(rule), caps: caps.includes('deny') ? NONE : new Set(caps) };
    });
    compiled.set(policy, (c = { rules, answers: new Map() }));
  }
  return c;
}

/** The capabilities a token has on a path (relative to the root namespace). */
export function capabilitiesOf(token: TokenEntry, fullPath: string): ReadonlySet<Capability> {
  if (token.policy === 'root') return EVERY;
  // A token only reaches paths in its own namespace and below.
  if (!fullPath.startsWith(token.namespace)) return NONE;
  const path = fullPath.slice(token.namespace.length);
  const policy = compile(token.policy);
  let caps = policy.answers.get(path);
  if (caps === undefined) {
    caps = bestRule(policy, path)?.caps ?? NONE;
    remember(policy.answers, path, caps, ANSWERS_KEPT);
  }
  return caps;
}

/** The most specific rule matching the path; the first of equals, in the policy's order. */
function bestRule(policy: CompiledPolicy, path: string): CompiledPolicy['rules'][number] | null {
  let best: CompiledPolicy['rules'][number] | null = null;
  for (const r of policy.rules) {
    if (!ruleMatches(r.rule, path)) continue;
    if (best === null) best = r;
    else {
      const a = r.specificity;
      const b = best.specificity;
      if (a[0] > b[0] || (a[0] === b[0] && (a[1] > b[1] || (a[1] === b[1] && a[2] > b[2])))) best = r;
    }
  }
  return best;
}
