// sys/replication/recover, sys/replication/dr/secondary/recover and the DR secondary's config
// reload: each success and each refusal, through the API.
import { describe, expect, it } from 'vitest';
import { World } from '../../../src/world.js';
import { DR, bodyOf, drOperationToken, drPair, drStatus, drWorld, expectOk, expectRefused, post, rootOf } from './helpers.js';

const spec = { mounts: { secret: 'kv-v2' as const } };

describe('recover', () => {
  it('on a DR secondary waiting out its backoff, dials its primary again at once and streams', () => {
    const w = drWorld();
    drPair(w);
    const token = drOperationToken(w, 'west', 'east');
    w.crash('east');
    w.advance(60_000);
    w.restart('east');
    w.advance(100);
    // Still waiting for the next attempt of its backoff.
    expect(drStatus(w, 'west').connection_state).not.toBe('ready');
    // Left alone, it would wait longer than the second a recovered one takes.
    const alone = w.fork();
    alone.advance(1_000);
    expect(drStatus(alone, 'west').connection_state).not.toBe('ready');
    const r = expectOk(post(w, 'west', `${DR}/secondary/recover`, { dr_operation_token: token }, null));
    expect(bodyOf(r).warnings).toEqual(['DR replication restarted: west closed its connection to east and connects again, then checks its data with a merkle diff']);
    expect(w.log.at(-1)).toMatchObject({ type: 'replication-recovered', cluster: 'west', kinds: ['dr'] });
    w.advance(1_000);
    expect(drStatus(w, 'west')).toMatchObject({ state: 'stream-wals' });
    expect(drStatus(w, 'west').connection_state).toBe('ready');
    // The log replays to the same world, the recovery included.
    expect(World.replay(JSON.parse(JSON.stringify(w.log))).stateHash()).toBe(w.stateHash());
  });

  it('sys/replication/recover on a primary has nothing to restart; on a cluster without replication it is refused', () => {
    const w = drWorld();
    drPair(w);
    const before = w.log.length;
    expect(bodyOf(expectOk(post(w, 'east', 'sys/replication/recover'))).warnings[0]).toContain('nothing to restart');
    expect(w.log.length).toBe(before);
    expectRefused(post(w, 'south', 'sys/replication/recover'), 400, 'replication is not enabled on this cluster');
  });

  it('dr/secondary/recover needs a DR secondary and its DR operation token; sys/replication/recover is closed there', () => {
    const w = drWorld();
    drPair(w);
    expectRefused(post(w, 'east', `${DR}/secondary/recover`, {}), 400, 'this cluster is not a DR secondary');
    expectRefused(post(w, 'west', `${DR}/secondary/recover`, { dr_operation_token: 'nope' }, null), 400, 'invalid DR operation token');
    expect(post(w, 'west', 'sys/replication/recover', {}, rootOf(w, 'east')).status).toBe(400);
  });
});

describe('DR secondary config reload', () => {
  it('reloads the licence (nothing changes: 204); another subsystem is an unsupported path; only on a DR secondary', () => {
    const w = drWorld({ clusters: { east: { ...spec, version: '2.1.0' }, west: { ...spec, version: '2.1.0' }, south: spec } });
    drPair(w);
    // 2.x: the DR secondary takes its primary's root token.
    const root = rootOf(w, 'east');
    const before = w.log.length;
    expect(post(w, 'west', `${DR}/secondary/config/reload/license`, {}, root).status).toBe(204);
    expect(w.log.length).toBe(before);
    expectRefused(post(w, 'west', `${DR}/secondary/config/reload/cors`, {}, root), 404, 'unsupported path');
    expectRefused(post(w, 'east', `${DR}/secondary/config/reload/license`, {}), 400, 'this cluster is not a DR secondary');
    expect(post(w, 'west', `${DR}/secondary/config/reload/license`, {}, null).status).toBe(403);
  });
});
