// An install without devDependencies must run every command: every package the shipped code imports
// is in `dependencies` (fast-check, imported by src/check, and the scenario schema's JSON Schema
// writer were once devDependencies: `replsim run` failed with ERR_MODULE_NOT_FOUND).
// test/package/pack.test.ts runs the commands from such an install.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };

/**
 * Imported only to run the TypeScript sources of a checkout whose bundle is missing or stale
 * (bin/replsim.js; scripts/workers/*-tsx.mjs, which src/ names but never imports): an installed package runs its bundles
 * (test/package/pack.test.ts installs one without it), so these are devDependencies.
 */
const CHECKOUT_ONLY = new Set(['tsx']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.(ts|js|mjs)$/.test(name) ? [path] : [];
  });
}

/** The package a bare import specifier names: `a` of `a/b`, `@s/a` of `@s/a/b`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

describe('runtime dependencies', () => {
  it('every package imported by src/, models/ and bin/ (statically or dynamically) is a dependency, pinned exactly', () => {
    const imported = new Map<string, string>();
    for (const file of [...sources(join(root, 'src')), ...sources(join(root, 'models')), ...sources(join(root, 'bin'))]) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g)) {
        const spec = m[1] ?? m[2];
        if (spec.startsWith('.') || spec.startsWith('node:') || builtinModules.includes(spec)) continue;
        if (!imported.has(packageOf(spec))) imported.set(packageOf(spec), file.slice(root.length + 1));
      }
    }
    expect(imported.size).toBeGreaterThan(5);
    const missing = [...imported].filter(([p]) => !CHECKOUT_ONLY.has(p) && !Object.hasOwn(pkg.dependencies, p)).map(([p, f]) => `${p} (imported by ${f})`);
    expect(missing).toEqual([]);
    for (const [p] of imported) expect(pkg.dependencies[p] ?? pkg.devDependencies[p], p).toMatch(/^\d+\.\d+\.\d+$/);
    for (const p of CHECKOUT_ONLY) expect(Object.hasOwn(pkg.dependencies, p), `${p} is for checkouts only`).toBe(false);
  });
});
