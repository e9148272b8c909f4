// The requests the explorer's commands share (SharedRequests): commands tried from one state that
// begin with the same requests (a DR operation token's attempt and key shares, before a promotion
// with or without force, or a disable) send them once; the others take the answer and a fork of
// the world after it. Each must end exactly where it would have ended sending everything itself:
// the same world (state, generator, what follows), the same observation for the monitors, the
// same model.
import { describe, expect, it } from 'vitest';
import { capabilitiesFor, cloneModel, clusterNames, freshOperator, initialModel, Operator, type Model, type OperatorCommand } from '../../src/explore/commands/index.js';
import { keyOwnersOf, SharedRequests } from '../../src/explore/commands/operator.js';
import { EnablePrimary } from '../../src/areas/replication/commands/enable-primary.js';
import { IssueSecondaryToken } from '../../src/areas/replication/commands/issue-secondary-token.js';
import { EnableSecondary } from '../../src/areas/replication/commands/enable-secondary.js';
import { Promote } from '../../src/areas/replication/commands/promote.js';
import { Disable } from '../../src/areas/replication/commands/disable.js';
import { Demote } from '../../src/areas/replication/commands/demote.js';
import { Wait } from '../../src/areas/cluster/commands/wait.js';
import type { Observation } from '../../src/areas/monitoring/types.js';
import { canonicalJson } from '../../src/kernel/canonical.js';
import type { World } from '../../src/world.js';

const caps = capabilitiesFor({ kinds: ['dr'] });
/** Whose key shares open which keyring: read at genesis, as the explorer does. */
const keyOwners = keyOwnersOf(freshOperator(3, 1).world.state);

/** east a DR primary, west its DR secondary (synced), from the explorer's topology of 3. */
function drPair(): { world: World; model: Model } {
  const op = freshOperator(3, 1, { watch: false });
  const model = initialModel(clusterNames(3), caps);
  for (const c of [new EnablePrimary(0, 'dr'), new IssueSecondaryToken(0, 'dr'), new EnableSecondary(0, 'dr'), new Wait(1000)]) c.run(model, op);
  return { world: op.world, model };
}

/** What a command left: the world's state and generator, the observation (as JSON), the model. */
function outcome(op: Operator, model: Model) {
  const o = op.lastObservation as Observation;
  return {
    state: op.world.stateHash(),
    generator: op.world.generatorState(),
    events: canonicalJson(o.events),
    states: o.states!.map((s) => canonicalJson(s)),
    before: o.before,
    responses: canonicalJson(o.responses!.map((r) => ({ ...r, before: canonicalJson(r.before), after: canonicalJson(r.after) }))),
    model: canonicalJson(model),
  };
}

function run(from: { world: World; model: Model }, command: OperatorCommand, shared?: SharedRequests) {
  const model = cloneModel(from.model);
  const op = new Operator(from.world.fork(), { watch: false, keyOwners, shared });
  command.run(model, op);
  return { op, model };
}

describe('shared requests', () => {
  it('commands that begin alike send their common requests once and end as if they had sent them', () => {
    const node = drPair();
    expect(node.world.state.clusters.named('east').replication.dr.role).toBe('primary');
    const commands = [new Promote(0, 'dr', false), new Promote(0, 'dr', true), new Disable(1, 'dr'), new Demote(0, 'dr')];
    const shared = new SharedRequests();
    const taken: number[] = [];
    for (const command of commands) {
      const alone = run(node, command);
      const sharing = run(node, command, shared);
      expect(outcome(sharing.op, sharing.model)).toEqual(outcome(alone.op, alone.model));
      expect(sharing.op.requests).toBe(alone.op.requests);
      taken.push(sharing.op.taken);
      // The world after goes on as the one that sent everything: the same next command, the same end.
      const next = new Wait(1000);
      next.run(cloneModel(sharing.model), sharing.op);
      next.run(cloneModel(alone.model), alone.op);
      expect(sharing.op.world.stateHash()).toBe(alone.op.world.stateHash());
      expect(sharing.op.world.generatorState()).toEqual(alone.op.world.generatorState());
    }
    // The forced promotion and the disable take the operation token's attempt and key shares (4 requests); the demotion shares nothing.
    expect(taken).toEqual([0, 4, 4, 0]);
  });

  it('stops sharing at anything that is not a request', () => {
    const node = drPair();
    const shared = new SharedRequests();
    const wait = new Wait(500);
    run(node, wait, shared);
    expect(shared.next.size).toBe(0);
  });
});
