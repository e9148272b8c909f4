// docs/rules.md is where a learner's clone looks up a rule the narration, the refusal registry or a
// tutorial cites: it must be current, hold every rule id of docs/refusals.md and every one cited in the
// tutorials, the gallery and the docs, and name only files that exist.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { citedRuleIds } from '../../src/report/rules.js';
import { rulesReference } from '../../src/report/rules-doc.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');
const RULES = read('docs/rules.md');
const listed = new Set([...RULES.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]));

function filesUnder(dir: string, ext: RegExp): string[] {
  return (readdirSync(join(ROOT, dir), { recursive: true }) as string[]).filter((f) => ext.test(f)).map((f) => `${dir}/${f}`);
}

describe('docs/rules.md', () => {
  it('is what src/report/write-rules.ts writes now', () => {
    expect(RULES).toBe(rulesReference(ROOT));
  });

  it('lists every rule id of docs/refusals.md', () => {
    const refusals = read('docs/refusals.md');
    const ids = [...refusals.matchAll(/^\| `[^`]+` \| [^|]+ \| [^|]+ \| `([^`]+)` \|/gm)].map((m) => m[1]);
    expect(ids.length).toBeGreaterThan(50);
    expect([...new Set(ids)].filter((id) => !listed.has(id))).toEqual([]);
  });

  it('lists every rule the tutorials, the exercises, the gallery, the README and the docs cite', () => {
    const files = ['README.md', ...filesUnder('docs', /\.md$/), ...filesUnder('docs/tutorial/exercises', /\.ya?ml$/), ...filesUnder('scenarios', /\.ya?ml$/)];
    const unknown: string[] = [];
    let cited = 0;
    for (const f of files) for (const id of citedRuleIds(read(f))) {
      cited++;
      if (!listed.has(id)) unknown.push(`${f}: ${id}`);
    }
    expect(cited).toBeGreaterThan(20);
    expect(unknown).toEqual([]);
  });

  it('reads citations in every form the prose uses', () => {
    expect(citedRuleIds('refused, rule 7 of area A; see area A, rule 3 and area B rule 2; (Authentication, rule 2); Versioning rule 2; `role-table.promote`')).toEqual(
      ['A.rule3', 'A.rule7', 'B.rule2', 'auth.2', 'role-table.promote', 'versioning.2'],
    );
  });

  it('names only files that exist', () => {
    const files = [...RULES.matchAll(/`(src\/[^`]+\.ts)`/g)].map((m) => m[1]);
    expect(files.length).toBeGreaterThan(50);
    expect([...new Set(files)].filter((f) => !existsSync(join(ROOT, f)))).toEqual([]);
  });
});
