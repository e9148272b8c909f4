// The paths a DR secondary leaves open are stated twice, each from the facts: by the routes (each
// endpoint's authorisation rule, `openOnDrSecondary`) and by the monitor `dr-secondary-closed` (its
// own list). This test asks the routes by sending every one of them to a DR secondary, and checks
// that what answers there is what the monitor's list allows, and that every listed path that has a
// route answers there.
import { describe, expect, it } from 'vitest';
import { DR_SECONDARY_OPEN_PATHS } from '../../../../src/areas/replication/monitors/dr-secondary-closed.js';
import { routes, World } from '../../../../src/world.js';
import type { Method } from '../../../../src/kernel/http/http.js';

/** Paths of the monitor's list that replsim does not serve (no route, or 501). */
const NOT_SERVED: string[] = [
  'sys/replication/dr/secondary/license',
  'sys/replication/dr/secondary/license/signed',
];

const CLOSED = 'path disabled in replication DR secondary mode';

function drSecondaryWorld(): World {
  const w = World.create({ east: {}, west: {} }, { seed: 3 });
  const root = w.state.operators.east.rootToken;
  const ok = (cluster: string, path: string, body: unknown, token?: string) => {
    const r = w.request(cluster, { method: 'POST', path, body, token });
    if (r.status >= 300) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as any;
  };
  ok('east', 'sys/replication/dr/primary/enable', {}, root);
  const token = ok('east', 'sys/replication/dr/primary/secondary-token', { id: 'west' }, root).wrap_info.token;
  ok('west', 'sys/replication/dr/secondary/enable', { token }, w.state.operators.west.rootToken);
  w.advance(1000);
  return w;
}

/** A concrete path for a route pattern: every parameter named after itself. */
const concrete = (pattern: string) => pattern.replace(/[:*]([a-z_]+)/g, '$1');

describe('the paths open on a DR secondary', () => {
  it('are the same for the routes and for the monitor dr-secondary-closed', () => {
    const w = drSecondaryWorld();
    const openByRoutes = new Set<string>();
    const closedByRoutes = new Set<string>();
    for (const route of routes.sys) {
      for (const method of Object.keys(route.methods) as Method[]) {
        const path = concrete(route.pattern);
        const r = w.request('west', { method, path, body: {} });
        const errors = ((r.body as { errors?: string[] } | null)?.errors ?? []).join('\n');
        // An unbuilt path answers 501 wherever it is sent: it serves nothing, so it opens nothing.
        if (r.status === 501) continue;
        (errors.includes(CLOSED) ? closedByRoutes : openByRoutes).add(path);
      }
    }
    const listed = new Set(DR_SECONDARY_OPEN_PATHS.map(concrete));
    expect([...openByRoutes].filter((p) => !listed.has(p)), 'answered on a DR secondary, but not in the monitor’s list').toEqual([]);
    expect([...listed].filter((p) => closedByRoutes.has(p)), 'in the monitor’s list, but refused by the routes').toEqual([]);
    // Listed paths the routes do not serve at all (no route, or 501) are named here, so the list
    // cannot pass by the routes serving nothing.
    expect([...listed].filter((p) => !openByRoutes.has(p))).toEqual(NOT_SERVED);
  });
});
