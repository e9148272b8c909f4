// The plugin runtime catalog and the plugin catalog (spec area C): what the area gives the world (src/areas.ts).
import { simArea } from '../sim-area.js';
import { pluginReducers } from './evolve.js';
import { pluginRefusals } from './refusals.js';
import { pluginRuntimeRoutes } from './routes.js';

export const pluginsArea = simArea({
  name: 'plugins',
  readme: 'src/areas/plugins/README.md',
  reducers: pluginReducers,
  routes: pluginRuntimeRoutes,
  refusals: pluginRefusals,
});
