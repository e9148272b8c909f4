// A cluster itself: identity, mounts and KV data, tokens and policies, the client endpoints, and the
// faults an operator causes (partition, crash): what the area gives the world (src/areas.ts).
import { crash } from './commands/crash.js';
import { heal } from './commands/heal.js';
import { partition } from './commands/partition.js';
import { restart } from './commands/restart.js';
import { bounce } from './commands/bounce.js';
import { wait } from './commands/wait.js';
import { writeSecret } from './commands/write-secret.js';
import { clientRoutes } from './client-endpoints.js';
import { operatorRoutes } from './operator-endpoints.js';
import { notBuilt } from '../core/http/not-built.js';
import { kvRoutes } from './kv.js';
import { coreReducers } from './reducers.js';
import { clusterRefusals } from '../core/refusals.js';
import { simArea } from '../sim-area.js';

export const clusterArea = simArea({
  name: 'cluster',
  readme: 'src/areas/cluster/README.md',
  reducers: coreReducers,
  routes: [
    ...clientRoutes,
    ...operatorRoutes,
    // Activation flags are not simulated: 501 "not implemented in replsim" (README, Limits).
    notBuilt('sys/activation-flags', ['GET'], 'activation flags'),
    notBuilt('sys/activation-flags/:feature/activate', ['POST', 'PUT'], 'activation flags'),
  ],
  mountRoutes: kvRoutes,
  commands: [writeSecret, partition, heal, crash, restart, bounce, wait],
  refusals: clusterRefusals,
});
