import { describe, expect, it } from 'vitest';
import { decodeToken } from '../../../src/areas/core/crypto/otp.js';
import { WRONG_ROOT_KEY_ERROR } from '../../../src/areas/operation-token/operation-token.js';
import { World } from '../../../src/world.js';
import { toJsonl } from '../../../src/kernel/persist.js';
import {
  DR_ATTEMPT,
  DR_UPDATE,
  ROOT_ATTEMPT,
  ROOT_UPDATE,
  bodyOf,
  del,
  drSecondaryWorld,
  errorsOf,
  generateWithOtp,
  get,
  keysOf,
  plainWorld,
  post,
  withDrRole,
} from './worlds.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ALREADY = 'root generation already in progress';
const NONE = 'no root generation in progress';
const DUPLICATE = 'given key has already been provided during this generation operation';

/** The two strategies, each on the kind of cluster it is served on. */
const strategies = [
  { name: 'DR operation token', make: (seed = 1) => drSecondaryWorld({ seed }), cluster: 'west', attempt: DR_ATTEMPT, update: DR_UPDATE },
  { name: 'root token', make: (seed = 1) => plainWorld({ seed }), cluster: 'east', attempt: ROOT_ATTEMPT, update: ROOT_UPDATE },
] as const;

/** The token the finished attempt minted: the DR operation token, or the newest token in the store. */
function mintedToken(w: World, s: (typeof strategies)[number]): string {
  const c = w.state.clusters.named(s.cluster);
  if (s.attempt === DR_ATTEMPT) return c.drOperationToken!;
  const generated = Object.values(c.storage.tokens).filter((t) => t.name === 'generated-root');
  expect(generated).toHaveLength(1);
  return generated[0].id;
}

describe.each(strategies)('$name generation attempt: the transition table through the API', (s) => {
  it('none --start--> in progress: the response carries the nonce, the OTP and the required shares', () => {
    const w = s.make();
    const r = w.request(s.cluster, post(s.attempt));
    expect(r.status).toBe(200);
    const body = bodyOf(r);
    // Bare, like Vault's generate-root handlers: no request_id, no data envelope.
    expect(Object.keys(body).sort()).toEqual(
      ['complete', 'encoded_root_token', 'encoded_token', 'nonce', 'otp', 'otp_length', 'pgp_fingerprint', 'progress', 'required', 'started'].sort(),
    );
    expect(body).toMatchObject({ started: true, progress: 0, required: 3, complete: false, encoded_token: '', encoded_root_token: '', pgp_fingerprint: '', otp_length: 28 });
    expect(body.nonce).toMatch(UUID);
    expect(body.otp).toMatch(/^[0-9A-Za-z]{28}$/);
  });

  it('a status read shows the open attempt with its nonce, and an empty OTP', () => {
    const w = s.make();
    const started = bodyOf(w.request(s.cluster, post(s.attempt)));
    const read = bodyOf(w.request(s.cluster, get(s.attempt)));
    expect(read).toMatchObject({ nonce: started.nonce, started: true, progress: 0, required: 3, complete: false, otp: '', otp_length: 28 });
  });

  it('a status read with no attempt shows nothing started', () => {
    const w = s.make();
    expect(bodyOf(w.request(s.cluster, get(s.attempt)))).toEqual({
      nonce: '', started: false, progress: 0, required: 3, complete: false, encoded_token: '', encoded_root_token: '', pgp_fingerprint: '', otp: '', otp_length: 28,
    });
  });

  it('in progress --update below the threshold--> in progress, progress raised', () => {
    const w = s.make();
    const { nonce } = bodyOf(w.request(s.cluster, post(s.attempt)));
    const keys = keysOf(w, s.cluster);
    const first = bodyOf(w.request(s.cluster, post(s.update, { key: keys[0], nonce })));
    expect(first).toMatchObject({ nonce, started: true, progress: 1, required: 3, complete: false, encoded_token: '', encoded_root_token: '', otp: '' });
    w.request(s.cluster, post(s.update, { key: keys[1], nonce }));
    expect(bodyOf(w.request(s.cluster, get(s.attempt))).progress).toBe(2);
  });

  it('in progress --update reaching the threshold--> complete, the encoded token returned; the attempt is then forgotten', () => {
    const w = s.make();
    const { start, final } = generateWithOtp(w, s.cluster, s);
    expect(final).toMatchObject({ nonce: start.nonce, started: true, progress: 3, required: 3, complete: true, otp: '' });
    expect(final.encoded_token).toMatch(/^[A-Za-z0-9+/]+$/);
    expect(final.encoded_root_token).toBe(s.attempt === ROOT_ATTEMPT ? final.encoded_token : '');
    expect(bodyOf(w.request(s.cluster, get(s.attempt)))).toMatchObject({ started: false, nonce: '', progress: 0, complete: false, encoded_token: '' });
  });

  it('in progress --cancel--> none: 204, progress cleared, and a new start gets a new nonce', () => {
    const w = s.make();
    const { nonce } = bodyOf(w.request(s.cluster, post(s.attempt)));
    w.request(s.cluster, post(s.update, { key: keysOf(w, s.cluster)[0], nonce }));
    const r = w.request(s.cluster, del(s.attempt));
    expect(r).toEqual({ status: 204, body: null });
    expect(bodyOf(w.request(s.cluster, get(s.attempt)))).toMatchObject({ started: false, progress: 0, nonce: '' });
    const again = bodyOf(w.request(s.cluster, post(s.attempt)));
    expect(again.nonce).not.toBe(nonce);
    expect(again.progress).toBe(0);
  });

  it('cancel with no attempt answers 204 and appends nothing', () => {
    const w = s.make();
    const before = w.log.length;
    expect(w.request(s.cluster, del(s.attempt)).status).toBe(204);
    expect(w.log.length).toBe(before);
  });

  it('a finished attempt does not block the next start', () => {
    const w = s.make();
    generateWithOtp(w, s.cluster, s);
    expect(bodyOf(w.request(s.cluster, post(s.attempt))).started).toBe(true);
  });

  it('decodeToken(encoded_token, otp) gives the minted token', () => {
    const w = s.make();
    const { start, final } = generateWithOtp(w, s.cluster, s);
    const token = decodeToken(final.encoded_token, start.otp);
    expect(token).toMatch(/^hvs\.[0-9A-Za-z]{24}$/);
    expect(token).toBe(mintedToken(w, s));
  });

  it('key shares are accepted as hex as well as base64', () => {
    const w = s.make();
    const hexKeys = keysOf(w, s.cluster).map((k) => Buffer.from(k, 'base64').toString('hex'));
    const { start, final } = generateWithOtp(w, s.cluster, s, hexKeys);
    expect(decodeToken(final.encoded_token, start.otp)).toBe(mintedToken(w, s));
  });
});

