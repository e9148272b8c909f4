// Folder runs follow symbolic links, to scenario files and to folders, and name what they cannot
// follow: a loop (a link back to a folder being searched, or a link to itself) and a dangling link.
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandPaths } from '../../src/cli/run.js';
import { PASSING, replsim, scratch } from './helpers.js';

describe('symbolic links in folder runs', () => {
  it('follows links to files and folders, and names loops and dangling links', () => {
    const s = scratch('replsim-links-');
    s.file('runbooks/a.yaml', PASSING);
    s.file('shared/b.yaml', PASSING);
    symlinkSync(join(s.dir, 'runbooks', 'a.yaml'), join(s.dir, 'runbooks', 'again.yaml'));
    symlinkSync(join(s.dir, 'shared'), join(s.dir, 'runbooks', 'shared'));
    symlinkSync(join(s.dir, 'runbooks'), join(s.dir, 'runbooks', 'up'));
    symlinkSync(join(s.dir, 'runbooks', 'self.yaml'), join(s.dir, 'runbooks', 'self.yaml'));
    symlinkSync(join(s.dir, 'nowhere.yaml'), join(s.dir, 'runbooks', 'gone.yaml'));
    const got = expandPaths([join(s.dir, 'runbooks')]).sources.map((x) => ({ file: x.file.slice(s.dir.length + 1), problem: x.problem }));
    expect(got).toEqual([
      { file: 'runbooks/a.yaml', problem: undefined },
      { file: 'runbooks/again.yaml', problem: undefined },
      { file: 'runbooks/gone.yaml', problem: `a symbolic link to ${join(s.dir, 'nowhere.yaml')}, which does not exist` },
      { file: 'runbooks/self.yaml', problem: 'a symbolic link loop: following its links leads back to one of them' },
      { file: 'runbooks/shared/b.yaml', problem: undefined },
      { file: 'runbooks/up', problem: expect.stringMatching(/^a symbolic link loop: it leads back to .*runbooks, a folder this search is already in; left out$/) },
    ]);
  });

  it('replsim run names a file that is a link loop as one, not as missing', () => {
    const s = scratch('replsim-loop-');
    symlinkSync(join(s.dir, 'loop.yaml'), join(s.dir, 'loop.yaml'));
    const r = replsim(['run', join(s.dir, 'loop.yaml')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/loop\.yaml: a symbolic link loop/);
  });
});
