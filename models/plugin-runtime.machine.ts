// One entry of the plugin runtime catalog, by type and name: registered by POST (which creates or
// overwrites it) and removed by DELETE, which fails while a registered plugin references it.
//
// The world stores only the registered runtimes (absent = no entry) and uses this machine as a pure
// transition function (`stepRuntime`) to decide whether a request may change an entry.
import { setup } from 'xstate';
import { ask } from './ask.js';

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

/** The entry after the request, or null when the catalog refuses it (see `runtimeRefusal`). */
export function stepRuntime(value: RuntimeValue, event: RuntimeEvent): RuntimeValue | null {
  const answer = ask(pluginRuntimeMachine, value, undefined, event);
  return 'next' in answer ? (answer.next as RuntimeValue) : null;
}

/**
 * Why the catalog refuses `event`, or null when allowed. The service looks for referencing plugins
 * before it looks for the entry, so a reference is reported first.
 */
export function runtimeRefusal(value: RuntimeValue, event: RuntimeEvent): { kind: 'referenced'; plugins: string[] } | { kind: 'not-found' } | null {
  const answer = ask(pluginRuntimeMachine, value, undefined, event);
  if ('next' in answer) return null;
  // The service looks for referencing plugins before it looks for the entry: a reference is the
  // reason even where the machine has no row (an absent entry).
  if (event.type === 'delete' && event.referencedBy.length > 0) return { kind: 'referenced', plugins: event.referencedBy };
  return { kind: 'not-found' };
}
