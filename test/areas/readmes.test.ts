// Each area's README maps the spec's rules to the files that hold them, and docs/architecture.md
// walks the code: every file they name must exist, so a rule is found in one hop and a move that
// forgets the docs fails here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AREAS } from '../../src/areas.js';

const root = path.resolve(import.meta.dirname, '../..');
const areasDir = path.join(root, 'src/areas');
/** The areas of src/areas.ts, the one list; the other folders of src/areas/ hold contracts the areas share. */
const areas = AREAS.map((a) => a.name);
const SHARED_FOLDERS = ['core', 'monitoring', 'property'];

/** The file names a Markdown page quotes in backticks (`x.ts`, `src/a/b.ts`, `models/m.ts`, `dir/`). */
function namedFiles(md: string): string[] {
  return [...md.matchAll(/`([A-Za-z0-9_./-]+\.(?:ts|md))`/g)].map((m) => m[1]).filter((f) => !f.startsWith('../shared/') && !f.includes('<'));
}

/** Where a name resolves: from the repository root when it starts with a top folder, else from the page's folder. */
function resolves(name: string, pageDir: string): boolean {
  if (/^(src|models|test|docs|scenarios)\//.test(name)) return existsSync(path.join(root, name));
  return existsSync(path.join(pageDir, name));
}

describe('area READMEs', () => {
  it('every area folder is an area of src/areas.ts, and its area names its own folder and README', () => {
    const folders = readdirSync(areasDir, { withFileTypes: true }).filter((d) => d.isDirectory() && !SHARED_FOLDERS.includes(d.name)).map((d) => d.name);
    expect([...areas].sort()).toEqual(folders.sort());
    for (const a of AREAS) expect(a.readme).toBe(`src/areas/${a.name}/README.md`);
  });

  it('every area folder has a README', () => {
    for (const a of AREAS) expect(existsSync(path.join(root, a.readme)), a.readme).toBe(true);
  });

  for (const a of areas) {
    it(`src/areas/${a}/README.md names only files that exist`, () => {
      const dir = path.join(areasDir, a);
      const missing = namedFiles(readFileSync(path.join(dir, 'README.md'), 'utf8')).filter((f) => !resolves(f, dir) && !resolves(f, areasDir));
      expect(missing).toEqual([]);
    });
  }
});

/** Every file name under src/ and models/, for names a table row gives without their folder. */
function basenames(dir: string, out = new Set<string>()): Set<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) basenames(path.join(dir, e.name), out);
    else out.add(e.name);
  }
  return out;
}

describe('docs/architecture.md', () => {
  it('names only files that exist (the departures from the design may name the design\'s)', () => {
    const md = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
    const walk = md.slice(0, md.indexOf('## Where the code departs'));
    const known = new Set([...basenames(path.join(root, 'src')), ...basenames(path.join(root, 'models'))]);
    const missing = namedFiles(walk).filter((f) => (f.includes('/') ? !resolves(f, path.join(root, 'docs')) : !known.has(f)));
    expect(missing).toEqual([]);
  });
});
