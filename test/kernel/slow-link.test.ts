// A slowed link (the `slow` step, World.slow): what is sent on it takes the slowed latency, in order;
// `heal` restores the link's latency while what was sent meanwhile arrives when it was due; the log
// replays to the same world; and a world that never slows a link keeps the network it always had.
import { describe, expect, it } from 'vitest';
import { ctlStep } from '../../src/cli/serve.js';
import { loadScenario } from '../../src/scenario/loader.js';
import { runScenario } from '../../src/scenario/runner.js';
import { World } from '../../src/world.js';

const SLOW = `name: a slowed link
seed: 1
clusters:
  east: {}
  west: {}
steps:
  # west, a DR secondary of east, streaming
  - { request: POST sys/replication/dr/primary/enable, on: east }
  - { request: POST sys/replication/dr/primary/secondary-token, on: east, body: { id: west }, save: { westToken: wrap_info.token } }
  - { request: POST sys/replication/dr/secondary/enable, on: west, body: { token: "\${westToken}" } }
  - wait: 2s
  - slow: { link: [west, east], latency: 3s }
  - request: POST secret/data/app
    on: east
    body: { data: { v: 1 } }
  - heal: [east, west]
  - request: POST secret/data/app
    on: east
    body: { data: { v: 2 } }
  - wait: 2s
  - name: the WAL sent while the link was slow has not arrived, nor the one sent after it
    request: GET sys/replication/dr/status
    on: west
    token: none
    expect: { data: { last_remote_wal: 1 } }
  - wait: 1s
  - name: both arrive when the slow one was due, in order
    request: GET sys/replication/dr/status
    on: west
    token: none
    expect: { data: { last_remote_wal: 3 } }
  - wait: 1m
`;

describe('a slowed link', () => {
  it('delays what is sent on it, keeps the stream in order, and the heal restores its latency; no invariant breaks', async () => {
    const loaded = loadScenario(SLOW, 'slow.yaml');
    if (!loaded.ok) throw new Error(loaded.errors[0].message);
    const run = await runScenario(loaded.scenario);
    expect(run.reasons).toEqual([]);
    expect(run.verdict).toBe('valid');
    const world = run.world!;
    expect(world.state.network.slow).toBeUndefined();
    const wals = world.messages.filter((m) => m.kind === 'wal');
    expect(wals.map((m) => m.dueAt! - m.sentAt)).toEqual([3000, 3000]);
    // The log alone rebuilds the same world.
    expect(World.replay(world.history()).stateHash()).toBe(world.stateHash());
  });

  it('is refused on an unknown cluster, on a link to itself and without a latency', () => {
    const bad = (slow: string) => loadScenario(`name: x\nclusters:\n  east: {}\n  west: {}\nsteps:\n  - slow: ${slow}\n`, 'x.yaml');
    const unknown = bad('{ link: [east, wset], latency: 1s }');
    expect(!unknown.ok && unknown.errors[0].message).toMatch(/unknown cluster "wset".*did you mean "west"/);
    const self = bad('{ link: [east, east], latency: 1s }');
    expect(!self.ok && self.errors[0].message).toMatch(/a link joins two different clusters/);
    const none = bad('{ link: [east, west] }');
    expect(none.ok).toBe(false);
    const w = World.create({ east: {}, west: {} }, { seed: 1 });
    expect(() => w.slow(['east', 'west'], 0)).toThrow(/at least 1/);
  });

  it('replsim ctl slow A B LATENCY is the scenario step', () => {
    expect(ctlStep('slow', ['east', 'west', '2s'])).toEqual({ slow: { link: ['east', 'west'], latency: '2s' } });
    expect(ctlStep('slow', ['east'])).toMatch(/usage: replsim ctl slow A B LATENCY/);
  });

  it('a world that never slows a link has no `slow` in its network', () => {
    const w = World.create({ east: {}, west: {} }, { seed: 1 });
    w.partition(['east', 'west']);
    w.heal('all');
    expect('slow' in w.state.network).toBe(false);
  });
});