describe.each(strategies)('$name generation attempt: refusals and their Vault texts', (s) => {
  function started() {
    const w = s.make();
    const { nonce } = bodyOf(w.request(s.cluster, post(s.attempt)));
    return { w, nonce, keys: keysOf(w, s.cluster) };
  }
  const refusal = (w: World, req: Parameters<World['request']>[1]) => {
    const r = w.request(s.cluster, req);
    expect(r.status).toBe(400);
    return errorsOf(r);
  };

  it('start while an attempt is in progress', () => {
    const { w } = started();
    expect(refusal(w, post(s.attempt))).toEqual([ALREADY]);
  });

  it('update with no attempt', () => {
    const w = s.make();
    expect(refusal(w, post(s.update, { key: keysOf(w, s.cluster)[0], nonce: 'x' }))).toEqual([NONE]);
  });

  it('update after the attempt completed', () => {
    const w = s.make();
    const { start } = generateWithOtp(w, s.cluster, s);
    expect(refusal(w, post(s.update, { key: keysOf(w, s.cluster)[3], nonce: start.nonce }))).toEqual([NONE]);
  });

  it('update with a wrong nonce names the right one', () => {
    const { w, nonce, keys } = started();
    expect(refusal(w, post(s.update, { key: keys[0], nonce: 'nope' }))).toEqual([`incorrect nonce supplied; nonce for this root generation operation is "${nonce}"`]);
  });

  it('a share given twice is refused, even in another encoding', () => {
    const { w, nonce, keys } = started();
    w.request(s.cluster, post(s.update, { key: keys[0], nonce }));
    expect(refusal(w, post(s.update, { key: keys[0], nonce }))).toEqual([DUPLICATE]);
    expect(refusal(w, post(s.update, { key: Buffer.from(keys[0], 'base64').toString('hex'), nonce }))).toEqual([DUPLICATE]);
  });

  it('a missing or empty key', () => {
    const { w, nonce } = started();
    expect(refusal(w, post(s.update, { nonce }))).toEqual(["'key' must be specified in request body as JSON"]);
    expect(refusal(w, post(s.update, { key: '', nonce }))).toEqual(["'key' must be specified in request body as JSON"]);
  });

  it('a key that is neither hex nor base64', () => {
    const { w, nonce } = started();
    expect(refusal(w, post(s.update, { key: 'not a key!', nonce }))).toEqual(["'key' must be a valid hex or base64 string"]);
  });

  it('a key too short to be a share', () => {
    const { w, nonce } = started();
    expect(refusal(w, post(s.update, { key: 'abcd', nonce }))).toEqual(['invalid key: key is shorter than minimum 16 bytes']);
  });

  it('a key longer than any share', () => {
    const { w, nonce } = started();
    expect(refusal(w, post(s.update, { key: Buffer.alloc(50, 7).toString('base64'), nonce }))).toEqual(['invalid key: key is longer than maximum 49 bytes']);
  });

  it('an OTP of the wrong length', () => {
    const w = s.make();
    expect(refusal(w, post(s.attempt, { otp: 'short' }))).toEqual(['OTP string is wrong length']);
  });

  it('shares that recombine to another key abort: progress is dropped, the attempt and nonce stay', () => {
    const { w, nonce, keys } = started();
    const foreign = keysOf(s.make(99), s.cluster);
    w.request(s.cluster, post(s.update, { key: keys[0], nonce }));
    w.request(s.cluster, post(s.update, { key: keys[1], nonce }));
    expect(refusal(w, post(s.update, { key: foreign[2], nonce }))).toEqual([WRONG_ROOT_KEY_ERROR]);
    expect(bodyOf(w.request(s.cluster, get(s.attempt)))).toMatchObject({ started: true, nonce, progress: 0 });
    expect(w.log.at(-1)).toMatchObject({ type: 'generation-aborted', reason: WRONG_ROOT_KEY_ERROR });
    // The right shares still finish the same attempt.
    for (const key of keys.slice(0, 2)) w.request(s.cluster, post(s.update, { key, nonce }));
    expect(bodyOf(w.request(s.cluster, post(s.update, { key: keys[2], nonce }))).complete).toBe(true);
  });

  it('refused requests leave the state hash unchanged and draw nothing from the generator', () => {
    const { w, nonce, keys } = started();
    const hash = w.stateHash();
    const logLength = w.log.length;
    refusal(w, post(s.attempt));
    refusal(w, post(s.update, { key: keys[0], nonce: 'nope' }));
    refusal(w, post(s.update, { key: 'zz', nonce }));
    refusal(w, post(s.attempt, { otp: 'short' }));
    expect(w.stateHash()).toBe(hash);
    expect(w.log.length).toBe(logLength);
    // A world that never saw the refusals goes on identically: they drew nothing.
    const twin = started().w;
    for (const world of [w, twin]) for (const key of keys.slice(0, 3)) world.request(s.cluster, post(s.update, { key, nonce }));
    expect(w.stateHash()).toBe(twin.stateHash());
  });
});

