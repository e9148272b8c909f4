// docs/refusals.md: every registered refusal (kernel/refusal.ts), generated from the registry
// so that it cannot drift: its code, status, whose words the text is, and the spec rule it applies.
import { registeredRefusals } from '../kernel/refusal.js';
import '../world.js'; // registers every area's refusals (each area's refusals.ts, through its routes)

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function refusalReference(): string {
  const lines = [
    '# Refusals',
    '',
    'Generated from the refusal registry (`npx tsx src/report/write-refusals.ts`); do not edit by hand.',
    'Each way replsim refuses a request is registered once, by the module that owns the rule: the code',
    "narration, `results.json` (`rule`) and the report read, the HTTP status, whose words the error text",
    "is (`service`: the facts file or the service's sources; `simulator`: replsim's own wording where they",
    'are not public), and the rule of the spec it applies (`A.rule3`: area A, rule 3; `role-table.promote`:',
    'the role table\'s promote row; `auth.2`: Authentication, rule 2; `facts.*`: the service\'s behaviour',
    'from the facts file, outside the spec; `replsim.*`: the simulator itself).',
    '',
    '| code | status | wording | rule | in the spec\'s words |',
    '|---|---|---|---|---|',
  ];
  for (const d of registeredRefusals()) {
    const status = typeof d.status === 'number' ? String(d.status) : 'varies';
    lines.push(`| \`${d.code}\` | ${status} | ${d.wording} | \`${d.rule.id}\` | ${cell(d.rule.words)} |`);
  }
  return lines.join('\n') + '\n';
}
