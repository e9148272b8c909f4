// The kernel's area contract (src/kernel/area.ts) at the simulator's types: its state and events,
// its routes, the monitors of invariants.md and the property commands. Each area's `area.ts` declares
// its value with `simArea`; src/areas.ts lists them.
import { defineArea, type Area } from '../kernel/area.js';
import type { SimEvent } from './cluster/events.js';
import type { Route } from './cluster/http/route.js';
import type { SimState } from './cluster/state.js';
import type { MonitorFactory } from './monitoring/types.js';
import type { CommandFamily } from './property/command.js';

export type SimArea = Area<SimState, SimEvent, Route, MonitorFactory, CommandFamily>;

/** An area of the simulator, with the parts it has (the others empty). */
export const simArea = (parts: Parameters<typeof defineArea<SimState, SimEvent, Route, MonitorFactory, CommandFamily>>[0]): SimArea => defineArea(parts);