describe('generation attempts: what the OTP reveals', () => {
  it('the OTP is only in the start response: reads and updates give ""', () => {
    const w = drSecondaryWorld();
    const start = bodyOf(w.request('west', post(DR_ATTEMPT)));
    expect(start.otp).toHaveLength(28);
    const reads = [w.request('west', get(DR_ATTEMPT))];
    for (const key of keysOf(w, 'west').slice(0, 3)) {
      reads.push(w.request('west', post(DR_UPDATE, { key, nonce: start.nonce })));
      reads.push(w.request('west', get(DR_ATTEMPT)));
    }
    for (const r of reads) {
      expect(bodyOf(r).otp).toBe('');
      expect(JSON.stringify(r.body)).not.toContain(start.otp);
    }
  });

  it('an OTP the operator gives is used, and not repeated in the start response', () => {
    const w = plainWorld();
    const otp = 'A'.repeat(28);
    const start = bodyOf(w.request('east', post(ROOT_ATTEMPT, { otp })));
    expect(start).toMatchObject({ started: true, otp: '' });
    let final: any;
    for (const key of keysOf(w, 'east').slice(0, 3)) final = bodyOf(w.request('east', post(ROOT_UPDATE, { key, nonce: start.nonce })));
    const token = decodeToken(final.encoded_token, otp);
    expect(w.state.clusters.named('east').storage.tokens[token]?.policy).toBe('root');
  });
});

