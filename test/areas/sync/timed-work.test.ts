// Sync jobs and a reindex's end are timed work on the bus's due-time queue (sync/jobs.ts,
// merkle/due.ts), scheduled from the events: a replayed world and a fork hold the same schedule
// and continue exactly as the original, and a cluster that stops running jobs (crashed, or made a
// secondary) runs the ones it owes once it runs them again.
import { describe, expect, it } from 'vitest';
import { SYNC_DELAY_MS } from '../../../src/areas/sync/sync.js';
import { World } from '../../../src/world.js';
import { createDestination, expectOk, setAssociation, syncWorld, writeSecret } from './helpers.js';

function attempts(w: World): string[] {
  return w.log.filter((e) => e.type === 'sync-attempted').map((e: any) => `${e.at} ${e.cluster} ${e.id} ${e.operation} ${e.outcome}`);
}

/** A world owing two sync jobs (one failing against a store fault) and a second cluster under reindex-free load. */
function owing(): World {
  const w = syncWorld({ others: { west: {} } });
  writeSecret(w, 'app/web', { K: '1' });
  writeSecret(w, 'app/db', { K: '2' });
  createDestination(w, 'codehost', 'gh1');
  expectOk(setAssociation(w, 'codehost', 'gh1', 'secret', 'app/web'));
  expectOk(setAssociation(w, 'codehost', 'gh1', 'secret', 'app/db'));
  return w;
}

describe('timed work on the due-time queue', () => {
  it('a replay and a fork continue with the same jobs at the same times as the original', () => {
    const w = owing();
    w.advance(SYNC_DELAY_MS / 2);
    const replayed = World.replay(w.log);
    const forked = w.fork();
    for (const x of [w, replayed, forked]) {
      x.advance(SYNC_DELAY_MS);
      writeSecret(x, 'app/web', { K: '3' });
      x.advance(10 * SYNC_DELAY_MS);
    }
    expect(attempts(w)).toHaveLength(3);
    expect(attempts(replayed)).toEqual(attempts(w));
    expect(attempts(forked)).toEqual(attempts(w).filter((a) => Number(a.split(' ')[0]) > w.log[0].at + SYNC_DELAY_MS / 2));
    expect(replayed.stateHash()).toBe(w.stateHash());
    expect(forked.stateHash()).toBe(w.stateHash());
  });

  it('a crashed cluster runs no job; after its restart it runs what it owes at once', () => {
    const w = owing();
    const setAt = w.now;
    w.crash('east');
    w.advance(3 * SYNC_DELAY_MS);
    expect(attempts(w)).toEqual([]);
    w.restart('east');
    const restartedAt = w.now;
    expect(restartedAt).toBeGreaterThan(setAt + SYNC_DELAY_MS);
    w.advance(0);
    // Both owed jobs run at the restart's instant, in association id order.
    expect(attempts(w).map((a) => a.split(' ')[0])).toEqual([String(restartedAt), String(restartedAt)]);
    expect(attempts(w).every((a) => a.endsWith('succeeded'))).toBe(true);
  });
});
