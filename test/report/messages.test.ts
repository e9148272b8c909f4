// The report's space-time diagram reads the bus (src/report/messages.ts): every arrow is a message
// the bus delivered, with the bus's own send and delivery times, not times inferred from the log.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lostMessagesOf, messagesOf } from '../../src/report/messages.js';
import { loadScenario } from '../../src/scenario/loader.js';
import { runScenario } from '../../src/scenario/runner.js';
import { drWorld, enablePrimary, enableSecondary, writeKv } from '../areas/replication/helpers.js';

async function run(file: string) {
  const loaded = loadScenario(readFileSync(file, 'utf8'), file);
  if (!loaded.ok) throw new Error(file);
  return runScenario(loaded.scenario);
}

describe('the report reads the bus', () => {
  it.each(['scenarios/01-dr-setup.yaml', 'scenarios/09-perf-allow-filter.yaml', 'scenarios/17-dr-sealed-token-and-partition.yaml', 'scenarios/20-sync-codehost.yaml'])('%s: each arrow is a delivered bus message', async (file) => {
    const r = await run(file);
    const bus = r.world.messages;
    const arrows = messagesOf(bus);
    expect(arrows.length).toBeGreaterThan(0);
    for (const a of arrows) {
      const carried = bus.filter((m) => m.deliveredBy === a.seq && m.from === a.from && m.to === a.to && m.kind === a.kind);
      expect(carried.length, `${a.kind} ${a.from}→${a.to} at ${a.at}`).toBeGreaterThan(0);
      expect(a.at).toBe(carried[0].deliveredAt);
      expect(a.sentAt).toBe(Math.min(...carried.map((m) => m.sentAt)));
    }
    // Every delivered message is drawn (WALs of one delivery as one arrow; those a merkle sync brought, by the sync's arrow).
    const delivered = bus.filter((m) => m.deliveredBy !== null);
    for (const m of delivered) expect(arrows.some((a) => a.seq === m.deliveredBy && a.from === m.from && a.to === m.to && (a.kind === m.kind || a.kind === 'merkle-sync'))).toBe(true);
    // In the order delivered, as sequence.md reads them.
    expect(arrows.map((a) => a.seq)).toEqual([...arrows.map((a) => a.seq)].sort((x, y) => x - y));
  });

  it('draws a WAL held back by a partition from its writing to its delivery after heal, and the WALs sent on reconnection after it', () => {
    const w = drWorld({ latencyMs: 40 });
    enablePrimary(w, 'east');
    enableSecondary(w, 'east', 'west');
    w.advance(1000);
    w.partition(['east', 'west']);
    const writtenAt = w.now;
    writeKv(w, 'east', 'a', { v: 1 });
    w.advance(500);
    writeKv(w, 'east', 'b', { v: 2 });
    const last = w.state.clusters.named('east').wal.last;
    w.advance(500);
    const healedAt = w.now;
    w.heal(['east', 'west']);
    w.advance(1000);
    const [held, resumed] = messagesOf(w.messages).filter((a) => a.kind === 'wal' && a.to === 'west').slice(-2);
    // The WAL written before west noticed the drop was on its way: held until the heal, then it crosses the link.
    expect(held).toMatchObject({ from: 'east', sentAt: writtenAt, at: healedAt + 40, label: `WAL ${last - 1} (DR)` });
    // The one written after is sent when west reconnects (its connection attempt also crossed after the heal).
    const reconnect = messagesOf(w.messages).filter((a) => a.kind === 'connect' && a.from === 'west').at(-1)!;
    expect(reconnect.at).toBe(healedAt + 40);
    expect(resumed).toMatchObject({ from: 'east', sentAt: reconnect.at, at: reconnect.at + 40, label: `WAL ${last} (DR)` });
  });

  it('draws a write a performance secondary forwarded to its primary, as the log records it', async () => {
    const r = await run('scenarios/09-perf-allow-filter.yaml');
    const forwarded = messagesOf(r.world.messages).filter((a) => a.kind === 'forwarded-write');
    expect(forwarded.length).toBe(1);
    const event = r.world.log.find((e) => e.seq === forwarded[0].seq) as { type: string; cluster: string; forwardedBy?: string };
    expect(event.type).toBe('kv-written');
    expect([forwarded[0].from, forwarded[0].to]).toEqual([event.forwardedBy, event.cluster]);
  });
});

describe('heartbeats in the report', () => {
  it('draws the heartbeats between two steps, thinned to the first and last round trips, the last saying how many more crossed; one on its way at the end is not lost', () => {
    const w = drWorld({ latencyMs: 40 });
    enablePrimary(w, 'east');
    enableSecondary(w, 'east', 'west');
    w.advance(1000);
    w.advance(3_600_000);
    const bus = w.messages;
    const carried = bus.filter((m) => m.kind === 'heartbeat' && m.deliveredAt !== null);
    expect(carried.length).toBeGreaterThan(1400);
    const arrows = messagesOf(bus).filter((a) => a.kind === 'heartbeat');
    const numbers = carried.filter((m) => m.from === 'west').map((m) => m.order);
    const first = Math.min(...numbers);
    const last = Math.max(...numbers);
    expect(arrows.map((a) => `${a.from}>${a.to} ${a.label}`)).toEqual([
      `west>east heartbeat ${first} (DR)`,
      `east>west heartbeat ${first} answer (DR)`,
      `west>east heartbeat ${last} (DR), after ${last - first - 1} more not drawn (${first + 1}–${last - 1})`,
      `east>west heartbeat ${last} answer (DR)`,
    ]);
    // Each drawn arrow is a heartbeat the bus delivered, at its times.
    for (const a of arrows) expect(carried.some((m) => m.deliveredAt === a.at && m.sentAt === a.sentAt && m.deliveredBy === a.seq)).toBe(true);
    expect(lostMessagesOf(bus).filter((m) => m.kind === 'heartbeat')).toEqual([]);
  });

  it('draws a heartbeat dropped when its connection ended as lost', () => {
    const w = drWorld({ latencyMs: 2000 });
    enablePrimary(w, 'east');
    enableSecondary(w, 'east', 'west');
    // Connected at 2 s; echo 2 leaves at 12 s and is 2 s on its way when the link is cut.
    w.advance(13_000);
    w.partition(['east', 'west']);
    w.advance(1000);
    const lost = lostMessagesOf(w.messages).filter((m) => m.kind === 'heartbeat');
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatchObject({ from: 'west', to: 'east', reason: 'connection lost: link west–east cut' });
  });
});
