// Secret sync to external stores (spec area D): what the area gives the world (src/areas.ts).
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
  routes: syncRoutes,
  // Sync jobs are timed work on the bus's due-time queue (jobs.ts), not a timed process.
  messages: [syncMessages, syncJobSchedule],
  checkers: syncCheckers,
  refusals: syncRefusals,
});
