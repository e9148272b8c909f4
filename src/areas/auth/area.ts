// ACL policies, token roles and tokens (service and batch): what the area gives the world (src/areas.ts).
import { simArea } from '../sim-area.js';
import { authReducers } from './evolve.js';
import { authRefusals } from './refusals.js';
import { authRoutes } from './routes.js';

export const authArea = simArea({
  name: 'auth',
  readme: 'src/areas/auth/README.md',
  reducers: authReducers,
  routes: authRoutes,
  refusals: authRefusals,
});
