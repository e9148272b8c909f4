// Whether a variant ended stuck: the world is left to settle (every fault already recovered), then
// read through the status endpoints an operator would read — not through the simulator's state —
// and compared with the baseline settled the same way: a kind of replication that had a running
// primary and has none, or a secondary that caught up in the baseline and lags its primary now.
import { REPLICATION_KINDS, type ReplicationKind } from '../areas/core/vocabulary.js';
import type { World } from '../world.js';

interface StatusData {
  mode?: string;
  cluster_id?: string;
  last_wal?: number;
  last_remote_wal?: number;
  primary_cluster_addr?: string;
}

/** A settled world as the status records show it. */
export interface Picture {
  /** Running primaries by kind: cluster → {set, last_wal}. */
  primaries: Partial<Record<ReplicationKind, Record<string, { set: string; wal: number }>>>;
  /** Running secondaries by kind: cluster → the primary it follows (a running one of its set), and whether it has caught up. */
  secondaries: Partial<Record<ReplicationKind, Record<string, { primary: string | null; caughtUp: boolean; remote: number; wal: number }>>>;
}

/** Advances the world `ms` and reads every running cluster's status records. */
export function settledPicture(world: World, ms: number): Picture {
  world.advance(ms);
  const addrs = new Map<string, string>();
  const vars = world.variables();
  const names = world.state.clusters.names;
  for (const n of names) addrs.set(vars[`${n}.cluster_addr`], n);
  const picture: Picture = { primaries: {}, secondaries: {} };
  for (const kind of REPLICATION_KINDS) {
    const statuses = new Map<string, StatusData>();
    for (const n of names) {
      const r = world.request(n, { method: 'GET', path: `sys/replication/${kind}/status` });
      // A crashed cluster answers 503: it is neither a primary clients reach nor a secondary that streams.
      if (r.status !== 200) continue;
      statuses.set(n, ((r.body as { data?: StatusData }).data ?? {}) as StatusData);
    }
    const primaries: Record<string, { set: string; wal: number }> = {};
    for (const [n, s] of statuses) if (s.mode === 'primary') primaries[n] = { set: s.cluster_id ?? '', wal: s.last_wal ?? 0 };
    const secondaries: Record<string, { primary: string | null; caughtUp: boolean; remote: number; wal: number }> = {};
    for (const [n, s] of statuses) {
      if (s.mode !== 'secondary') continue;
      const followed = addrs.get(s.primary_cluster_addr ?? '') ?? null;
      const p = followed !== null ? primaries[followed] : undefined;
      const primary = p && p.set === s.cluster_id ? followed : null;
      const wal = p?.wal ?? 0;
      const remote = s.last_remote_wal ?? 0;
      secondaries[n] = { primary, caughtUp: primary !== null && remote >= wal, remote, wal };
    }
    picture.primaries[kind] = primaries;
    picture.secondaries[kind] = secondaries;
  }
  return picture;
}

/** Why a settled variant is stuck compared with the settled baseline, each with the scenario steps that show it. */
export function stuckReasons(baseline: Picture, variant: Picture): { text: string; steps: Record<string, unknown>[] }[] {
  const out: { text: string; steps: Record<string, unknown>[] }[] = [];
  for (const kind of REPLICATION_KINDS) {
    const word = kind === 'dr' ? 'DR' : 'performance';
    const had = Object.keys(baseline.primaries[kind] ?? {});
    const has = Object.keys(variant.primaries[kind] ?? {});
    if (had.length > 0 && has.length === 0) {
      out.push({
        text: `no ${word} primary is running once the faults healed (the runbook ends with ${had.join(', ')} as primary)`,
        steps: had.map((c) => ({ name: `whatif: ${c} should be a running ${word} primary`, request: `GET sys/replication/${kind}/status`, on: c, token: 'none', expect: { data: { mode: 'primary' } } })),
      });
    }
    for (const [name, b] of Object.entries(baseline.secondaries[kind] ?? {})) {
      if (!b.caughtUp || b.primary === null) continue;
      const v = variant.secondaries[kind]?.[name];
      if (v?.caughtUp) continue;
      const text = v
        ? v.primary === null
          ? `${name} follows no running ${word} primary a minute after the faults healed (it followed ${b.primary})`
          : `${name} lags: last_remote_wal ${v.remote} against ${v.primary}'s last_wal ${v.wal}, a minute after the faults healed`
        : `${name} is no ${word} secondary once the faults healed`;
      const primary = v?.primary ?? b.primary;
      out.push({
        text,
        steps: [
          { name: `whatif: ${primary}'s last WAL`, request: `GET sys/replication/${kind}/status`, on: primary, token: 'none', save: { [`whatifWal_${name}`]: 'data.last_wal' } },
          { name: `whatif: ${name} should have caught up with ${primary}`, request: `GET sys/replication/${kind}/status`, on: name, token: 'none', expect: { data: { last_remote_wal: `\${whatifWal_${name}}` } } },
        ],
      });
    }
  }
  return out;
}
