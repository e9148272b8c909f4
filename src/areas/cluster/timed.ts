// A timed process of the simulator (the kernel's contract, src/kernel/area.ts, at the simulator's
// state and event types): it says when its next piece of work falls due and what events it makes then.
import type { TimedProcess as KernelTimedProcess } from '../../kernel/area.js';
import type { SimEvent } from './events.js';
import type { SimState } from './state.js';

export type TimedProcess = KernelTimedProcess<SimState, SimEvent>;
