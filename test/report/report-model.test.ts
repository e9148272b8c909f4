// The report's model says what the pictures alarm on, computed from the run: two running primaries
// of one set, a secondary's lag (WALs and ms), revoked credentials, the paths a filter keeps out, the
// messages that never arrived; roles in people's words, never a machine's state id.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/loader.js';
import { runScenario } from '../../src/scenario/runner.js';
import { reportModel, type ReportModel } from '../../src/report/report-model.js';

async function model(file: string): Promise<ReportModel> {
  const loaded = loadScenario(readFileSync(file, 'utf8'), file);
  if (!loaded.ok) throw new Error(`${file} does not load`);
  return reportModel(file, await runScenario(loaded.scenario));
}
const cluster = (m: ReportModel, step: number, name: string) => m.steps[step - 1].topology.clusters.find((c) => c.name === name)!;

describe('the report model', () => {
  it('07: an alarm for two DR primaries of one set exactly at the steps where both run', async () => {
    const m = await model('scenarios/07-dr-unplanned-failover.yaml');
    const at = m.steps.findIndex((s) => s.findings.some((f) => f.id === 'two-primaries')) + 1;
    expect(m.steps[at - 2].topology.alarms).toEqual([]);
    expect(m.steps[at - 1].topology.alarms).toEqual([{ kind: 'dr', clusterId: expect.any(String), primaries: ['east', 'west'] }]);
    expect(m.steps.at(-1)!.topology.alarms).toEqual([]);
    const roles = m.steps.flatMap((s) => s.topology.clusters.flatMap((c) => [c.dr.role, c.performance.role]));
    expect(roles.filter((r) => r.includes('.'))).toEqual([]);
  });

  it('23: west lags two WALs for as long as the link is cut, and the WALs it never got are lost messages', async () => {
    const m = await model('scenarios/23-dr-lost-writes-after-promotion.yaml');
    const wait = m.steps.findIndex((s) => s.title === 'wait 10s') + 1;
    const west = cluster(m, wait, 'west');
    const sent = m.lost.find((l) => l.label === 'WALs 3–4 (DR)')!;
    expect(west.dr.lag).toEqual({ wals: 2, ms: m.steps[wait - 1].topology.at - sent.sentAt });
    expect(west.dr.lastRemoteWal).toBe(2);
    expect(cluster(m, wait, 'east').lastWal).toBe(4);
    expect(sent).toMatchObject({ from: 'east', to: 'west', kind: 'wal', reason: expect.stringMatching(/^link reset/) });
    const promotion = m.steps.find((s) => s.findings.some((f) => f.id === 'lost-writes'))!;
    expect(sent.droppedBy).toBeLessThanOrEqual(promotion.seqEnd);
    expect(promotion.findings.find((f) => f.id === 'lost-writes')!.lostKeys).toEqual(['secret/app/config v2', 'secret/orders/1001 v1']);
  });

  it('05: west is marked revoked from the revocation until it takes a new token', async () => {
    const m = await model('scenarios/05-dr-revocation.yaml');
    const revoked = m.steps.map((s) => s.topology.clusters.find((c) => c.name === 'west')!.dr.revoked);
    const first = revoked.indexOf(true);
    const back = m.steps.findIndex((s, k) => k > first && !revoked[k]);
    expect(first).toBeGreaterThan(0);
    expect(m.steps[first].request?.path).toBe('sys/replication/dr/primary/revoke-secondary');
    expect(m.steps[back].request?.path).toBe('sys/replication/dr/secondary/update-primary');
    expect(revoked.slice(back)).not.toContain(true);
  });

  it('09: a performance secondary carries the paths its filter keeps out', async () => {
    const m = await model('scenarios/09-perf-allow-filter.yaml');
    expect(cluster(m, m.steps.length, 'west').performance.filtered).toContain('billing/');
  });
});
