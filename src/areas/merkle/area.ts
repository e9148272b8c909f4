// Merkle trees, reindex and merkle-check (the `corrupt` fault): what the area gives the world (src/areas.ts).
import { simArea } from '../sim-area.js';
import { merkleReducers } from './evolve.js';
import { merkleProcesses } from './merkle.js';
import { merkleRefusals } from './refusals.js';
import { merkleRoutes } from './routes.js';

export const merkleArea = simArea({
  name: 'merkle',
  readme: 'src/areas/merkle/README.md',
  reducers: merkleReducers,
  processes: merkleProcesses,
  routes: merkleRoutes,
  refusals: merkleRefusals,
});
