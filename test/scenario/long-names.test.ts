// A 40,000-character unknown name in a scenario file (a token, a cluster, a variable) is refused with
// a short error naming the line, and costs no more than reading it: suggestions are length-checked
// and banded (src/kernel/suggest.ts), so no (n+1)² table is built. Speed is measured by the bench
// (serve-long-name); this pins the answer and the bounded message.
import { describe, expect, it } from 'vitest';
import { formatScenarioError, loadScenario } from '../../src/scenario/loader.js';

const long = 'x'.repeat(40_000);

describe('a 40,000-character unknown name in a scenario file', () => {
  it('is refused at its line with the name shortened, for a token, a cluster and a variable', () => {
    const text = [
      'name: long names',
      'clusters:',
      '  east: {}',
      'steps:',
      '  - request: GET sys/health',
      '    on: east',
      `    token: ${long}`,
      `  - crash: ${long}`,
      '',
    ].join('\n');
    const r = loadScenario(text, 'long.yaml');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const printed = r.errors.map(formatScenarioError);
    expect(printed[0]).toMatch(/^long\.yaml:7:\d+: step 1: token: unknown token "x+\.\.\.: use root, none/);
    expect(printed[1]).toMatch(/^long\.yaml:8:\d+: step 2: crash: unknown cluster "x+\.\.\.: the clusters are east$/);
    for (const p of printed) expect(p.length).toBeLessThan(400);
    const variable = loadScenario(`name: v\nclusters:\n  east: {}\nsteps:\n  - request: POST secret/data/a\n    on: east\n    body: { data: { v: "\${${long}}" } }\n`, 'var.yaml');
    expect(variable.ok).toBe(false);
    if (variable.ok) return;
    const message = formatScenarioError(variable.errors[0]);
    expect(message).toMatch(/^var\.yaml:7:\d+: step 1: .*unknown variable "x+\.\.\." \(40000 characters\)/);
    expect(message.length).toBeLessThan(400);
  });

  it('a near miss of a known name still gets its suggestion', () => {
    const r = loadScenario('name: t\nclusters:\n  east: {}\nsteps:\n  - crash: eats\n', 'near.yaml');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(formatScenarioError(r.errors[0])).toMatch(/did you mean "east"\?/);
  });
});