describe('root token generation (sys/generate-root)', () => {
  it('adds a new root token to the token store, which then reads KV data', () => {
    const w = plainWorld();
    const original = w.tokenNamed('east', 'root');
    w.request('east', { method: 'POST', path: 'secret/data/app', body: { data: { pw: 's3cret' } }, token: original });
    const { start, final } = generateWithOtp(w, 'east', { attempt: ROOT_ATTEMPT, update: ROOT_UPDATE });
    const token = decodeToken(final.encoded_root_token, start.otp);
    expect(token).not.toBe(original);
    expect(w.state.clusters.named('east').storage.tokens[token]).toMatchObject({ policy: 'root', namespace: '', name: 'generated-root' });
    const read = w.request('east', { method: 'GET', path: 'secret/data/app', token });
    expect(read.status).toBe(200);
    expect(bodyOf(read).data.data).toEqual({ pw: 's3cret' });
  });

  it('needs no client token and no enterprise licence', () => {
    const w = plainWorld({ spec: { license: 'none' } });
    expect(w.request('east', post(ROOT_ATTEMPT)).status).toBe(200);
  });

  it('is closed on a DR secondary, which uses the DR strategy', () => {
    const w = drSecondaryWorld();
    for (const req of [get(ROOT_ATTEMPT), post(ROOT_ATTEMPT), del(ROOT_ATTEMPT), post(ROOT_UPDATE, { key: 'x', nonce: 'y' })]) {
      const r = w.request('west', req);
      expect(r.status).toBe(400);
      expect(errorsOf(r)).toEqual(['path disabled in replication DR secondary mode']);
    }
  });

  it('is restricted to the root namespace', () => {
    const w = plainWorld({ spec: { namespaces: ['team-a'] } });
    const r = w.request('east', { ...post(ROOT_ATTEMPT), namespace: 'team-a' });
    expect(r.status).toBe(400);
    expect(errorsOf(r)).toEqual(['this endpoint can only be called from the root namespace']);
  });

  it('a threshold of one completes on the first share', () => {
    const w = plainWorld({ spec: { keyShares: 1, keyThreshold: 1 } });
    const { start, final } = generateWithOtp(w, 'east', { attempt: ROOT_ATTEMPT, update: ROOT_UPDATE });
    expect(start.required).toBe(1);
    expect(final).toMatchObject({ complete: true, progress: 1, required: 1 });
    expect(w.state.clusters.named('east').storage.tokens[decodeToken(final.encoded_token, start.otp)]).toBeDefined();
  });
});

