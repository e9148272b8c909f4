// Where a benchmark's `replsim` commands run from: the bundle, rebuilt first when older than the
// sources (as `npm ci` builds it), or the sources when it cannot be built. The rule the replsim
// command itself follows (bin/bundle-fresh.mjs).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleIsFresh } from '../../bin/bundle-fresh.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Says where the commands will run from, after rebuilding a stale bundle. */
export function bundleState(): string {
  const fresh = () => bundleIsFresh(join(root, 'dist/cli/replsim.mjs'), root);
  if (process.env.REPLSIM_NO_BUNDLE) return 'from the sources (REPLSIM_NO_BUNDLE)';
  if (fresh()) return 'from the bundle';
  spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--bundles'], { cwd: root, stdio: 'ignore' });
  return fresh() ? 'from the bundle, rebuilt for this run' : 'from the sources (the bundle could not be built)';
}
