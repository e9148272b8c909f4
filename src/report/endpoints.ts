// The endpoint reference, generated from the router's own table so that it cannot drift from
// what the simulator serves: every path, method, summary and the authorisation rule it declares.
import type { AuthRule, Route } from '../areas/core/http/route.js';
import type { RouteTable } from '../areas/core/http/routing.js';

function authText(a: AuthRule): string {
  const parts: string[] = [];
  parts.push(a.token === 'client' ? 'client token' : a.token === 'none' ? 'no token' : 'DR operation token');
  if (a.sudo) parts.push('sudo');
  if (a.rootNamespace) parts.push('root namespace');
  if (a.license === 'enterprise') parts.push('enterprise');
  if (a.license === 'enterprise-or-managed') parts.push('enterprise or managed');
  if (a.openOnDrSecondary) parts.push('open on a DR secondary');
  return parts.join(', ');
}

function rows(routes: Route[], prefix = ''): string[] {
  const out: string[] = [];
  for (const r of routes)
    for (const [method, ep] of Object.entries(r.methods)) {
      if (!ep) continue;
      out.push(`| ${method} | \`${prefix}${r.pattern}\` | ${ep.summary} | ${authText(ep.auth)} |`);
    }
  return out;
}

/** docs/endpoints.md, as Markdown. */
export function endpointReference(table: RouteTable): string {
  const lines = [
    '# Endpoints replsim serves',
    '',
    'Generated from the route table by `npx tsx src/report/write-endpoints.ts`; a test fails when it is out of date.',
    'Paths are relative to `/v1/`. `:name` is a path parameter, `*name` the rest of the path. Paths that answer',
    '`501 not implemented in replsim` are listed too, so nothing unbuilt passes for built.',
    '',
    '## System paths',
    '',
    '| method | path | what it does | authorisation |',
    '|---|---|---|---|',
    ...rows(table.sys),
    '',
    '## KV mounts (relative to the mount path)',
    '',
  ];
  for (const [type, routes] of Object.entries(table.mounts)) {
    lines.push(`### ${type}`, '', '| method | path | what it does | authorisation |', '|---|---|---|---|', ...rows(routes, '<mount>/'), '');
  }
  return lines.join('\n');
}
