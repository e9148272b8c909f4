// The kernel's area contract (src/kernel/area.ts) at the simulator's types: its state and events,
// its routes, the monitors of invariants.md and the property commands. Each area's `area.ts` declares
// its value with `simArea`; src/areas.ts lists them.
import { defineArea, type Area } from '../kernel/area.js';
import type { ReducerTable } from '../kernel/engine.js';
import type { SimEvent } from './core/events.js';
import type { Route } from './core/http/route.js';
import type { SimState } from './core/state.js';
import type { SimReducer } from './core/reduce.js';
import type { MonitorFactory } from './monitoring/types.js';
import type { CommandFamily } from './property/command.js';
import type { StepDeclaration } from './core/steps.js';

/** An area of the simulator: the kernel's contract, and the scenario steps it declares (core/steps.ts). */
export type SimArea = Area<SimState, SimEvent, Route, MonitorFactory, CommandFamily> & { readonly steps: readonly StepDeclaration<any>[] };

/** An area's reducers, by event type (core/reduce.ts). */
export type SimReducers = { [K in SimEvent['type']]?: SimReducer<Extract<SimEvent, { type: K }>> };

type Parts = Parameters<typeof defineArea<SimState, SimEvent, Route, MonitorFactory, CommandFamily>>[0];

/** An area of the simulator, with the parts it has (the others empty), and the scenario steps it declares. */
export const simArea = (parts: Omit<Parts, 'reducers'> & { reducers?: SimReducers; steps?: readonly StepDeclaration<any>[] }): SimArea => {
  const { reducers, steps = [], ...rest } = parts;
  return { ...defineArea({ ...rest, reducers: (reducers ?? {}) as ReducerTable<SimState, SimEvent> }), steps };
};
