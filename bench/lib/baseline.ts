// The floor a replicated write stands on: bare XState v5 actors (one per cluster) and one rxjs
// Subject carrying the primary's WAL index to the secondaries, making the same number of
// transitions as replsim appends events for the same writes. No routing, no authorisation, no
// event log, no immutable state: only the machinery replsim is built from.
import { Subject } from 'rxjs';
import { assign, createActor, setup, type Actor } from 'xstate';

type Ev = { type: 'write'; key: string } | { type: 'deliver'; wal: number } | { type: 'tick'; at: number };

const node = setup({
  types: { context: {} as { wal: number; remote: number; at: number }, events: {} as Ev },
}).createMachine({
  id: 'node',
  context: { wal: 0, remote: 0, at: 0 },
  initial: 'streaming',
  states: {
    streaming: {
      on: {
        write: { actions: assign({ wal: ({ context }) => context.wal + 1 }) },
        deliver: { actions: assign({ remote: ({ event }) => event.wal }) },
        tick: { actions: assign({ at: ({ event }) => event.at }) },
      },
    },
  },
});

export interface Baseline {
  /** Makes `writes` writes of `transitionsPerWrite` transitions each; returns the transitions made. */
  run(writes: number, transitionsPerWrite: number): number;
}

/** A primary actor and `secondaries` secondary actors fed by one Subject. */
export function baseline(secondaries: number): Baseline {
  const primary: Actor<typeof node> = createActor(node).start();
  const wal$ = new Subject<number>();
  let budget = 0;
  let made = 0;
  for (let i = 0; i < secondaries; i++) {
    const s = createActor(node).start();
    wal$.subscribe((wal) => {
      if (budget <= 0) return;
      budget--;
      made++;
      s.send({ type: 'deliver', wal });
    });
  }
  let at = 0;
  return {
    run(writes, perWrite) {
      made = 0;
      for (let i = 0; i < writes; i++) {
        // One transition for the write, one for time passing, the rest are deliveries.
        primary.send({ type: 'write', key: `k${i}` });
        made++;
        budget = secondaries > 0 ? perWrite - 2 : 0;
        while (budget > 0) wal$.next(primary.getSnapshot().context.wal);
        primary.send({ type: 'tick', at: (at += 20) });
        made++;
      }
      return made;
    },
  };
}
