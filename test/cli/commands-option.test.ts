// `--commands` of check and explore: the families that run and their weights, so that --forbid gates
// what a team allows (`--from` is in test/explore/from.test.ts).
import { describe, expect, it } from 'vitest';
import { inProcess } from './helpers.js';
import { parseCommands } from '../../src/cli/commands-option.js';
import { FAMILY_NAMES } from '../../src/explore/commands/index.js';

const cli = inProcess;

describe('--commands', () => {
  it('reads families, weights, exclusions and safe, and says what is wrong with a bad one', () => {
    expect(parseCommands(undefined)).toEqual({ ok: true, mix: { safe: false, words: 'all' } });
    expect(parseCommands(['promote,demote=5'])).toEqual({ ok: true, mix: { families: ['promote', 'demote'], weights: { demote: 5 }, safe: false, words: 'promote,demote=5' } });
    const without = parseCommands(['-crash', 'restart=0', 'safe']);
    expect(without.ok && without.mix.families).toEqual(FAMILY_NAMES.filter((n) => n !== 'crash' && n !== 'restart'));
    expect(without.ok && without.mix.safe).toBe(true);
    expect(parseCommands(['all', 'wait=1'])).toMatchObject({ ok: true, mix: { weights: { wait: 1 }, words: 'all,wait=1' } });
    expect(parseCommands(['promte'])).toMatchObject({ ok: false, message: expect.stringMatching(/unknown command family "promte": did you mean "promote"\?/) });
    expect(parseCommands(['crash=0', 'wait=0']).ok).toBe(true);
    expect(parseCommands(FAMILY_NAMES.map((n) => `-${n}`))).toMatchObject({ ok: false, message: '--commands leaves no command family to run' });
  });

  it('check --commands safe: with forced promotion left out, --forbid forced-promotion is clean', async () => {
    const r = await cli(['check', '--runs', '200', '--seed', '1', '--commands', 'safe', '--forbid', 'forced-promotion']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^commands: all,safe$/m);
    expect(r.out).toMatch(/^ {2}forced-promotion +0 {2}\(forbidden\)$/m);
  }, 120_000);

  it('check without a family never runs it: no crash, no restart means no two primaries from a restarted old primary', async () => {
    const r = await cli(['check', '--runs', '100', '--seed', '2', '--commands', '-crash,-restart,safe', '--forbid', 'two-primaries', '--json']);
    expect(JSON.parse(r.out.split('\n').at(-1)!)).toMatchObject({ type: 'verdict', verdict: 'valid' });
    expect(r.code).toBe(0);
  }, 120_000);

  it('explore --commands chooses the families it enumerates; a weight means nothing to it', async () => {
    const r = await cli(['explore', '--depth', '3', '--clusters', '2', '--commands', 'enable-primary,issue-secondary-token,enable-secondary', '--json']);
    expect(JSON.parse(r.out.split('\n').at(-1)!)).toMatchObject({ type: 'verdict', verdict: 'valid' });
    const w = await cli(['explore', '--depth', '3', '--clusters', '2', '--commands', 'promote=4']);
    expect(w.code).toBe(2);
    expect(w.err).toMatch(/a weight means nothing to it/);
  }, 120_000);
});
