// Regenerates the pictures of every tutorial chapter (docs/tutorial/NN-*.md) from its scenarios.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fillPictures } from '../src/report/tutorial.js';

const dir = 'docs/tutorial';
for (const f of readdirSync(dir).filter((n) => /^\d\d-.+\.md$/.test(n)).sort()) {
  const path = join(dir, f);
  const before = readFileSync(path, 'utf8');
  const after = await fillPictures(before, '.');
  if (after !== before) {
    writeFileSync(path, after);
    console.log(`updated ${path}`);
  }
}
