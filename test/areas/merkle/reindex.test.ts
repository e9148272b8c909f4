import { describe, expect, it } from 'vitest';
import { isMerkleCorrupted, REINDEX_BASE_MS, REINDEX_FLUSH_MS_PER_OBJECT, REINDEX_MS_PER_OBJECT, reindexDurationMs } from '../../../src/areas/merkle/merkle.js';
import { World } from '../../../src/world.js';
import { toJsonl } from '../../../src/kernel/persist.js';
import { REINDEX, bodyOf, drOperationTokenOf, drSecondaryWorld, errorsOf, post, withDrRole } from '../operation-token/worlds.js';

/** A DR secondary holding `kvKeys` keys (plus its two mounts), with a DR operation token and a damaged page. */
function damaged(kvKeys: number, seed = 1) {
  const w = drSecondaryWorld({ kvKeys, seed });
  const token = drOperationTokenOf(w);
  w.areaStep({ kind: 'corrupt', on: 'west', tree: 'replicated', page: 4, subpage: 9 });
  w.areaStep({ kind: 'corrupt', on: 'west', tree: 'local', page: 0, subpage: 200 });
  return { w, token };
}

const reindex = (w: World, token: string, options: Record<string, unknown> = {}) => w.request('west', post(REINDEX, { dr_operation_token: token, ...options }));

describe('reindex on a DR secondary', () => {
  it('answers the envelope with a warning and no data, and starts a reindex', () => {
    const { w, token } = damaged(3);
    const r = reindex(w, token);
    expect(r.status).toBe(200);
    expect(bodyOf(r)).toMatchObject({ data: null, wrap_info: null, auth: null });
    expect(bodyOf(r).warnings).toEqual([expect.stringMatching(/^reindex started: walking 5 stored objects; it ends in \d+ ms of simulated time/)]);
    expect(w.log.at(-1)).toMatchObject({ type: 'reindex-started', cluster: 'west', objects: 5, diff: false, force: false, skipFlush: false });
  });

  it('takes time in proportion to the stored objects (mounts plus KV keys)', () => {
    const durations = [0, 10, 30].map((n) => {
      const { w, token } = damaged(n);
      const at = w.now;
      reindex(w, token);
      return w.state.clusters.named('west').merkle.reindexUntil! - at;
    });
    expect(durations[0]).toBe(REINDEX_BASE_MS + 2 * (REINDEX_MS_PER_OBJECT + REINDEX_FLUSH_MS_PER_OBJECT));
    expect(durations[1] - durations[0]).toBe(10 * (REINDEX_MS_PER_OBJECT + REINDEX_FLUSH_MS_PER_OBJECT));
    expect(durations[2] - durations[1]).toBe(20 * (REINDEX_MS_PER_OBJECT + REINDEX_FLUSH_MS_PER_OBJECT));
  });

  it('diff makes it slower and skip_flush shorter', () => {
    const plain = reindexDurationMs(100, { diff: false, skipFlush: false });
    expect(reindexDurationMs(100, { diff: true, skipFlush: false })).toBeGreaterThan(plain);
    expect(reindexDurationMs(100, { diff: false, skipFlush: true })).toBeLessThan(plain);
    const { w, token } = damaged(20);
    const at = w.now;
    const r = reindex(w, token, { diff: true, skip_flush: 'true', force: true });
    expect(w.state.clusters.named('west').merkle.reindexUntil! - at).toBe(reindexDurationMs(22, { diff: true, skipFlush: true }));
    expect(bodyOf(r).warnings).toHaveLength(2);
    expect(w.log.at(-1)).toMatchObject({ diff: true, force: true, skipFlush: true });
  });

  it('clears the corruption only when it ends, and records the time', () => {
    const { w, token } = damaged(10);
    reindex(w, token);
    const until = w.state.clusters.named('west').merkle.reindexUntil!;
    w.advance(until - w.now - 1);
    expect(isMerkleCorrupted(w.state.clusters.named('west'))).toBe(true);
    expect(w.state.clusters.named('west').merkle.lastReindexAt).toBeNull();
    w.advance(1);
    const m = w.state.clusters.named('west').merkle;
    expect(isMerkleCorrupted(w.state.clusters.named('west'))).toBe(false);
    expect(m).toMatchObject({ lastReindexAt: until, reindexUntil: null });
    expect(w.log.find((e) => e.type === 'reindex-finished')).toMatchObject({ at: until, cluster: 'west' });
  });

  it('a second reindex while one runs is refused and changes nothing', () => {
    const { w, token } = damaged(2);
    reindex(w, token);
    const hash = w.stateHash();
    const r = reindex(w, token);
    expect(r.status).toBe(400);
    expect(errorsOf(r)[0]).toMatch(/^a reindex is already running on this cluster/);
    expect(w.stateHash()).toBe(hash);
  });

  it('a cluster that is down when the reindex should end loses it: the damage stays', () => {
    const { w, token } = damaged(2);
    reindex(w, token);
    w.crash('west');
    w.advance(60_000);
    expect(w.log.some((e) => e.type === 'reindex-abandoned')).toBe(true);
    expect(w.state.clusters.named('west').merkle).toMatchObject({ reindexUntil: null, lastReindexAt: null });
    expect(isMerkleCorrupted(w.state.clusters.named('west'))).toBe(true);
  });

  it('needs the DR operation token', () => {
    const { w } = damaged(0);
    const hash = w.stateHash();
    expect(errorsOf(reindex(w, 'hvs.nottheone'))).toEqual(['invalid DR operation token']);
    expect(w.stateHash()).toBe(hash);
  });

  it('is refused on a cluster that is no longer a DR secondary, even with a token it kept', () => {
    const { w: dr, token } = damaged(0);
    const w = withDrRole(dr, 'west', 'disabled');
    const r = reindex(w, token);
    expect(r.status).toBe(400);
    expect(errorsOf(r)).toEqual(['this cluster is not a DR secondary: sys/replication/dr/secondary/reindex can only be called on a DR secondary']);
  });

  it('the same seed gives the same log, and a replay the same state', () => {
    const run = () => {
      const { w, token } = damaged(5, 3);
      reindex(w, token, { diff: true });
      w.advance(100_000);
      return w;
    };
    expect(toJsonl(run().log)).toBe(toJsonl(run().log));
    const w = run();
    expect(World.replay(w.log).stateHash()).toBe(w.stateHash());
  });
});
