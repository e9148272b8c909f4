// Something that happens by itself as time passes (a WAL delivery, a reindex finishing): each
// process looks at the state and says when its next piece of work falls due and what events it
// makes then. World.advance runs them in time order; the events go into the log like any other.
import type { SimEvent } from './events.js';
import type { SimState } from './state.js';

export type TimedProcess = (state: SimState) => { at: number; events: SimEvent[] } | null;
