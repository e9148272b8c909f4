// The bus between the clusters (src/kernel/bus.ts): one replicated write followed as messages, from
// the primary to each secondary, delayed by the link latency, held back by a partition, delivered
// after heal, in order; and the same messages read back from a replay of the log.
import { describe, expect, it } from 'vitest';
import type { BusMessage, BusRecord } from '../../src/kernel/bus.js';
import { readFileSync } from 'node:fs';
import { loadScenario } from '../../src/scenario/loader.js';
import { runScenario } from '../../src/scenario/runner.js';
import { World } from '../../src/world.js';
import { drWorld, enablePrimary, enableSecondary, writeKv } from '../areas/replication/helpers.js';

const LATENCY = 40;

/** The WAL messages from east to `to`, in the order sent. */
const walsTo = (w: World, to: string) => w.messages.filter((m) => m.kind === 'wal' && m.from === 'east' && m.to === to);

describe('the bus between the clusters', () => {
  it('carries one replicated write from the primary to each secondary: delayed by latency, held by a partition, delivered after heal, in order', () => {
    const w = drWorld({ latencyMs: LATENCY });
    enablePrimary(w, 'east');
    enableSecondary(w, 'east', 'west');
    enableSecondary(w, 'east', 'south');
    w.advance(1000);
    // Everything sent so far has arrived (the tokens issued are replicated writes too).
    expect(w.inFlight).toEqual([]);
    const records: BusRecord[] = [];
    w.bus$.subscribe((r) => records.push({ phase: r.phase, message: { ...r.message } }));

    // Cut south off, then write once on east: one WAL, one message to each follower.
    w.partition(['east', 'south']);
    const writtenAt = w.now;
    expect(writeKv(w, 'east', 'k', { v: 1 }).status).toBeLessThan(300);
    const wal = w.state.clusters.named('east').wal.last;
    const toWest = walsTo(w, 'west').find((m) => m.order === wal)!;
    const toSouth = walsTo(w, 'south').find((m) => m.order === wal)!;
    for (const m of [toWest, toSouth]) expect(m).toMatchObject({ kind: 'wal', from: 'east', sentAt: writtenAt, order: wal, deliveredAt: null });
    expect(records.filter((r) => r.phase === 'sent').map((r) => r.message.to)).toEqual(['south', 'west']);

    // Delayed by the link latency: not there one ms early, there on time.
    w.advance(LATENCY - 1);
    expect(toWest.deliveredAt).toBeNull();
    w.advance(1);
    expect(toWest.deliveredAt).toBe(writtenAt + LATENCY);
    expect(w.state.clusters.named('west').replication.dr.lastRemoteWal).toBe(wal);

    // Held back by the partition, however long it lasts; so is south's attempt to connect again, sent
    // when it noticed the link drop.
    w.advance(10_000);
    expect(toSouth.deliveredAt).toBeNull();
    const retry = w.messages.filter((m) => m.kind === 'connect' && m.from === 'south').at(-1)!;
    expect(retry).toMatchObject({ to: 'east', sentAt: writtenAt, dueAt: writtenAt + LATENCY, deliveredAt: null, droppedAt: null });
    expect(w.inFlight.map((m) => m.id)).toEqual([toSouth.id, retry.id]);
    expect(w.state.clusters.named('south').replication.dr.lastRemoteWal).toBeLessThan(wal);

    // Two more writes while cut off, then heal: all three arrive, in the order written, after the reconnection.
    writeKv(w, 'east', 'k2', { v: 2 });
    writeKv(w, 'east', 'k3', { v: 3 });
    const healedAt = w.now;
    w.heal(['east', 'south']);
    w.advance(1000);
    const south = walsTo(w, 'south').filter((m) => m.order >= wal);
    expect(south.map((m) => m.order)).toEqual([wal, wal + 1, wal + 2]);
    for (const m of south) expect(m.deliveredAt).toBeGreaterThanOrEqual(healedAt + LATENCY);
    const deliveries = records.filter((r) => r.phase === 'delivered' && r.message.to === 'south' && r.message.kind === 'wal').map((r) => r.message.order);
    expect(deliveries).toEqual([wal, wal + 1, wal + 2]);
    // The connection that carried them is a message too, sent at the drop and crossing the link once healed.
    expect(retry.deliveredAt).toBe(healedAt + LATENCY);
    for (const m of south) expect(m.deliveredAt).toBeGreaterThanOrEqual(retry.deliveredAt!);
    expect(w.state.clusters.named('south').storage.kv['secret/']?.get('k3')).toBeDefined();
    expect(w.inFlight).toEqual([]);
  });

  it('drops what was on its way to a secondary that crashed, and resumes the stream from its WAL position after the restart', () => {
    const w = drWorld({ latencyMs: LATENCY });
    enablePrimary(w, 'east');
    enableSecondary(w, 'east', 'west');
    w.advance(1000);
    const records: BusRecord[] = [];
    w.bus$.subscribe((r) => records.push({ phase: r.phase, message: { ...r.message } }));

    expect(writeKv(w, 'east', 'lost', { v: 1 }).status).toBeLessThan(300);
    const wal = w.state.clusters.named('east').wal.last;
    const before = w.state.clusters.named('west').replication.dr.lastRemoteWal;
    w.advance(LATENCY / 2);
    // West crashes with the WAL half way: the WAL is dropped with its connection, recorded as such.
    w.crash('west');
    const first = walsTo(w, 'west').find((m) => m.order === wal)!;
    expect(first).toMatchObject({ deliveredAt: null, droppedAt: w.now, dropReason: 'west crashed' });
    expect(records.filter((r) => r.phase === 'dropped').map((r) => r.message.id)).toEqual([first.id]);
    expect(w.inFlight).toEqual([]);
    // The crash ended west's connection at both ends: writes after it send west nothing until it
    // has dialled again (streaming.ts `withConnectionsLost`).
    writeKv(w, 'east', 'while-down', { v: 2 });
    w.advance(5000);
    writeKv(w, 'east', 'while-down-2', { v: 3 });
    w.advance(5000);
    expect(w.state.clusters.named('west').replication.dr.lastRemoteWal).toBe(before);
    expect(walsTo(w, 'west').filter((m) => m.order > wal)).toEqual([]);

    // Restarted: it reconnects, and the primary resumes from west's WAL position: both WALs again, in order.
    const restartedAt = w.now;
    w.restart('west');
    w.advance(1000);
    const resumed = walsTo(w, 'west').filter((m) => m.order >= wal && m.deliveredAt !== null);
    expect(resumed.map((m) => m.order)).toEqual([wal, wal + 1, wal + 2]);
    const reconnect = w.messages.filter((m) => m.kind === 'connect' && m.from === 'west').at(-1)!;
    for (const m of resumed) {
      expect(m.sentAt).toBe(reconnect.deliveredAt);
      expect(m.deliveredAt).toBe(m.sentAt + LATENCY);
      expect(m.sentAt).toBeGreaterThanOrEqual(restartedAt);
    }
    expect(w.state.clusters.named('west').replication.dr.lastRemoteWal).toBe(wal + 2);
    expect(w.state.clusters.named('west').storage.kv['secret/']?.get('while-down-2')).toBeDefined();
    expect(w.inFlight).toEqual([]);
  });

  it('delivers each WAL one latency after it was written, with the data as of that WAL, however fast writes follow', () => {
    const w = drWorld({ latencyMs: LATENCY });
    enablePrimary(w, 'east');
    enableSecondary(w, 'east', 'west');
    w.advance(1000);
    const start = w.now;
    const west = () => w.state.clusters.named('west').storage.kv['secret/'];
    // A write every quarter latency: the stream never goes quiet for a whole latency. Each write has
    // arrived one latency after it was made, and the one made after it has not.
    for (let i = 0; i < 12; i++) {
      writeKv(w, 'east', `k${i}`, { v: i });
      w.advance(LATENCY / 4);
      const arrived = i - 3;
      if (arrived >= 0) expect(west()?.get(`k${arrived}`), `k${arrived} at +${w.now - start} ms`).toBeDefined();
      expect(west()?.get(`k${arrived + 1}`), `k${arrived + 1} at +${w.now - start} ms`).toBeUndefined();
    }
    w.advance(1000);
    for (const m of walsTo(w, 'west').filter((x) => x.sentAt >= start)) expect(m.deliveredAt).toBe(m.sentAt + LATENCY);
    // The snapshots kept for WALs on their way are gone once every follower has them.
    expect(w.state.walAsOf).toBeUndefined();
  });

  it('an hour of quiet on a connected link appends one event: a heartbeat that changes nothing is a message, not an event', () => {
    const w = drWorld({ latencyMs: LATENCY });
    enablePrimary(w, 'east');
    enableSecondary(w, 'east', 'west');
    w.advance(1000);
    const events = w.log.length;
    const messages = w.messages.length;
    w.advance(3_600_000);
    expect(w.log.slice(events).map((e) => e.type)).toEqual(['time-advanced']);
    // The bus carried the heartbeats meanwhile (an echo and its answer every 5 s), nothing else.
    expect(new Set(w.messages.slice(messages).map((m) => m.kind))).toEqual(new Set(['heartbeat']));
    const status = w.request('east', { method: 'GET', path: 'sys/replication/dr/status' }).body as { data: { secondaries: { last_heartbeat: string; last_heartbeat_duration_ms: string; connection_status: string }[] } };
    // The last echo east received strictly before now: west sends one every 5 s from the connection's start, each one latency on its way.
    const t0 = w.log.find((e) => e.type === 'replication-secondary-connected')!.at;
    const last = t0 + Math.floor((w.now - t0 - LATENCY - 1) / 5000) * 5000 + LATENCY;
    expect(status.data.secondaries[0]).toMatchObject({ connection_status: 'connected', last_heartbeat: new Date(Date.UTC(2026, 0, 1) + last).toISOString().replace('.000', ''), last_heartbeat_duration_ms: String(2 * LATENCY) });
  });

  it('holds the same messages after a replay of the log', () => {
    const w = drWorld({ latencyMs: LATENCY });
    enablePrimary(w, 'east');
    enableSecondary(w, 'east', 'west');
    w.advance(500);
    w.partition(['east', 'west']);
    writeKv(w, 'east', 'a', { v: 1 });
    w.advance(500);
    const replayed = World.replay(w.history());
    const plain = (ms: readonly BusMessage[]) => JSON.parse(JSON.stringify(ms)) as unknown;
    expect(plain(replayed.messages)).toEqual(plain(w.messages));
    expect(replayed.inFlight.map((m) => m.id)).toEqual(w.inFlight.map((m) => m.id));
    // The WAL and west's attempt to connect again, both held by the partition.
    expect(w.inFlight.map((m) => m.kind)).toEqual(['wal', 'connect']);
    expect(w.messages.map((m) => m.kind)).toEqual(expect.arrayContaining(['unwrap', 'connect', 'merkle-sync', 'wal']));
    // The replayed world continues as the original: the held WAL crosses the healed link in both.
    for (const x of [w, replayed]) {
      x.heal('all');
      x.advance(500);
    }
    expect(JSON.stringify(replayed.log)).toBe(JSON.stringify(w.log));
    expect(plain(replayed.messages)).toEqual(plain(w.messages));
    expect(w.inFlight).toEqual([]);
  });

  it('is what the lost-writes hazard reads: the WALs still on the way to a secondary promoted after its primary crashed', async () => {
    const file = 'scenarios/23-dr-lost-writes-after-promotion.yaml';
    const loaded = loadScenario(readFileSync(file, 'utf8'), file);
    if (!loaded.ok) throw new Error(file);
    const r = await runScenario(loaded.scenario);
    const promoted = r.world.log.find((e) => e.type === 'replication-secondary-promoted')!;
    const onTheWay = r.world.messages.filter((m) => m.kind === 'wal' && m.to === 'west' && m.sentBy < promoted.seq! && (m.deliveredBy === null || m.deliveredBy > promoted.seq!));
    expect(onTheWay.map((m) => m.order)).toEqual([3, 4]);
    const finding = r.findings.find((f) => f.id === 'lost-writes')!;
    expect(finding.message).toContain('WALs 3–4 were still on the way to it');
  });
});
