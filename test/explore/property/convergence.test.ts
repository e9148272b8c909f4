// Property: convergence after heal and quiet time. After any random sequence, the operator heals
// every link, restarts every crashed cluster and waits longer than the convergence bound: the
// `convergence` monitor then judges every connected secondary, and, read through the API, every DR
// secondary that streams from a primary holds that primary's last WAL and merkle root.
import { describe, expect, it } from 'vitest';
import { replicationPath } from '../../../src/areas/property/command.js';
import { ModelMismatch, type Model } from '../../../src/areas/property/model.js';
import type { Operator } from '../../../src/explore/commands/operator.js';
import { runProperty } from '../../../src/explore/property.js';

const QUIET_MS = 60_000;

function healAndWait(op: Operator, m: Model): void {
  op.beginCommand('heal every link, restart every crashed cluster, and let a minute pass');
  if (Object.keys(m.cut).length > 0) op.heal('all', 'heal every link');
  for (const c of m.clusters) if (!m.up[c]) op.restart(c, `restart ${c}`);
  op.wait(QUIET_MS, 'quiet time');
  // Throws on a convergence violation (or any other) seen after this step.
  op.endCommand();

  for (const c of m.clusters) {
    const r = m.roles.dr[c];
    if (r.role !== 'secondary.following' || r.follows === null || m.roles.dr[r.follows].role !== 'primary') continue;
    const secondary = op.request(c, 'GET', replicationPath('dr', 'status'), { token: 'none', label: `read ${c}'s DR status` }).body.data;
    if (secondary.connection_state !== 'ready') continue;
    const primary = op.request(r.follows, 'GET', replicationPath('dr', 'status'), { token: 'none', label: `read ${r.follows}'s DR status` }).body.data;
    if (secondary.last_remote_wal !== primary.last_wal || secondary.merkle_root !== primary.merkle_root)
      throw new ModelMismatch(`${c} streams from ${r.follows} but after quiet time holds WAL ${secondary.last_remote_wal} of ${primary.last_wal}`);
  }
}

describe('property: convergence', () => {
  it('after heal and quiet time every connected secondary holds what its primary sends (150 runs, seed 1)', () => {
    let judged = 0;
    const r = runProperty({
      // 150 runs: the generators favour failover chains (demote, forget, promote), which end with
      // fewer secondaries following than set-ups do.
      runs: 150,
      seed: 1,
      steps: 40,
      afterRun: (op, m) => {
        healAndWait(op, m);
        judged += m.clusters.filter((c) => m.roles.dr[c].role === 'secondary.following' || m.roles.performance[c].role === 'secondary.following').length;
      },
    });
    expect(r.findings.map((f) => `${f.kind} ${f.id ?? ''}: ${f.message}\n${f.words.join('\n')}`)).toEqual([]);
    // Not vacuous: many runs ended with secondaries following a primary.
    expect(judged).toBeGreaterThan(10);
  });
});
