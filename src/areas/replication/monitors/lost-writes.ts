// Hazard `lost-writes`: a promotion leaves behind writes the old primary acknowledged. Any promotion,
// forced or not, and a failover after the primary crashed alike: the new primary holds what had
// streamed to it, and every version the old primary had acknowledged (answered 200 for) that had not
// is gone from the set the moment the new primary takes writes. The cost is listed as keys and
// versions (`secret/app v3`) with both WAL positions, so an operator can see what to re-apply.
//
// What the old primary "acknowledged" is what it would have sent this secondary: all of its storage
// for DR, its replicated mounts through the secondary's paths filter for performance (local mounts
// never leave a cluster). The WALs still on their way to the secondary are read from the bus
// (src/kernel/bus.ts) when the observation carries its messages. The old primary is the one the secondary followed; a secondary that follows
// nobody is compared with the primary of its replication set, when there is one (forced-promotion.ts).
import { canonicalJson } from '../../../kernel/canonical.js';
import type { ClusterState, ReplicationKind } from '../../core/state.js';
import { primaryOf } from './forced-promotion.js';
import { KIND_WORD, keyName, stateBefore } from '../../monitoring/observe.js';
import { expectedReplica, isOwnLocalMount } from './replica.js';
import { stateless, type Finding, type Monitor, type Observation } from '../../monitoring/types.js';
import { keyEntries, recordAt } from '../../core/keymap.js';
import { versionAt, versionEntries } from '../../core/versions.js';

/** The versions the primary holds that the secondary lacks (or holds otherwise), as `mount/key vN`, sorted. */
export function lostVersions(kind: ReplicationKind, primary: ClusterState, secondary: ClusterState): string[] {
  const sent = kind === 'dr' ? primary.storage : expectedReplica(kind, primary, secondary);
  const held = secondary.storage;
  const lost: string[] = [];
  for (const [mount, keys] of Object.entries(sent.kv)) {
    if (kind !== 'dr' && isOwnLocalMount(primary, secondary, mount)) continue;
    const mine = held.kv[mount];
    if (mine === keys) continue;
    for (const [key, rec] of keyEntries(keys)) {
      const have = recordAt(mine, key);
      if (have === rec) continue;
      for (const [n, version] of versionEntries(rec)) {
        const h = versionAt(have, n);
        if (h === version || (h && canonicalJson(h) === canonicalJson(version))) continue;
        lost.push(`${keyName(mount, key)} v${n}`);
      }
    }
  }
  // Numeric order of versions within a key.
  return lost.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

export function lostWrites(): Monitor {
  return stateless({
    id: 'lost-writes',
    kind: 'hazard',
    description: 'a promotion (forced or not, after a crash too) leaves behind writes the old primary acknowledged; the report lists the keys and versions lost',
    observe(o: Observation) {
      const findings: Finding[] = [];
      o.events.forEach((e, i) => {
        if (e.type !== 'replication-secondary-promoted') return;
        const before = stateBefore(o, i);
        const s = before.clusters.get(e.cluster);
        const p = s ? primaryOf(before, e.kind, s) : null;
        if (!s || !p) return;
        const lost = lostVersions(e.kind, p, s);
        if (!lost.length) return;
        const shown = lost.length > 10 ? `${lost.slice(0, 10).join(', ')} and ${lost.length - 10} more` : lost.join(', ');
        const how = [e.force ? 'with force' : 'without force', before.network.down[p.name] ? `after ${p.name} crashed` : ''].filter(Boolean).join(' ');
        // DR mirrors the primary's WAL numbering; a performance secondary counts the primary's WAL it applied.
        const applied = e.kind === 'dr' ? `had applied up to WAL ${s.wal.last}` : `last_remote_wal ${s.replication[e.kind].lastRemoteWal}`;
        // The bus shows what was on its way: WALs the old primary had sent it that had not arrived.
        const seq = e.seq ?? Infinity;
        const held = (o.messages ?? [])
          .filter((m) => m.kind === 'wal' && m.from === p.name && m.to === e.cluster && m.sentBy < seq && (m.deliveredBy === null || m.deliveredBy > seq))
          .map((m) => m.order);
        const onTheWay = held.length ? `; ${held.length === 1 ? `WAL ${held[0]}` : `WALs ${Math.min(...held)}–${Math.max(...held)}`} ${held.length === 1 ? 'was' : 'were'} still on the way to it` : '';
        findings.push({
          kind: 'hazard',
          id: 'lost-writes',
          at: e.at,
          clusters: [e.cluster, p.name],
          message: `${e.cluster} was promoted to ${KIND_WORD[e.kind]} primary ${how} while it lacked ${lost.length} write${lost.length === 1 ? '' : 's'} ${p.name} had acknowledged (${p.name}'s last_wal ${p.wal.last}, ${e.cluster} ${applied}): ${shown} ${lost.length === 1 ? 'is' : 'are'} lost${onTheWay}`,
          lostKeys: lost,
        });
      });
      return findings;
    },
  });
}
