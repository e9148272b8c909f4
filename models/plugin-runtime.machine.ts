// One entry of the plugin runtime catalog, by type and name: registered by POST (which creates or
// overwrites it) and removed by DELETE, which fails while a registered plugin references it.
//
// The world stores only the registered runtimes (absent = no entry) and uses this machine as a pure
// transition function (`stepRuntime`) to decide whether a request may change an entry.
import { setup, transition } from 'xstate';

export type RuntimeValue = 'absent' | 'registered';

export type RuntimeEvent =
  /** POST sys/plugins/runtimes/catalog/:type/:name: create, or overwrite with the new settings. */
  | { type: 'register' }
  /** DELETE of the entry; `referencedBy` names the registered plugins that use the runtime. */
  | { type: 'delete'; referencedBy: string[] };

export const pluginRuntimeMachine = setup({
  types: { events: {} as RuntimeEvent },
  guards: {
    notReferenced: ({ event }) => event.type === 'delete' && event.referencedBy.length === 0,
  },
}).createMachine({
  id: 'pluginRuntime',
  initial: 'absent',
  states: {
    absent: {
      on: { register: { target: 'registered' } },
    },
    registered: {
      on: {
        register: { target: 'registered' },
        delete: { guard: 'notReferenced', target: 'absent' },
      },
    },
  },
});

const outcomes = new Map<string, RuntimeValue | null>();

/**
 * The entry after the request, or null when the catalog refuses it (see `runtimeRefusal`). The
 * outcome depends on the value, the event's type and whether a plugin references the runtime (the
 * guard's one fact), so each combination is asked of the machine once and remembered.
 */
export function stepRuntime(value: RuntimeValue, event: RuntimeEvent): RuntimeValue | null {
  const key = `${value}|${event.type}|${event.type === 'delete' && event.referencedBy.length === 0}`;
  let next = outcomes.get(key);
  if (next === undefined) {
    next = transitionRuntime(value, event);
    outcomes.set(key, next);
  }
  return next;
}

/** The machine's own answer, through xstate's `transition` (the reference `stepRuntime` remembers). */
export function transitionRuntime(value: RuntimeValue, event: RuntimeEvent): RuntimeValue | null {
  const snap = pluginRuntimeMachine.resolveState({ value, context: undefined as never });
  if (!snap.can(event)) return null;
  return transition(pluginRuntimeMachine, snap, event)[0].value as RuntimeValue;
}

/**
 * Why the catalog refuses `event`, or null when allowed. The service looks for referencing plugins
 * before it looks for the entry, so a reference is reported first.
 */
export function runtimeRefusal(value: RuntimeValue, event: RuntimeEvent): { kind: 'referenced'; plugins: string[] } | { kind: 'not-found' } | null {
  if (stepRuntime(value, event) !== null) return null;
  if (event.type === 'delete' && event.referencedBy.length > 0) return { kind: 'referenced', plugins: event.referencedBy };
  return { kind: 'not-found' };
}
