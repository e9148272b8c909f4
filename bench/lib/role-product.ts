// The role product space as a plain XState machine, for xstate/graph: one parallel region per
// cluster, each the replication role machine of models/ (its states and guards unchanged), driven by
// every role request with every combination of the facts its guards read. xstate/graph's
// getShortestPaths then walks every reachable combination of roles, as replsim's explorer walks
// the combinations of DR roles through the API.
import { setup, type AnyStateMachine } from 'xstate';
import { replicationRoleMachine, type RoleEvent } from '../../models/replication-role.machine.js';

/** Every role request with every combination of the facts the guards read. */
export function roleRequests(): RoleEvent[] {
  const tf = [true, false];
  const out: RoleEvent[] = [{ type: 'primary.enable' }, { type: 'primary.demote' }, { type: 'primary.disable' }];
  for (const v of tf) out.push({ type: 'secondary.enable', activationTokenValid: v });
  for (const o of tf) for (const f of tf) for (const s of tf) out.push({ type: 'secondary.promote', operationTokenValid: o, force: f, safetyChecksPass: s });
  for (const o of tf) out.push({ type: 'secondary.disable', operationTokenValid: o });
  for (const o of tf)
    for (const given of [{}, { token: 'x' }, { token: '' }, { addresses: ['https://a:8201'] }, { token: 'x', addresses: ['https://a:8201'] }])
      out.push({ type: 'secondary.update-primary', operationTokenValid: o, ...given });
  return out;
}

type Config = { on?: Record<string, unknown>; states?: Record<string, Config>; [k: string]: unknown };

/** The role machine's states with each event renamed `<region>:<event>`. */
function renamed(states: Record<string, Config>, region: string): Record<string, Config> {
  const out: Record<string, Config> = {};
  for (const [name, node] of Object.entries(states)) {
    const copy: Config = { ...node };
    if (node.on) copy.on = Object.fromEntries(Object.entries(node.on).map(([type, t]) => [`${region}:${type}`, t]));
    if (node.states) copy.states = renamed(node.states, region);
    out[name] = copy;
  }
  return out;
}

export interface Product {
  machine: AnyStateMachine;
  events: { type: string }[];
}

/** The product of `clusters` DR role machines. */
export function roleProduct(clusters: number): Product {
  const config = replicationRoleMachine.config as unknown as { initial: string; states: Record<string, Config> };
  const guards = replicationRoleMachine.implementations.guards as Record<string, (args: { context: unknown; event: { type: string } }, params: unknown) => boolean>;
  // The guards read the event's own type: hand them the event without its region.
  const unprefixed: Record<string, (args: { context: unknown; event: { type: string } }, params: unknown) => boolean> = {};
  for (const [name, g] of Object.entries(guards)) unprefixed[name] = (args, params) => g({ ...args, event: { ...args.event, type: args.event.type.slice(args.event.type.indexOf(':') + 1) } }, params);
  const regions = Array.from({ length: clusters }, (_, i) => `c${i + 1}`);
  const machine = setup({ guards: unprefixed as never }).createMachine({
    id: 'roles',
    type: 'parallel',
    context: { kind: 'dr' },
    states: Object.fromEntries(regions.map((r) => [r, { initial: config.initial, states: renamed(config.states, r) }])) as never,
  }) as unknown as AnyStateMachine;
  const events = regions.flatMap((r) => roleRequests().map((e) => ({ ...e, type: `${r}:${e.type}` })));
  return { machine, events };
}

/** A snapshot's roles as DR modes per region (d, p or s), e.g. "dps". */
export function modesOf(value: Record<string, string | Record<string, string>>): string {
  return Object.keys(value)
    .sort()
    .map((r) => (typeof value[r] === 'string' ? (value[r] as string)[0] : 's'))
    .join('');
}
