// Property: writes survive crashes and restarts. Only set-up, writes, bounces (a crash and a restart
// 0, 10 or 30 ms apart), crashes, restarts and waits are drawn, so runs keep secondaries streaming
// while clusters go down with WALs and syncs on their way (a write acknowledged just before a
// secondary's crash; a primary restarted under its streaming secondaries; a restart during a merkle
// sync). Then every cluster is restarted and three minutes pass (longer than the longest redial wait): `convergence` (the monitors' own
// model of a replica) judges every connected secondary, and, read through the API, every streaming
// secondary holds its primary's last WAL.
import { describe, expect, it } from 'vitest';
import { replicationPath } from '../../../src/areas/property/command.js';
import { ModelMismatch, type Model } from '../../../src/areas/property/model.js';
import type { Operator } from '../../../src/explore/commands/operator.js';
import { runProperty } from '../../../src/explore/property.js';

const FAMILIES = ['enable-primary', 'issue-secondary-token', 'enable-secondary', 'write-secret', 'bounce', 'crash', 'restart', 'wait'];

function restartAndWait(op: Operator, m: Model): number {
  // Longer than the longest redial wait (120 s) a secondary of a long-down primary may still have ahead.
  op.beginCommand('restart every crashed cluster, and let three minutes pass');
  for (const c of m.clusters) if (!m.up[c]) op.restart(c, `restart ${c}`);
  op.wait(180_000, 'quiet time');
  op.endCommand();
  let judged = 0;
  for (const kind of ['dr', 'performance'] as const) {
    for (const c of m.clusters) {
      const r = m.roles[kind][c];
      if (r.role !== 'secondary.following' || r.follows === null || m.roles[kind][r.follows].role !== 'primary') continue;
      const secondary = op.request(c, 'GET', replicationPath(kind, 'status'), { token: 'none', label: `read ${c}'s status` }).body.data;
      if (secondary.connection_state !== 'ready') throw new ModelMismatch(`${c} follows ${r.follows} (${kind}) but is ${secondary.connection_state} three minutes after every cluster is back`);
      const primary = op.request(r.follows, 'GET', replicationPath(kind, 'status'), { token: 'none', label: `read ${r.follows}'s status` }).body.data;
      const last = kind === 'dr' ? primary.last_wal : primary.last_performance_wal;
      if (secondary.last_remote_wal !== last) throw new ModelMismatch(`${c} streams from ${r.follows} (${kind}) but holds WAL ${secondary.last_remote_wal} of ${last}`);
      judged++;
    }
  }
  return judged;
}

describe('property: crashes and restarts', () => {
  it('every streaming secondary holds its primary\'s last WAL once every cluster is back (300 runs, seed 42)', () => {
    let judged = 0;
    const r = runProperty({ runs: 300, seed: 42, steps: 30, families: FAMILIES, afterRun: (op, m) => void (judged += restartAndWait(op, m)) });
    expect(r.findings.map((f) => `${f.kind} ${f.id ?? ''}: ${f.message}\n${f.words.join('\n')}`)).toEqual([]);
    // Not vacuous: many runs ended with secondaries streaming.
    expect(judged).toBeGreaterThan(100);
  });
});
