// docs/machines.md is generated from the XState machines (`npx replsim diagram --out docs/machines.md`):
// when a machine changes and the file does not, this fails, so the pictures cannot drift.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MACHINES, machinesMarkdown, stateDiagram, transitionsOf } from '../../src/report/diagram.js';
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
    const ts = transitionsOf(replicationRoleMachine);
    const find = (from: string, to: string, event: string) => ts.filter((t) => t.from === from && t.to === to && t.event === event).map((t) => t.guard);
    expect(find('disabled', 'secondary.following', 'secondary.enable')).toEqual(['hasValidActivationToken']);
    expect(find('secondary', 'primary', 'secondary.promote')).toEqual(['hasOperationTokenIfDr ∧ safetyChecksPassOrForced']);
    expect(find('primary', 'secondary.demoted', 'primary.demote')).toEqual([null]);
    // Rule 3: a newly demoted secondary cannot be given addresses, so no such transition leaves `demoted`.
    expect(ts.filter((t) => t.from === 'secondary.demoted' && t.guard?.includes('givesAddresses'))).toEqual([]);
    // Token and addresses both keep a following secondary following: one arrow, numbered with both.
    const d = stateDiagram(replicationRoleMachine);
    const both = ts.flatMap((t, k) => (t.from === 'secondary.following' && t.to === 'secondary.following' ? [k + 1] : []));
    expect(both).toHaveLength(2);
    expect(d).toContain(`  secondary_following --> secondary_following : ${both.join(', ')}\n`);
    expect(machinesMarkdown()).toContain(`| ${both[1]} | \`secondary.following\` | \`secondary.following\` | \`secondary.update-primary\` | \`hasOperationTokenIfDr\` ∧ \`notBothTokenAndAddresses\` ∧ \`tokenOrAddresses\` ∧ \`givesAddresses\` |`);
  });

  it('gives states ids Mermaid reads, and shows the states by their own names', () => {
    const d = stateDiagram(MACHINES[1].machine);
    expect(d).toContain('state "stream-wals" as ready_stream_wals');
    expect(d).not.toMatch(/^\s*\S*-\S* -->/m);
    // follow, unfollow and reset are taken in every state: drawn once, from "any state".
    expect(d).toContain('state "any state" as any_state');
    // (connecting is also entered by `lost` from three states and by `observe`: those are drawn from each.)
    expect(d.match(/^ {2}any_state --> connecting : /gm)).toHaveLength(1);
  });
});
