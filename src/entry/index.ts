/// <reference types="node" preserve="true" />
// replsim's programmatic entry (package.json `exports`): start a simulated topology inside another
// project's test suite, drive it in-process or over HTTP, run scenario files.
//
//   import { createWorld, serve, loadScenario, runScenario } from 'replsim';
//
//   const world = createWorld(['east', 'west'], { seed: 7 });          // in-process
//   world.request('east', { method: 'POST', path: 'sys/replication/dr/primary/enable', token: 'root' });   // a token's name, as in a scenario, or its value
//
//   const server = await serve({ clusters: ['east', 'west'], clock: 'manual' });   // over HTTP, free ports
//   server.clusters.east.url;  // http://127.0.0.1:<port>, for any client library
//   await server.stop();
//
//   const loaded = loadScenario(yamlText, 'runbook.yaml');
//   if (loaded.ok) console.log((await runScenario(loaded.scenario)).verdict);
import type { ClusterSpec, Topology } from '../areas/cluster/genesis.js';
import { World, type WorldOptions } from '../world.js';

export { World, WorldUsageError, type WorldOptions, type RequestResult, type SendOptions } from '../world.js';
export type { ApiRequest, ApiResponse } from '../kernel/http/http.js';
export type { ClusterSpec, Topology } from '../areas/cluster/genesis.js';
export type { Finding } from '../areas/monitoring/types.js';
export { loadScenario, formatScenarioError, type LoadResult, type ScenarioError } from '../scenario/loader.js';
export { runScenario, type RunOptions, type RunResult, type StepRecord } from '../scenario/runner.js';
export type { StepLog } from '../scenario/step-spill.js';
export type { Scenario } from '../scenario/schema.js';
export { serve, ServeError, type ServeHandle, type ServeOptions } from '../serve/serve.js';
export type { ListenerLimits } from '../serve/http-face.js';

/**
 * A new world: clusters by name (each as a scenario's `{}`: initialised, unsealed, a `secret/`
 * KV-v2 mount, 5 key shares with threshold 3), or a topology with each cluster's options.
 */
export function createWorld(clusters: readonly string[] | Topology, options: WorldOptions = {}): World {
  const topology: Topology = Array.isArray(clusters) ? Object.fromEntries(clusters.map((name): [string, ClusterSpec] => [name, {}])) : (clusters as Topology);
  return World.create(topology, options);
}
