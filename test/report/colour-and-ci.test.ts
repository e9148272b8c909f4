// Who decides colour, and how workflow commands escape what they carry.
import { describe, expect, it } from 'vitest';
import { colour, oneLine, plain, styleFor, wantsColour } from '../../src/report/narrate.js';
import { githubAnnotations } from '../../src/report/ci.js';
import type { FileOutcome } from '../../src/report/results.js';

describe('wantsColour', () => {
  const tty = { isTTY: true, hasColors: () => true };
  const pipe = { isTTY: false };
  it('the flag wins, then FORCE_COLOR, then NO_COLOR, then the terminal', () => {
    expect(wantsColour(pipe, {}, true)).toBe(true);
    expect(wantsColour(tty, { FORCE_COLOR: '1' }, false)).toBe(false);
    expect(wantsColour(pipe, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
    expect(wantsColour(tty, { FORCE_COLOR: '0' })).toBe(false);
    expect(wantsColour(tty, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColour(tty, { NO_COLOR: '' })).toBe(true);
    expect(wantsColour(pipe, {})).toBe(false);
    expect(wantsColour({ isTTY: true, hasColors: () => false }, {})).toBe(false);
  });
  it('colour comes from util.styleText; plain leaves text alone', () => {
    expect(styleFor(pipe, {}, true)).toBe(colour);
    expect(colour.red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(plain.red('x')).toBe('x');
  });
  it('oneLine folds a multierror onto one line', () => {
    expect(oneLine('1 error occurred:\n\t* unsupported path\n\n')).toBe('1 error occurred: * unsupported path');
  });
});

describe('githubAnnotations', () => {
  it('folds the message onto one line and escapes its %, and escapes : and , in properties', () => {
    const outcome: FileOutcome = { file: 'dir,a/x:y.yaml', code: 2, errors: ['dir,a/x:y.yaml:3:5: 100% wrong\nsecond line'], wallMs: 1 };
    expect(githubAnnotations([outcome])).toEqual(['::error file=dir%2Ca/x%3Ay.yaml,line=3,title=replsim%3A invalid-file::100%25 wrong second line']);
  });
  it('a file that could not be found has no line', () => {
    const outcome: FileOutcome = { file: 'missing.yaml', code: 2, errors: ['missing.yaml: no such file or folder'], wallMs: 0 };
    expect(githubAnnotations([outcome])).toEqual(['::error file=missing.yaml,title=replsim%3A invalid-file::missing.yaml: no such file or folder']);
  });
});
