// ACL evaluation for a token: which capabilities its policy grants on a path. Paths in a policy
// are relative to the token's namespace; a trailing `*` is a prefix glob and `+` matches one path
// segment, as in the service. When several rules match, the most specific wins (exact, then the
// longest literal prefix, then the fewest `+`), and `deny` on the winner refuses everything.
import type { Capability, TokenEntry } from './state.js';

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

/** The capabilities a token has on a path (relative to the root namespace). */
export function capabilitiesOf(token: TokenEntry, fullPath: string): Set<Capability> {
  if (token.policy === 'root') return new Set(ALL);
  // A token only reaches paths in its own namespace and below.
  if (!fullPath.startsWith(token.namespace)) return new Set();
  const path = fullPath.slice(token.namespace.length);
  let best: string | null = null;
  for (const rule of Object.keys(token.policy)) {
    if (!ruleMatches(rule, path)) continue;
    if (best === null) best = rule;
    else {
      const a = specificity(rule);
      const b = specificity(best);
      if (a[0] > b[0] || (a[0] === b[0] && (a[1] > b[1] || (a[1] === b[1] && a[2] > b[2])))) best = rule;
    }
  }
  if (best === null) return new Set();
  const caps = token.policy[best];
  return caps.includes('deny') ? new Set() : new Set(caps);
}
