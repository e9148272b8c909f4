// The one list of the spec's areas. Each area's folder owns everything about it and says what it
// gives the world in its `area.ts` (the contract: src/kernel/area.ts): reducers, routes, bus
// messages (and the timed work and checks they schedule), monitors, property commands and refusals.
// The world (src/world.ts), the monitor catalogue (src/check/catalogue.ts) and the property commands
// (src/explore/commands/index.ts) read this list and nothing else, so an area is added here, once.
//
// The order is the order the router tries `sys/` paths, bus sources run at the same instant, and the
// explorer tries commands: the spec's areas first, the cluster's own (client paths, KV writes,
// faults, waits) last. (Monitors run in the order of invariants.md, whatever the
// areas' order: src/check/catalogue.ts.)
import { authArea } from './areas/auth/area.js';
import { clusterArea } from './areas/cluster/area.js';
import { merkleArea } from './areas/merkle/area.js';
import { operationTokenArea } from './areas/operation-token/area.js';
import { pluginsArea } from './areas/plugins/area.js';
import { replicationArea } from './areas/replication/area.js';
import type { SimArea } from './areas/sim-area.js';
import type { AreaStepAction, StepDeclaration } from './areas/core/steps.js';
import { syncArea } from './areas/sync/area.js';

export type { SimArea };

export const AREAS: readonly SimArea[] = [replicationArea, operationTokenArea, merkleArea, pluginsArea, syncArea, authArea, clusterArea];

/** The scenario steps the areas declare (faults and inspections), in the list's order: one area declares an action. */
export const AREA_STEPS: ReadonlyMap<AreaStepAction, StepDeclaration> = (() => {
  const steps = new Map<AreaStepAction, StepDeclaration>();
  for (const area of AREAS)
    for (const step of area.steps) {
      if (steps.has(step.action)) throw new Error(`two areas declare the "${step.action}" step`);
      steps.set(step.action, step);
    }
  return steps;
})();
