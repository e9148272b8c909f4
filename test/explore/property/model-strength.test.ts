// The model restates the spec independently of the simulator (issue #12): on the 2-cluster
// sequence of cause 1 it used to predict "accept" for a token whose issuer was demoted then
// disabled; now it predicts the refusal, and the simulator agrees.
import { describe, expect, it } from 'vitest';
import { Demote } from '../../../src/areas/replication/commands/demote.js';
import { Disable } from '../../../src/areas/replication/commands/disable.js';
import { EnablePrimary } from '../../../src/areas/replication/commands/enable-primary.js';
import { EnableSecondary } from '../../../src/areas/replication/commands/enable-secondary.js';
import { IssueSecondaryToken } from '../../../src/areas/replication/commands/issue-secondary-token.js';
import { heldTokenFor, redeemOutcome } from '../../../src/areas/property/model.js';
import { recordRun } from '../../../src/explore/property.js';

describe('the property model', () => {
  it('predicts that a token of a demoted, then disabled, issuer is refused (cause 1), and the service refuses it', () => {
    const commands = [
      new EnablePrimary(0, 'performance'),
      new IssueSecondaryToken(0, 'performance'),
      new Demote(0, 'performance'),
      new Disable(0, 'performance'),
      new EnableSecondary(0, 'performance'),
    ];
    const run = recordRun(2, 1, commands);
    expect(run.error).toBeUndefined();
    expect(run.ran.map((c) => c.toString())).toEqual([
      'enable east as a performance primary',
      'issue a performance secondary token on east for west',
      'demote east (performance)',
      'disable performance replication on the secondary east',
      "enable west as a performance secondary with east's token",
    ]);
    // The last request was refused, as the model said.
    expect(run.steps.at(-1)).toMatchObject({ request: 'POST sys/replication/performance/secondary/enable', expect: { status: 500 } });
    expect(run.model.roles.performance.west.role).toBe('disabled');
  });

  it('predicts a refusal already after the demotion alone: a demoted issuer serves no secondaries', () => {
    const run = recordRun(2, 1, [new EnablePrimary(0, 'performance'), new IssueSecondaryToken(0, 'performance'), new Demote(0, 'performance')]);
    expect(run.error).toBeUndefined();
    const held = heldTokenFor(run.model, 'performance', 'west')!;
    expect(redeemOutcome(run.model, held, 'west')).toBe('refuse');
    expect(run.model.roles.performance.east.role).toBe('secondary.demoted');
  });
});
