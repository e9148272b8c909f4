// models/ask.ts reads a machine's rows itself (guards, targets, action names) instead of running
// xstate's `transition`; these tests hold that reading equal to xstate's own answer, on every row of
// each table and on random inputs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { transition, type AnyStateMachine } from 'xstate';
import {
  generationAttemptMachine,
  initialGenerationAttempt,
  stepGenerationAttempt,
  type GenerationAttemptEvent,
  type GenerationAttemptState,
  type GenerationStrategy,
} from '../../models/generation-attempt.machine.js';
import { replicationRoleMachine, stepRole, type RoleEvent, type RoleValue } from '../../models/replication-role.machine.js';
import { askAssociation, syncAssociationMachine, type AssociationEvent, type AssociationValue } from '../../models/sync-association.machine.js';
import { pluginRuntimeMachine, stepRuntime, type RuntimeEvent, type RuntimeValue } from '../../models/plugin-runtime.machine.js';
import {

  secondaryConnectionMachine,
  stepConnection,
  type Connection,
  type ConnectionEvent,
  type LinkDownReason,
  type LinkFacts,
  type SyncPhase,
} from '../../models/secondary-connection.machine.js';

/** The association after `event`, or null when the machine refuses it. */
function stepAssociation(value: AssociationValue, event: AssociationEvent): AssociationValue | null {
  const answer = askAssociation(value, event);
  return 'next' in answer ? (answer.next as AssociationValue) : null;
}

/** xstate's own answer: the state after `event` (dot-separated) and the context, or null when refused. */
function xstateAnswer(machine: AnyStateMachine, value: string, context: unknown, event: { type: string }): { value: string; context: unknown } | null {
  const [top, sub] = value.split('.');
  const snap = machine.resolveState({ value: sub ? { [top]: sub } : top, context } as never);
  if (!snap.can(event as never)) return null;
  const [next] = transition(machine, snap, event as never);
  const v = next.value as string | Record<string, string>;
  return { value: typeof v === 'string' ? v : `${Object.keys(v)[0]}.${Object.values(v)[0]}`, context: next.context };
}

function transitionGenerationAttempt(state: GenerationAttemptState, event: GenerationAttemptEvent): GenerationAttemptState | null {
  const r = xstateAnswer(generationAttemptMachine, state.value, state.context, event);
  return r && { value: r.value as GenerationAttemptState['value'], context: r.context as GenerationAttemptState['context'] };
}

function transitionRuntime(value: RuntimeValue, event: RuntimeEvent): RuntimeValue | null {
  return (xstateAnswer(pluginRuntimeMachine, value, undefined, event)?.value as RuntimeValue | undefined) ?? null;
}

const VALUES: GenerationAttemptState['value'][] = ['none', 'inProgress', 'complete'];
const STRATEGIES: GenerationStrategy[] = ['dr-operation-token', 'root'];

function attempt(value: GenerationAttemptState['value'], shares: string[], required: number, strategy: GenerationStrategy = 'root', nonce = 'n1'): GenerationAttemptState {
  return { value, context: { ...initialGenerationAttempt(required).context, strategy, nonce, providedShares: shares, pgpFingerprint: 'fp', otpLength: 28, encodedToken: value === 'complete' ? 'ENC' : '' } };
}

function same(state: GenerationAttemptState, event: GenerationAttemptEvent): void {
  const expected = transitionGenerationAttempt(state, event);
  expect(stepGenerationAttempt(state, event)).toEqual(expected);
}

