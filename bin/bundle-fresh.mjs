// When a bundle scripts/build.mjs made may run instead of the TypeScript sources: it exists, and
// was built after the last change to src/, models/ and package.json (REPLSIM_NO_BUNDLE=1: never). One
// rule for the `replsim` command (bin/replsim.js) and the threads of `check --workers`
// (src/explore/workers.ts), so neither ever runs stale code after an edit. An installed package
// ships no sources (package.json `files`): there the bundle is all there is.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The newest modification time of the files below a folder (0 when there is no such folder). */
function newest(dir) {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** Whether `bundle` exists and is newer than every source file below `root`. */
export function bundleIsFresh(bundle, root) {
  if (process.env.REPLSIM_NO_BUNDLE || !existsSync(bundle)) return false;
  return statSync(bundle).mtimeMs >= Math.max(newest(join(root, 'src')), newest(join(root, 'models')), statSync(join(root, 'package.json')).mtimeMs);
}
