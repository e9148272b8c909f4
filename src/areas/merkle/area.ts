// Merkle trees, reindex and merkle-check (the `corrupt` fault): what the area gives the world (src/areas.ts).
import { simArea } from '../sim-area.js';
import { merkleReducers } from './evolve.js';
import { merkleCheckers, merkleSchedule } from './due.js';
import { merkleRefusals } from './refusals.js';
import { merkleRoutes } from './routes.js';

export const merkleArea = simArea({
  name: 'merkle',
  readme: 'src/areas/merkle/README.md',
  reducers: merkleReducers,
  // The reindex's end is timed work on the bus's due-time queue (due.ts), not a timed process.
  messages: [merkleSchedule],
  checkers: merkleCheckers,
  routes: merkleRoutes,
  refusals: merkleRefusals,
});