describe('generation attempt: ask equals xstate', () => {
  it('on every row: each value × event type × guard fact combination', () => {
    let rows = 0;
    for (const value of VALUES) {
      same(attempt(value, ['a'], 3), { type: 'cancel' });
      same(attempt(value, [], 3), { type: 'start', strategy: 'root', nonce: 'n2', required: 2, otpLength: 28, pgpFingerprint: '' });
      rows += 2;
      for (const nonceOk of [true, false])
        for (const strategyOk of [true, false])
          for (const fresh of [true, false])
            for (const reaches of [true, false])
              for (const encoded of [true, false]) {
                const state = attempt(value, ['a', 'b'], reaches ? 3 : 4);
                same(state, { type: 'update', strategy: strategyOk ? 'root' : 'dr-operation-token', nonce: nonceOk ? 'n1' : 'other', share: fresh ? 'c' : 'a', keyMatches: encoded, ...(encoded ? { encodedToken: 'TOKEN' } : {}) });
                rows++;
              }
    }
    expect(rows).toBe(3 * (2 + 32));
  });

  it('on random states and events (fast-check), applied in sequences', () => {
    const share = fc.constantFrom('a', 'b', 'c', 'd');
    const event: fc.Arbitrary<GenerationAttemptEvent> = fc.oneof(
      fc.constant({ type: 'cancel' as const }),
      fc.record({ type: fc.constant('start' as const), strategy: fc.constantFrom(...STRATEGIES), nonce: fc.constantFrom('n1', 'n2'), required: fc.integer({ min: 1, max: 4 }), otpLength: fc.constantFrom(24, 28), pgpFingerprint: fc.constantFrom('', 'fp') }),
      fc.record({ type: fc.constant('update' as const), strategy: fc.constantFrom(...STRATEGIES), nonce: fc.constantFrom('n1', 'n2'), share, keyMatches: fc.boolean(), encodedToken: fc.option(fc.constantFrom('T1', 'T2'), { nil: undefined }) }, { requiredKeys: ['type', 'strategy', 'nonce', 'share', 'keyMatches'] }),
    );
    const state = fc.record({
      value: fc.constantFrom(...VALUES),
      shares: fc.uniqueArray(share, { maxLength: 3 }),
      required: fc.integer({ min: 1, max: 4 }),
      strategy: fc.constantFrom(...STRATEGIES),
      nonce: fc.constantFrom('n1', 'n2'),
    });
    fc.assert(
      fc.property(state, fc.array(event, { maxLength: 8 }), (s, events) => {
        let memo: GenerationAttemptState = attempt(s.value, s.shares, s.required, s.strategy, s.nonce);
        let ref: GenerationAttemptState = memo;
        for (const e of events) {
          const m = stepGenerationAttempt(memo, e);
          const r = transitionGenerationAttempt(ref, e);
          expect(m).toEqual(r);
          if (m && r) [memo, ref] = [m, r];
        }
      }),
      { seed: 15, numRuns: 500 },
    );
  });
});

describe('plugin runtime: ask equals xstate', () => {
  it('on every row, and on random inputs', () => {
    const events: RuntimeEvent[] = [{ type: 'register' }, { type: 'delete', referencedBy: [] }, { type: 'delete', referencedBy: ['p'] }];
    for (const value of ['absent', 'registered'] as RuntimeValue[]) for (const e of events) expect(stepRuntime(value, e)).toBe(transitionRuntime(value, e));
    fc.assert(
      fc.property(fc.constantFrom<RuntimeValue>('absent', 'registered'), fc.oneof(fc.constant<RuntimeEvent>({ type: 'register' }), fc.array(fc.string(), { maxLength: 3 }).map((r): RuntimeEvent => ({ type: 'delete', referencedBy: r }))), (v, e) => {
        expect(stepRuntime(v, e)).toBe(transitionRuntime(v, e));
      }),
      { seed: 15, numRuns: 200 },
    );
  });
});