describe('DR operation token generation', () => {
  it('stores the token as the cluster DR operation token, with no TTL, and keeps it out of the token store', () => {
    const w = drSecondaryWorld();
    const tokensBefore = Object.keys(w.state.clusters.named('west').storage.tokens).length;
    const { start, final } = generateWithOtp(w, 'west', { attempt: DR_ATTEMPT, update: DR_UPDATE });
    const token = decodeToken(final.encoded_token, start.otp);
    expect(w.state.clusters.named('west').drOperationToken).toBe(token);
    expect(Object.keys(w.state.clusters.named('west').storage.tokens)).toHaveLength(tokensBefore);
    expect(final.encoded_root_token).toBe('');
  });

  it('a second generation replaces the first token', () => {
    const w = drSecondaryWorld();
    generateWithOtp(w, 'west', { attempt: DR_ATTEMPT, update: DR_UPDATE });
    const first = w.state.clusters.named('west').drOperationToken;
    generateWithOtp(w, 'west', { attempt: DR_ATTEMPT, update: DR_UPDATE });
    expect(w.state.clusters.named('west').drOperationToken).not.toBe(first);
  });

  it('is refused on a cluster that is not a DR secondary', () => {
    const w = plainWorld();
    for (const req of [get(DR_ATTEMPT), post(DR_ATTEMPT), del(DR_ATTEMPT), post(DR_UPDATE, { key: keysOf(w, 'east')[0], nonce: 'x' })]) {
      const r = w.request('east', req);
      expect(r.status).toBe(400);
      expect(errorsOf(r)[0]).toMatch(/^this cluster is not a DR secondary: sys\/replication\/dr\/secondary\/generate-operation-token\/(attempt|update) can only be called on a DR secondary; use sys\/generate-root\/attempt/);
    }
  });

  it('needs an enterprise licence', () => {
    const w = withDrRole(World.create({ west: { license: 'none' } }), 'west', 'secondary.unassigned');
    const r = w.request('west', post(DR_ATTEMPT));
    expect(r.status).toBe(404);
    expect(errorsOf(r)).toEqual(['enterprise-only feature']);
  });

  it('incorrect strategy: an update through sys/generate-root while a DR attempt is open (e.g. after a promotion)', () => {
    const dr = drSecondaryWorld();
    const { nonce } = bodyOf(dr.request('west', post(DR_ATTEMPT)));
    // The same history on a cluster that is no longer a DR secondary: the DR attempt is still open.
    const w = withDrRole(dr, 'west', 'disabled');
    const key = keysOf(w, 'west')[0];
    const r = w.request('west', post(ROOT_UPDATE, { key, nonce }));
    expect(r.status).toBe(400);
    expect(errorsOf(r)).toEqual(['incorrect strategy supplied; a generate root operation of another type is already in progress']);
    expect(errorsOf(w.request('west', post(ROOT_ATTEMPT)))).toEqual([ALREADY]);
    // Reading and cancelling do not look at the strategy, as in Vault.
    expect(bodyOf(w.request('west', get(ROOT_ATTEMPT)))).toMatchObject({ started: true, nonce });
    expect(w.request('west', del(ROOT_ATTEMPT)).status).toBe(204);
    expect(bodyOf(w.request('west', post(ROOT_ATTEMPT))).started).toBe(true);
  });
});

describe('generation attempts: determinism and replay', () => {
  function run(seed: number): World {
    const w = drSecondaryWorld({ seed });
    const start = bodyOf(w.request('west', post(DR_ATTEMPT)));
    const keys = keysOf(w, 'west');
    w.request('west', post(DR_UPDATE, { key: keys[0], nonce: start.nonce }));
    w.request('west', post(DR_UPDATE, { key: keysOf(drSecondaryWorld({ seed: seed + 1 }), 'west')[1], nonce: start.nonce }));
    w.request('west', post(DR_UPDATE, { key: keys[4], nonce: start.nonce }));
    for (const key of keys.slice(1, 4)) w.request('west', post(DR_UPDATE, { key, nonce: start.nonce }));
    w.request('west', post(DR_ATTEMPT));
    w.request('west', del(DR_ATTEMPT));
    return w;
  }

  it('the same seed gives a byte-identical log', () => {
    expect(toJsonl(run(5).log)).toBe(toJsonl(run(5).log));
  });

  it('replaying the log rebuilds the same state, the open attempt secret included', () => {
    const w = run(5);
    expect(World.replay(w.log).stateHash()).toBe(w.stateHash());
    const open = drSecondaryWorld({ seed: 5 });
    open.request('west', post(DR_ATTEMPT));
    const replayed = World.replay(structuredClone(open.log));
    expect(replayed.stateHash()).toBe(open.stateHash());
    // The replayed attempt can still be finished: its OTP came back from the log.
    const { nonce } = bodyOf(replayed.request('west', get(DR_ATTEMPT)));
    let final: any;
    for (const key of keysOf(replayed, 'west').slice(0, 3)) final = bodyOf(replayed.request('west', post(DR_UPDATE, { key, nonce })));
    expect(final.complete).toBe(true);
  });
});

describe('generation attempts replayed: evolve applies the row each event records', () => {
  it('a history whose share arrives with no attempt open is refused, naming the row the machine lacks', () => {
    const w = plainWorld({ seed: 3 });
    generateWithOtp(w, 'east', { attempt: ROOT_ATTEMPT, update: ROOT_UPDATE });
    expect(World.replay(w.log).stateHash()).toBe(w.stateHash());
    // The attempt's opening taken out: its first share now meets no attempt in progress.
    const edited = w.log.filter((e) => e.type !== 'generation-started').map((e, i) => ({ ...e, seq: i + 1 }));
    expect(() => World.replay(edited)).toThrow(/no "update" row doing recordShare in state none: the log and the machine disagree/);
  });
});
