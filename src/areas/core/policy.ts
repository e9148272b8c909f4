// ACL evaluation for a token: which capabilities its policy grants on a path. Paths in a policy
// are relative to the token's namespace; a trailing `*` is a prefix glob and `+` matches one path
// segment, as in the service. When several rules match, the most specific wins (exact, then the
// longest literal prefix, then the fewest `+`), and `deny` on the winner refuses everything.
import type { AclPolicy, Capability, Policy, TokenEntry } from './state.js';
import { memoBounded, memoOnObject } from '../../kernel/memo.js';

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
  /** The capabilities it grants on a path: the paths a run asks about are few; the most recent 256 are kept. */
  answers: (path: string) => ReadonlySet<Capability>;
}

const NONE: ReadonlySet<Capability> = new Set();
const EVERY: ReadonlySet<Capability> = new Set(ALL);
/** Policies are frozen state shared between states, so what is worked out for one lives as long as it does. */
const compile = memoOnObject((policy: Policy): CompiledPolicy => {
  const rules = Object.keys(policy).map((rule) => {
    const caps = policy[rule];
    return { rule, specificity: specificity(rule), caps: caps.includes('deny') ? NONE : new Set(caps) };
  });
  return { rules, answers: memoBounded((path: string) => bestRule(rules, path)?.caps ?? NONE, 256) };
});

/**
 * The service's built-in `default` policy, attached to every token unless it is created with
 * `no_default_policy`: what a token needs to look itself up, renew and revoke itself, and ask its
 * own capabilities (the parts of it replsim serves or may serve).
 */
export const DEFAULT_POLICY: Policy = Object.freeze({
  'auth/token/lookup-self': ['read'],
  'auth/token/renew-self': ['update'],
  'auth/token/revoke-self': ['update'],
  'sys/capabilities-self': ['update'],
  'sys/wrapping/lookup': ['update'],
  'sys/wrapping/unwrap': ['update'],
  'sys/wrapping/wrap': ['update'],
}) as Policy;

/**
 * One policy made of several (a token's inline rules and its named policies): the rules of each
 * path added up, and `deny` kept wherever any of them denies, as the service merges a token's
 * policies into one ACL.
 */
function merged(parts: readonly Policy[]): Policy {
  const out: Policy = {};
  for (const p of parts)
    for (const [rule, caps] of Object.entries(p)) {
      const before = Object.prototype.hasOwnProperty.call(out, rule) ? out[rule] : [];
      Object.defineProperty(out, rule, { value: [...before, ...caps.filter((c) => !before.includes(c))], enumerable: true, writable: true, configurable: true });
    }
  return out;
}

/** A token's whole policy, by the token and the named policies it was resolved against. */
const policyOf = memoOnObject((token: TokenEntry, named: Readonly<Record<string, AclPolicy>> | undefined): Policy | 'root' => {
  if (token.policy === 'root' || token.policies === undefined) return token.policy;
  if (token.policies.includes('root')) return 'root';
  const parts: Policy[] = [token.policy];
  for (const name of token.policies) {
    if (name === 'default') parts.push(DEFAULT_POLICY);
    else if (named && Object.prototype.hasOwnProperty.call(named, name)) parts.push(named[name].rules);
    // A name no policy has grants nothing, as on the service.
  }
  return merged(parts);
});

/**
 * The capabilities a token has on a path (relative to the root namespace). `named` are the ACL
 * policies of the cluster checking the token, which its policy names are resolved against.
 */
export function capabilitiesOf(token: TokenEntry, fullPath: string, named?: Readonly<Record<string, AclPolicy>>): ReadonlySet<Capability> {
  const whole = policyOf(token, named);
  if (whole === 'root') return EVERY;
  // A token only reaches paths in its own namespace and below.
  if (!fullPath.startsWith(token.namespace)) return NONE;
  const path = fullPath.slice(token.namespace.length);
  return compile(whole).answers(path);
}

/** The most specific rule matching the path; the first of equals, in the policy's order. */
function bestRule(rules: CompiledPolicy['rules'], path: string): CompiledPolicy['rules'][number] | null {
  let best: CompiledPolicy['rules'][number] | null = null;
  for (const r of rules) {
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

/**
 * The named ACL policies of a namespace (`""` is the root namespace): a token's policy names are
 * resolved in its own namespace, as the service does.
 */
export function aclPoliciesIn(storage: { policies?: Record<string, AclPolicy>; namespacePolicies?: Record<string, Record<string, AclPolicy>> }, namespace: string): Readonly<Record<string, AclPolicy>> | undefined {
  if (namespace === '') return storage.policies;
  const all = storage.namespacePolicies;
  return all && Object.prototype.hasOwnProperty.call(all, namespace) ? all[namespace] : undefined;
}
