// Properties: the same seed gives the same log, and replaying a log gives the same state hash.
import { describe, expect, it } from 'vitest';
import { ModelMismatch } from '../../../src/areas/property/model.js';
import { runProperty } from '../../../src/explore/property.js';
import { World } from '../../../src/world.js';

function logsOf(seed: number): string[] {
  const logs: string[] = [];
  runProperty({ runs: 40, seed, steps: 40, afterRun: (op) => void logs.push(JSON.stringify(op.fullLog())) });
  return logs;
}

describe('property: determinism and replay', () => {
  it('the same seed gives byte-identical logs, run for run', () => {
    const first = logsOf(3);
    const second = logsOf(3);
    expect(first).toHaveLength(40);
    expect(second).toEqual(first);
  });

  it('another seed gives other logs', () => {
    expect(logsOf(4)).not.toEqual(logsOf(3));
  });

  it('replaying the log of any run rebuilds the same state hash', () => {
    let replayed = 0;
    const r = runProperty({
      runs: 40,
      seed: 5,
      steps: 40,
      afterRun: (op) => {
        const hash = World.replay(op.fullLog()).stateHash();
        if (hash !== op.world.stateHash()) throw new ModelMismatch(`replay gave ${hash}, the run ended at ${op.world.stateHash()}`);
        replayed++;
      },
    });
    expect(r.findings.map((f) => f.message)).toEqual([]);
    expect(replayed).toBe(40);
  });
});
