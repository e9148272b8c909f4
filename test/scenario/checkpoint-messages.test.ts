// A run lends its world the timeline's checkpoints (World.lendStates): the message history its
// report reads is folded again from each checkpoint it reaches rather than from the origin. A run
// long enough to keep checkpoints past the first (CHECKPOINT_EVENTS) must give the history a
// replay of its log gives, which folds everything from the origin.
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/scenario/runner.js';
import { parseScenario } from '../../src/scenario/schema.js';
import { CHECKPOINT_EVENTS } from '../../src/scenario/timeline.js';
import { World } from '../../src/world.js';

describe('the message history of a long run', () => {
  it('read from the checkpoints is the one a replay of the log holds', async () => {
    // A wait every 100 writes lets the secondary take the WALs: a primary keeps a snapshot per WAL
    // still on its way, and the state hash prints each (BENCHMARKS.md, "Other findings").
    const writes = Array.from({ length: 9000 }, (_, i) => (i % 100 === 99 ? { wait: '1s' } : { request: `POST secret/data/k${i % 500}`, on: 'east', body: { data: { v: i } } }));
    const parsed = parseScenario({
      name: 'a DR pair under writes',
      clusters: { east: {}, west: {} },
      steps: [
        { request: 'POST sys/replication/dr/primary/enable', on: 'east' },
        { request: 'POST sys/replication/dr/primary/secondary-token', on: 'east', body: { id: 'west' }, save: { t: 'wrap_info.token' } },
        { request: 'POST sys/replication/dr/secondary/enable', on: 'west', body: { token: '${t}' } },
        { wait: '2s' },
        ...writes,
        { partition: ['east', 'west'] },
        ...writes.slice(0, 200),
        { heal: 'all' },
        { wait: '10s' },
      ],
    });
    if (!parsed.success) throw new Error(parsed.error.message);
    const r = await runScenario(parsed.data);
    expect(r.verdict).toBe('valid');
    expect(r.world.log.length).toBeGreaterThan(CHECKPOINT_EVENTS);
    const lent = JSON.stringify(r.world.messages);
    expect(JSON.parse(lent).length).toBeGreaterThan(3000);
    expect(lent).toBe(JSON.stringify(World.replay(r.world.history()).messages));
  }, 60_000);
});