describe('replication role: ask equals xstate', () => {
  it('on every role × request × guard fact combination, both kinds', () => {
    const roles: RoleValue[] = ['disabled', 'primary', 'secondary.following', 'secondary.demoted', 'secondary.unassigned'];
    const events: RoleEvent[] = [{ type: 'primary.enable' }, { type: 'primary.demote' }, { type: 'primary.disable' }];
    for (const v of [true, false]) {
      events.push({ type: 'secondary.enable', activationTokenValid: v }, { type: 'secondary.disable', operationTokenValid: v });
      for (const force of [true, false]) for (const safe of [true, false]) events.push({ type: 'secondary.promote', operationTokenValid: v, force, safetyChecksPass: safe });
      for (const token of [undefined, '', 'jwt']) for (const addresses of [undefined, ['a']]) events.push({ type: 'secondary.update-primary', operationTokenValid: v, token, addresses });
    }
    let rows = 0;
    for (const kind of ['dr', 'performance'] as const)
      for (const role of roles)
        for (const e of events) {
          expect(stepRole(kind, role, e)).toBe(xstateAnswer(replicationRoleMachine, role, { kind }, e)?.value ?? null);
          rows++;
        }
    expect(rows).toBe(2 * 5 * events.length);
  });
});

describe('sync association: ask equals xstate', () => {
  it('on every value × event', () => {
    const values: AssociationValue[] = ['unlinked.none', 'unlinked.pending', 'unlinked.failedExternal', 'unlinked.failedClient', 'unlinked.failedInternal', 'unlinked.failedUnknown', 'unlinked.unsynced', 'linked.pending', 'linked.synced', 'linked.failedExternal', 'linked.failedClient', 'linked.failedInternal', 'linked.failedUnknown'];
    const events: AssociationEvent[] = [{ type: 'set' }, { type: 'remove' }, { type: 'attempt.succeeded' }, ...(['external', 'client', 'internal', 'unknown'] as const).map((cause) => ({ type: 'attempt.failed' as const, cause }))];
    for (const v of values) for (const e of events) expect(stepAssociation(v, e)).toBe(xstateAnswer(syncAssociationMachine, v, undefined, e)?.value ?? null);
  });
});

describe('secondary connection: ask equals xstate', () => {
  it('on every state × phase × reason × event × link fact combination (stateIn guards, assign actions)', () => {
    const states: Connection['state'][] = ['idle', 'connecting', 'transient_failure', 'ready', 'shutdown'];
    const phases: SyncPhase[] = ['merkle-sync', 'merkle-diff', 'stream-wals'];
    const reasons: (LinkDownReason | null)[] = [null, 'unreachable', 'revoked', 'not-a-primary', 'other-replication-set'];
    const links: LinkFacts[] = [];
    for (const reachable of [true, false])
      for (const primaryIsPrimary of [true, false])
        for (const sameReplicationSet of [true, false]) for (const credentialsAccepted of [true, false]) links.push({ reachable, primaryIsPrimary, sameReplicationSet, credentialsAccepted });
    const events: ConnectionEvent[] = [
      { type: 'follow', phase: 'merkle-sync' },
      { type: 'follow', phase: 'merkle-diff' },
      { type: 'unfollow' },
      { type: 'reset' },
      { type: 'sync-done' },
      { type: 'lost' },
      ...links.flatMap((link) => [{ type: 'observe' as const, link }, { type: 'connect' as const, link }]),
    ];
    let rows = 0;
    for (const state of states)
      for (const phase of phases)
        for (const reason of reasons)
          for (const e of events) {
            const c: Connection = { state, phase, reason };
            const x = xstateAnswer(secondaryConnectionMachine, state === 'ready' ? `ready.${phase}` : state, { phase, reason }, e);
            const [top, sub] = x ? x.value.split('.') : [];
            const ctx = x?.context as { phase: SyncPhase; reason: LinkDownReason | null } | undefined;
            const expected = x && ctx ? { state: top, phase: (sub as SyncPhase | undefined) ?? ctx.phase, reason: top === 'transient_failure' ? ctx.reason : null } : null;
            expect(stepConnection(c, e), `${state}/${phase}/${reason} ${JSON.stringify(e)}`).toEqual(expected);
            rows++;
          }
    expect(rows).toBe(5 * 3 * 5 * (6 + 32));
  });
});
