// What a newcomer meets first: a results file given to replay, a misspelt hazard, the serve
// banner's examples.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { banner } from '../../src/cli/serve.js';
import { serve, type ServeHandle } from '../../src/serve/serve.js';
import { PASSING, replsim, scratch } from './helpers.js';

let handle: ServeHandle | undefined;
afterEach(async () => {
  await handle?.stop();
  handle = undefined;
});

describe('front door', () => {
  it('replay given a results.json or a scenario says what the file is and which file replay reads (exit 2)', () => {
    const s = scratch('replsim-front-');
    const scenario = s.file('runbook.yaml', PASSING);
    expect(replsim(['run', scenario, '--out', join(s.dir, 'out'), '-q']).code).toBe(0);
    const results = replsim(['replay', join(s.dir, 'out', 'results.json')]);
    expect(results.code).toBe(2);
    expect(results.err.trim()).toBe(`${join(s.dir, 'out', 'results.json')}: this is a results file (results.json), not a history; replay reads the history beside it: replsim replay ${join(s.dir, 'out', 'history.jsonl')}`);
    const asScenario = replsim(['replay', scenario]);
    expect(asScenario.code).toBe(2);
    expect(asScenario.err).toMatch(/this is a scenario file \(run it with replsim run .*runbook\.yaml\)/);
    expect(replsim(['replay', join(s.dir, 'out', 'history.jsonl')]).code).toBe(0);
  });

  it('check --forbid two-primary suggests two-primaries (exit 2)', () => {
    const r = replsim(['check', '--runs', '1', '--forbid', 'two-primary']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unknown hazard "two-primary": --forbid takes two-primaries, .*; did you mean "two-primaries"\?/);
  });

  it("the serve banner's control examples name the session's clusters", async () => {
    handle = await serve({ clusters: ['dc1', 'dc2'], clock: 'manual' });
    const control = banner(handle, { clock: 'manual' }).find((l) => l.startsWith('# control:'));
    expect(control).toMatch(/partition dc1 dc2 \| heal all \| crash dc1 \| restart dc1/);
    expect(control).not.toMatch(/east|west/);
  });
});
