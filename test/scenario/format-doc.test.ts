// docs/scenario-format.md is the learner's reference for the file format: every key the loader's
// schema accepts (read from the JSON Schema it generates, not from a list kept here) and every step
// action must be documented there, written as code (`key`), so a key added to the schema and not to
// the page fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scenarioJsonSchema, STEP_ACTIONS } from '../../src/scenario/schema.js';

const DOC = readFileSync(new URL('../../docs/scenario-format.md', import.meta.url), 'utf8');

function propertyNames(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) propertyNames(item, into);
  else if (node && typeof node === 'object') {
    const properties = (node as { properties?: Record<string, unknown> }).properties;
    if (properties && typeof properties === 'object') for (const key of Object.keys(properties)) into.add(key);
    for (const value of Object.values(node)) propertyNames(value, into);
  }
  return into;
}

describe('docs/scenario-format.md', () => {
  it('documents every key of the scenario schema', () => {
    const keys = [...propertyNames(scenarioJsonSchema())];
    expect(keys.length).toBeGreaterThan(30);
    // A key is documented where some code span shows it as a key: `key`, or `key: …` inside one.
    const spans = DOC.match(/`[^`\n]+`/g) ?? [];
    const escape = (k: string) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const shown = (k: string) => spans.some((s) => new RegExp('(^`|[\\s{\\[])' + escape(k) + '(`$|:)').test(s));
    const missing = keys.filter((k) => !shown(k));
    expect(missing).toEqual([]);
  });

  it('has a section or table row for every step action', () => {
    const missing = STEP_ACTIONS.filter((a) => !new RegExp('^(### ' + a + '$|\\| `' + a + ':)', 'm').test(DOC));
    expect(missing).toEqual([]);
  });

  it('cites only files of the repository', () => {
    expect(DOC).not.toMatch(/\.\.\/shared/);
  });
});
