// docs/machines.md is generated from the XState machines (`npx replsim diagram --out docs/machines.md`):
// when a machine changes and the file does not, this fails, so the pictures cannot drift.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MACHINES, machinesMarkdown, stateDiagram } from '../../src/report/diagram.js';
import { replicationRoleMachine } from '../../models/replication-role.machine.js';

describe('docs/machines.md', () => {
  it('is what replsim diagram generates from the machines now', () => {
    expect(readFileSync(join(__dirname, '..', '..', 'docs', 'machines.md'), 'utf8')).toBe(machinesMarkdown());
  });

  it('holds one Mermaid state diagram per machine', () => {
    const text = readFileSync(join(__dirname, '..', '..', 'docs', 'machines.md'), 'utf8');
    expect(text.match(/```mermaid\nstateDiagram-v2/g)?.length).toBe(MACHINES.length);
  });

  it('draws every transition of the role table with its guards named', () => {
    const d = stateDiagram(replicationRoleMachine);
    expect(d).toContain('disabled --> secondary_following : secondary.enable [hasValidActivationToken]');
    expect(d).toContain('secondary --> primary : secondary.promote [hasOperationTokenIfDr ∧ safetyChecksPassOrForced]');
    expect(d).toContain('primary --> secondary_demoted : primary.demote');
    // Rule 3: a newly demoted secondary cannot be given addresses, so no such edge leaves `demoted`.
    expect(d).not.toMatch(/secondary_demoted --> \S+ : secondary\.update-primary \[[^\]]*givesAddresses/);
  });
});
