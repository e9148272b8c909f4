// Secret sync's scenario steps: the `destination-fault` fault, which makes the external store behind
// a destination fail or heals it, and the `inspect` step, which reads what a store holds (README of
// this folder, "External stores").
import { z } from 'zod/v4';
import { DESTINATION_FAULTS, SERVICE_DESTINATION_TYPES, type DestinationFault, type ServiceDestinationType } from '../core/vocabulary.js';
import { declareStep, WorldUsageError } from '../core/steps.js';
import { isStoreRef, missingStore, parseStoreRef, STORE_REF_HELP, type ExternalStore } from './external-store.js';
import { destinationForFault, isDestinationFault } from './sync.js';

/** `destination-fault`: make a simulated sync destination fail, or heal it (`none`). */
export interface DestinationFaultStep {
  kind: 'destination-fault';
  name?: string;
  on: string;
  destinationType: ServiceDestinationType;
  /** The destination's name (the file's `name` key inside `destination-fault`), `<namespace>/<name>` for one made in a namespace. */
  destination: string;
  fault: DestinationFault;
}

/** `inspect`: read what the external store behind a sync destination holds (and check it). */
export interface InspectStep {
  kind: 'inspect';
  name?: string;
  /** The store: `<type>/<name>`, or `<namespace>/<type>/<name>` for a destination made in a namespace. */
  store: string;
  /** Partial deep match on the store: `{ secrets, fault, operations, writers }`. */
  expect?: Record<string, unknown>;
}

declare module '../core/steps.js' {
  interface AreaSteps {
    'destination-fault': DestinationFaultStep;
    inspect: InspectStep;
  }
}

export const destinationFaultStep = declareStep({
  action: 'destination-fault',
  describe: 'Make the external store behind a sync destination fail (unreachable, unauthorized), or heal it (none).',
  content: ({ strictObject, clusterRef }) =>
    strictObject('destination-fault', {
      on: clusterRef,
      type: z.enum(SERVICE_DESTINATION_TYPES),
      name: z.string().min(1).describe('The destination name.'),
      fault: z.enum(DESTINATION_FAULTS),
    }),
  fields: (c: { on: string; type: ServiceDestinationType; name: string; fault: DestinationFault }) => ({ on: c.on, destinationType: c.type, destination: c.name, fault: c.fault }),
  clusterKey: 'on',
  ctl: {
    usage: 'destination-fault CLUSTER TYPE NAME unreachable|unauthorized|none',
    arity: 4,
    content: ([on, type, name, fault]) => ({ on, type, name, fault }),
  },
  title: (s) =>
    s.fault === 'none'
      ? `heal sync destination ${s.destinationType}/${s.destination} on ${s.on}`
      : `make sync destination ${s.destinationType}/${s.destination} on ${s.on} ${s.fault}`,
  apply(world, s) {
    const cluster = world.cluster(s.on);
    if (!isDestinationFault(s.fault)) throw new WorldUsageError(`destination-fault: fault "${s.fault}" is not one of ${DESTINATION_FAULTS.join(', ')}`);
    const found = destinationForFault(cluster, s.destinationType, s.destination);
    if ('problem' in found) throw new WorldUsageError(found.problem);
    world.append({ type: 'sync-destination-faulted', at: world.state.now, cluster: s.on, destination: found.key, fault: s.fault });
  },
});

export const inspectStep = declareStep({
  action: 'inspect',
  describe: 'Read what the external store behind a sync destination holds; results.json lists every store.',
  content: ({ strictObject }) =>
    strictObject('inspect', {
      store: z
        .string()
        .refine(isStoreRef, { message: STORE_REF_HELP })
        .describe('The external store: <type>/<name>, like codehost/gh1.'),
    }),
  fields: (c: { store: string }) => ({ store: c.store }),
  inspects: 'Partial deep match on the store: { secrets: { <external name>: <value> }, fault, operations, writers }.',
  title: (s) => `inspect external store ${s.store}`,
  // What the external store held, and who had written to it.
  narrate(contents: ExternalStore, compact) {
    const writers = contents.writers.length ? `written by ${contents.writers.join(', ')}` : 'written by nobody yet';
    const fault = contents.fault === 'none' ? '' : `, fault ${contents.fault}`;
    return `holds ${compact(contents.secrets)} (${contents.operations} operation${contents.operations === 1 ? '' : 's'}, ${writers}${fault})`;
  },
  apply(world, s) {
    const parsed = parseStoreRef(s.store, SERVICE_DESTINATION_TYPES);
    if (!parsed) throw new WorldUsageError(`inspect: "${s.store}" does not name a store: write <type>/<name> (or <namespace>/<type>/<name>), the type one of ${SERVICE_DESTINATION_TYPES.join(', ')}`);
    const missing = missingStore(world.state.stores, parsed.key);
    if (missing) throw new WorldUsageError(missing);
    // A copy: what a scenario reads cannot change the world.
    return { store: parsed.key, contents: structuredClone(world.state.stores[parsed.key]) };
  },
});
