// Secret sync to external stores (spec area D): what the area gives the world (src/areas.ts).
import { notBuilt } from '../cluster/http/not-built.js';
import { simArea } from '../sim-area.js';
import { syncMessages } from './messages.js';
import { syncRefusals } from './refusals.js';
import { syncRoutes } from './routes.js';
import { syncReducers } from './evolve.js';
import { syncCheckers, syncJobSchedule } from './jobs.js';

export const syncArea = simArea({
  name: 'sync',
  readme: 'src/areas/sync/README.md',
  reducers: syncReducers,
  // sys/sync/config is not simulated: 501 "not implemented in replsim" (README, Limits).
  routes: [
    ...syncRoutes,
    notBuilt('sys/sync/config', ['GET', 'PATCH', 'DELETE'], 'sys/sync/config (secret sync settings)'),
    // The service's in-memory test destination and code-host app registrations: not simulated (README, Limits).
    notBuilt('sys/sync/destinations/in-mem/:name', ['GET', 'POST', 'PATCH', 'DELETE'], 'the in-mem sync destination type'),
    notBuilt('sys/sync/github-apps', ['LIST', 'GET'], 'code host app registrations (sys/sync/github-apps)'),
    notBuilt('sys/sync/github-apps/:name', ['GET', 'POST', 'DELETE'], 'code host app registrations (sys/sync/github-apps)'),
  ],
  // Sync jobs are timed work on the bus's due-time queue (jobs.ts), not a timed process.
  messages: [syncMessages, syncJobSchedule],
  checkers: syncCheckers,
  refusals: syncRefusals,
});
