// The operation-token reducers build the next state without an immer draft (their direct forms,
// issue #15). For every generation event and DR operation-token delete of real runs — the gallery
// scenarios, and worlds below that generate root tokens, cancel, abort with foreign shares, and
// start with a PGP key — the direct form's state is the draft form's: the same values, keys in the
// same order (order-sensitive JSON), every object frozen.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as openpgp from 'openpgp';
import { describe, expect, it } from 'vitest';
import { AREAS } from '../../../src/areas.js';
import { throughDraft, type SimDraft } from '../../../src/areas/core/draft.js';
import type { SimEvent } from '../../../src/areas/core/events.js';
import type { SimState } from '../../../src/areas/core/state.js';
import { operationTokenReducers } from '../../../src/areas/operation-token/evolve.js';
import { gatherWorldReducers } from '../../../src/kernel/area.js';
import { applyEvent } from '../../../src/kernel/engine.js';
import { networkReducers } from '../../../src/kernel/network.js';
import { loadScenario } from '../../../src/scenario/loader.js';
import { runScenario } from '../../../src/scenario/runner.js';
import { reducers, World } from '../../../src/world.js';
import { objects } from '../../kernel/reachable.js';
import { DR_ATTEMPT, DR_UPDATE, OP_TOKEN_DELETE, ROOT_ATTEMPT, ROOT_UPDATE, bodyOf, del, drOperationTokenOf, drSecondaryWorld, generateWithOtp, keysOf, plainWorld, post } from './worlds.js';

const TYPES = new Set(Object.keys(operationTokenReducers));

/** The world's reducers with the operation-token area's drafting every event (no direct form). */
const draftOnly = gatherWorldReducers<SimState, SimEvent>(
  AREAS.map((a) =>
    a.name !== 'operation-token'
      ? a
      : { ...a, reducers: Object.fromEntries(Object.entries(operationTokenReducers).map(([type, r]) => [type, throughDraft((d: SimDraft, e: any) => (r as (d: SimDraft, e: unknown) => void)(d, e))])) },
  ),
  networkReducers,
);

/** Folds the log both ways at each operation-token event; returns how many of each type were compared. */
function compare(log: readonly SimEvent[]): Record<string, number> {
  const counts: Record<string, number> = {};
  let state = World.replay(log.slice(0, 1)).state;
  for (const e of log.slice(1)) {
    const next = applyEvent(state, e, reducers);
    if (TYPES.has(e.type)) {
      counts[e.type] = (counts[e.type] ?? 0) + 1;
      const drafted = applyEvent(state, e, draftOnly);
      expect(JSON.stringify(next), `${e.type} at seq ${e.seq}`).toBe(JSON.stringify(drafted));
      // Unchanged means the very same state, in both forms.
      expect(next === state).toBe(drafted === state);
      for (const [path, o] of objects(next)) expect(Object.isFrozen(o), `${e.type}: ${path}`).toBe(true);
    }
    state = next;
  }
  return counts;
}

function add(total: Record<string, number>, counts: Record<string, number>): void {
  for (const [t, n] of Object.entries(counts)) total[t] = (total[t] ?? 0) + n;
}

describe('operation-token reducers, direct forms', () => {
  it('build what the draft forms build, for every such event of the gallery', async () => {
    const dir = join(import.meta.dirname, '..', '..', '..', 'scenarios');
    const total: Record<string, number> = {};
    for (const file of readdirSync(dir).filter((f) => /^\d\d-.+\.yaml$/.test(f))) {
      const text = readFileSync(join(dir, file), 'utf8');
      if (!/generate-operation-token|generate-root|operation-token\/delete/.test(text)) continue;
      const loaded = loadScenario(text, file);
      if (!loaded.ok) throw new Error(`${file} does not load`);
      add(total, compare((await runScenario(loaded.scenario)).world.log as SimEvent[]));
    }
    expect(total['generation-started']).toBeGreaterThan(20);
    expect(total['generation-share-accepted']).toBeGreaterThan(40);
    expect(total['generation-completed']).toBeGreaterThan(20);
    expect(total['dr-operation-token-deleted']).toBeGreaterThan(10);
  });

  it('build what the draft forms build for root tokens, cancelled and aborted attempts, repeated deletes and PGP keys', async () => {
    const total: Record<string, number> = {};
    // Root tokens: the token store and the WAL move.
    const plain = plainWorld({ seed: 3 });
    generateWithOtp(plain, 'east', { attempt: ROOT_ATTEMPT, update: ROOT_UPDATE });
    generateWithOtp(plain, 'east', { attempt: ROOT_ATTEMPT, update: ROOT_UPDATE });
    // Cancelled, then aborted by another cluster's shares.
    bodyOf(plain.request('east', post(ROOT_ATTEMPT)));
    plain.request('east', del(ROOT_ATTEMPT));
    const foreign = keysOf(plainWorld({ seed: 4 }), 'east');
    generateWithOtp(plain, 'east', { attempt: ROOT_ATTEMPT, update: ROOT_UPDATE }, foreign);
    add(total, compare(plain.log as SimEvent[]));

    // A DR secondary: a token, deleted twice (the second changes nothing), one attempt cancelled midway.
    const dr = drSecondaryWorld({ seed: 5 });
    drOperationTokenOf(dr);
    drOperationTokenOf(dr);
    dr.request('west', post(OP_TOKEN_DELETE, { dr_operation_token: dr.state.clusters.named('west').drOperationToken }));
    const start = bodyOf(dr.request('west', post(DR_ATTEMPT)));
    dr.request('west', post(DR_UPDATE, { key: keysOf(dr, 'west')[0], nonce: start.nonce }));
    dr.request('west', del(DR_ATTEMPT));
    // A PGP key instead of an OTP: the attempt keeps the key as its secret.
    const { publicKey } = await openpgp.generateKey({ type: 'ecc', userIDs: [{ name: 'operator' }], format: 'object' });
    const pgp = bodyOf((await dr.sendAsync('west', post(DR_ATTEMPT, { pgp_key: Buffer.from(publicKey.write()).toString('base64') }))).response);
    const keys = keysOf(dr, 'west').slice(0, pgp.required);
    for (const key of keys.slice(0, -1)) dr.request('west', post(DR_UPDATE, { key, nonce: pgp.nonce }));
    await dr.sendAsync('west', post(DR_UPDATE, { key: keys.at(-1), nonce: pgp.nonce }));
    add(total, compare(dr.log as SimEvent[]));

    // A delete with no token there: the same state in both forms (checked by compare).
    const log = [...(dr.log as SimEvent[])];
    const at = log.at(-1)!.at;
    log.push({ type: 'dr-operation-token-deleted', at, cluster: 'west' } as SimEvent, { type: 'dr-operation-token-deleted', at, cluster: 'west' } as SimEvent);
    add(total, compare(log.map((e, i) => ({ ...e, seq: i + 1 }))));

    for (const type of TYPES) expect(total[type], type).toBeGreaterThan(0);
  });
});
