// A model mismatch exported as a scenario carries the model's prediction as the step's `expect`, so
// `replsim run` on the file fails until the simulator (or the model) is fixed (issue #12, cause 4).
// The mismatches here are forced: commands whose model is wrong on purpose.
import { describe, expect, it } from 'vitest';
import { EnablePrimary } from '../../../src/areas/replication/commands/enable-primary.js';
import { ModelMismatch, setRole, type Model } from '../../../src/areas/property/model.js';
import type { Operator } from '../../../src/explore/commands/operator.js';
import { withModelExpectation } from '../../../src/explore/export.js';
import { recordRun } from '../../../src/explore/property.js';
import { clusterNames } from '../../../src/explore/commands/index.js';
import { runExported } from './helpers.js';

/** Predicts a refusal where the service accepts. */
class RefusingEnablePrimary extends EnablePrimary {
  override predict(): 'refuse' {
    return 'refuse';
  }
}

/** Gets the answer right but learns the wrong role from it. */
class ForgetfulEnablePrimary extends EnablePrimary {
  protected override act(m: Model, op: Operator, prediction: 'accept' | 'refuse' | 'either'): void {
    super.act(m, op, prediction);
    setRole(m, this.kind, 'east', 'disabled');
  }
}

function exported(command: EnablePrimary) {
  const run = recordRun(2, 1, [command]);
  expect(run.error).toBeInstanceOf(ModelMismatch);
  const steps = withModelExpectation(run.steps, (run.error as ModelMismatch).expected);
  return { run, steps, scenario: { name: 'forced mismatch', description: 'a model mismatch forced by a wrong model', seed: 1, clusters: clusterNames(2), steps } };
}

describe('exported model mismatches fail when run', () => {
  it('the request answered against the model expects the model’s answer (a refusal): replsim run fails', async () => {
    const { run, steps, scenario } = exported(new RefusingEnablePrimary(0, 'dr'));
    // Without the prediction the file would pass: the service answered 200 and the step expects a 2xx.
    expect(run.steps.at(-1)!.expect).toBeUndefined();
    expect(steps.at(-1)!.expect).toEqual({ error: '/./' });
    const result = await runExported(scenario);
    expect(result.verdict).toBe('invalid');
    expect(result.reasons.join('\n')).toMatch(/expected an error, got 200/);
  });

  it('a role the model got wrong becomes a status read that expects the model’s mode: replsim run fails', async () => {
    const { steps, scenario } = exported(new ForgetfulEnablePrimary(0, 'dr'));
    expect(steps.at(-1)).toMatchObject({ request: 'GET sys/replication/dr/status', on: 'east', expect: { data: { mode: 'disabled' } } });
    const result = await runExported(scenario);
    expect(result.verdict).toBe('invalid');
  });
});
