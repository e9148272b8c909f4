// What replication sends over the bus (src/kernel/bus.ts), read from each applied event: what the
// event records (its type, the clusters it names, the machine's answers: a connection's phase, a
// link's reason, the forwarder of a write, the WAL a delivery or a sync brought a secondary up to)
// and what its reducers reported they touched (engine.ts `Answer`): the WALs a cluster wrote
// (core/touched.ts) and what they did to a link (touched.ts: a stream reset, a connection closed,
// credentials revoked, a link changed). No record is compared before and after: the state after the
// event says where things stand (who follows whom, who is connected; before it, whom a crashed
// cluster's followers followed), the clusters' table which clusters it changed (`changedClusters`).
// - `wal`: each WAL a primary writes, one message per follower whose link is up and WAL index, sent
//   when written and due one link latency later; the bus is in control of these: shipping.ts receives
//   them when due (delivered through the connection machine's gate, held by a partition, dropped
//   when the link was reset). A follower that (re)connects to stream WALs is sent the WALs it misses,
//   from its own WAL position (as the service's WAL streaming resumes). A merkle sync that covers a WAL
//   in flight delivers it too. A stream reset (the follower promoted, disabled, re-pointed) drops what
//   was on its way.
// - `connect`: a secondary's connection attempt, sent when it could start, arriving when the link came up.
// - `merkle-sync`: the primary's initial sync (or diff), from the link coming up to the sync's end.
// - `forwarded-write`: a write a performance secondary sent on to its primary: a client's KV write or
//   delete, a KV-v2 config or metadata write, a sync destination or association write, a plugin
//   catalog or runtime write. The event that applied it on the primary names the secondary
//   (`forwardedBy`, forwarding.ts `forwardedFrom`).
// - `unwrap`: redeeming a response-wrapped activation token calls the primary (a token sealed to a
//   public key needs no call).
// `forwarded-write` and `unwrap` are calls made and answered within a request: a request is one
// instant of the virtual clock, so they are read from the request's event, sent and delivered at that
// instant (deliveredAt = sentAt). The network decides them when the request is decided: across a
// partition, or to a crashed primary, the request is refused (forwarding.ts, activation.ts), nothing
// is appended and nothing is sent (docs/architecture.md, "Calls take no virtual time").
import type { BusEffects, BusMessage, BusView, MessageSource, SentMessage } from '../../kernel/bus.js';
import type { Touch } from '../../kernel/engine.js';
import type { LinkTouched } from './touched.js';
import type { SimEvent } from '../core/events.js';
import type { ReplicationKind, SimState } from '../core/state.js';
import { changedClusters } from '../core/changed.js';
import { followersOf, redialDelayMs } from './link.js';
import { isUp, linkLatency, type NetworkState } from '../../kernel/network.js';
import { linkStream, walStream } from './shipping.js';
import { KIND_WORD, REPLICATION_KINDS } from '../core/vocabulary.js';


/** A dial's id: kind, secondary, primary, and its attempt when not the first ("connect:dr:west>east#3@41"). */
const DIAL = /^connect:(dr|performance):([^>]+)>(.+?)(?:#(\d+))?@\d+$/;

/** The ids of in-flight WALs on a stream up to `index`, in index order. */
function walsUpTo(bus: BusView, stream: string, index: number): string[] {
  const taken: BusMessage[] = [];
  let sorted = true;
  for (const m of bus.onStream(stream)) {
    if (m.order > index) continue;
    if (taken.length && taken[taken.length - 1].order > m.order) sorted = false;
    taken.push(m);
  }
  // A stream is sent in WAL order (a resumed stream goes on after what is on its way), so this sort is a safeguard.
  if (!sorted) taken.sort((a, b) => a.order - b.order);
  const ids = new Array<string>(taken.length);
  for (let i = 0; i < taken.length; i++) ids[i] = taken[i].id;
  return ids;
}

/** The label of each WAL `from`..`to` of a kind, made once for all the followers it goes to. */
function walLabels(kind: ReplicationKind, from: number, to: number): string[] {
  const out: string[] = [];
  for (let i = from; i <= to; i++) out.push(`WAL ${i} (${KIND_WORD[kind]})`);
  return out;
}

/** WAL messages of a primary to one follower, numbered from `from`, one per label (`walLabels`), sent by event `seq` at `at`, appended to `out`. */
function wals(out: SentMessage[], kind: ReplicationKind, primary: string, follower: string, from: number, labels: readonly string[], at: number, net: NetworkState, seq: number, bus: BusView): void {
  const stream = walStream(kind, primary, follower);
  // A stream arrives in order (one connection): a WAL sent after the link's slowness ended does not
  // overtake those sent while it was slow.
  let due = at + linkLatency(net, primary, follower);
  for (const m of bus.onStream(stream)) if (m.dueAt !== null && m.dueAt > due) due = m.dueAt;
  // The id is the stream's name, the WAL index and the sending event: "wal:dr:east>west:7@12".
  for (let i = 0; i < labels.length; i++)
    out.push({ id: `${stream}:${from + i}@${seq}`, kind: 'wal', stream, from: primary, to: follower, sentAt: at, dueAt: due, label: labels[i], order: from + i });
}

/**
 * What a forwarded write was, in an operator's words, by the event that applied it on the primary:
 * KV data, KV-v2 config and metadata, sync destinations and associations, the plugin catalog.
 */
function forwardedWhat(event: SimEvent): string | null {
  switch (event.type) {
    case 'kv-written':
      return `write ${event.mount}${event.key}`;
    case 'kv-deleted':
      return `delete ${event.mount}${event.key}`;
    case 'kv-config-written':
      return `config write ${event.mount}config`;
    case 'kv-metadata-written':
      return `metadata write ${event.mount}metadata/${event.key}`;
    case 'sync-destination-configured':
      return `sync destination write ${event.destination.key}`;
    case 'sync-destination-deleted':
      return `sync destination delete ${event.destination}`;
    case 'sync-destination-purge-started':
      return `sync destination purge ${event.destination}`;
    case 'sync-association-set':
      return `sync association set ${event.destination} ${event.association.secretName}`;
    case 'sync-association-removed':
      return `sync association remove ${event.destination} ${event.id}`;
    case 'plugin-runtime-registered':
      return `plugin runtime register ${event.runtime.type}/${event.runtime.name}`;
    case 'plugin-runtime-deleted':
      return `plugin runtime delete ${event.runtimeType}/${event.name}`;
    case 'plugin-registered':
      return `plugin register ${event.plugin.type}/${event.plugin.name}`;
    case 'plugin-deregistered':
      return `plugin deregister ${event.pluginType}/${event.name}`;
    default:
      return null;
  }
}

/**
 * What the event's reducers reported they touched (engine.ts `Answer`; touched.ts, core/touched.ts),
 * gathered for the readings below: by cluster and kind, the most telling report of its link (a stream
 * reset over a connection closed over a link changed), whether some revocation changed, and the WALs
 * each cluster wrote (one range: an event may report several WALs of a cluster). Made when first
 * needed: most events report one WAL, or nothing.
 */
class Reported {
  /** The most telling report of each link reported (a handful at most: looked up by a scan). */
  private links: LinkTouched[] | null = null;
  /** The WALs each cluster wrote, one range per cluster, in name order. */
  wals: { cluster: string; from: number; to: number }[] | null = null;
  /** Whether some cluster's revoked credentials changed. */
  revoked = false;

  constructor(touched: readonly Touch[]) {
    for (const t of touched) {
      if (t.what === 'wal') {
        const w = this.wals?.find((x) => x.cluster === t.cluster);
        if (!w) (this.wals ??= []).push({ cluster: t.cluster, from: t.from, to: t.to });
        else {
          if (t.from < w.from) w.from = t.from;
          if (t.to > w.to) w.to = t.to;
        }
        continue;
      }
      if (t.what === 'credentials-revoked') this.revoked = true;
      const links = (this.links ??= []);
      const i = links.findIndex((x) => x.kind === t.kind && x.cluster === t.cluster);
      if (i < 0) links.push(t);
      else if (RANK[t.what] > RANK[links[i].what]) links[i] = t;
    }
    if (this.wals && this.wals.length > 1) this.wals.sort((a, b) => (a.cluster < b.cluster ? -1 : 1));
  }

  /** What was reported of a cluster's link of a kind, if anything. */
  link(kind: ReplicationKind, cluster: string): LinkTouched | undefined {
    if (this.links) for (const t of this.links) if (t.kind === kind && t.cluster === cluster) return t;
    return undefined;
  }
}

/** Which report of a link tells the most: a reset drops everything on the link, a closed connection what was on it. */
const RANK: Record<LinkTouched['what'], number> = { 'link-changed': 0, 'credentials-revoked': 1, 'connection-closed': 2, 'stream-reset': 3 };

/**
 * What one event did on the bus, gathered as the readings below find it; its lists are made when
 * first needed (most events send one kind of thing, or nothing).
 */
class Effects {
  sent: SentMessage[] | null = null;
  delivered: (string | { id: string; label: string })[] | null = null;
  dropped: { id: string; reason: string }[] | null = null;
  /** Ids dropped so far: a message is dropped once, and a connection attempt dropped here is not one on its way. */
  droppedIds: Set<string> | null = null;
  wake: string[] | null = null;
  check: string[] | null = null;

  send(m: SentMessage): void {
    (this.sent ??= []).push(m);
  }

  /** The list sent messages go to (wals() appends a stream's worth at once). */
  sending(): SentMessage[] {
    return (this.sent ??= []);
  }

  deliver(...ids: (string | { id: string; label: string })[]): void {
    (this.delivered ??= []).push(...ids);
  }

  /** The messages held on a stream are looked at again now. */
  wakeStream(stream: string): void {
    (this.wake ??= []).push(stream);
  }

  /** A link is looked at after this event (whether its messages still stand). */
  checkLink(link: string): void {
    (this.check ??= []).push(link);
  }

  drop(messages: readonly { id: string }[], reason: string): void {
    for (const { id } of messages) {
      const ids = (this.droppedIds ??= new Set());
      if (ids.has(id)) continue;
      ids.add(id);
      (this.dropped ??= []).push({ id, reason });
    }
  }

  /** Whether a message sent on a stream is on its way (in flight and not dropped now, or sent now). */
  onItsWay(bus: BusView, stream: string): boolean {
    for (const m of bus.onStream(stream)) if (!this.droppedIds?.has(m.id)) return true;
    if (this.sent) for (const m of this.sent) if (m.stream === stream) return true;
    return false;
  }

  result(): BusEffects | null {
    if (!this.sent && !this.delivered && !this.dropped && !this.wake && !this.check) return null;
    return { sent: this.sent ?? NONE, delivered: this.delivered ?? NONE, dropped: this.dropped ?? NONE, wake: this.wake ?? NONE, check: this.check ?? NONE };
  }
}

/** The empty list an effect without entries of a kind hands the bus (it only reads them). */
const NONE: never[] = Object.freeze([]) as never[];

/** The names, sorted (a copy; one name or none needs no sort). */
function sortedNames(names: readonly string[]): readonly string[] {
  return names.length <= 1 ? names : [...names].sort();
}

export const replicationMessages: MessageSource<SimState, SimEvent> = (before, event, after, bus, touched) => {
  // A heal or a restart may let a waiting secondary try to connect again, a cut or a crash may drop
  // links; a dial dropped may be tried again; else only a change to the clusters sends.
  const networkChanged = before.network !== after.network;
  if (before.clusters === after.clusters && !networkChanged && event.type !== 'message-dropped') return null;
  const out = new Effects();
  const net = after.network;
  // The clusters this event changed (or added), in name order: what the readings below look at.
  const changed = sortedNames(changedClusters(before, after));
  const e = event as SimEvent & Record<string, unknown>;
  const seq = event.seq ?? 0;
  const reported = new Reported(touched);
  // Deliveries first: an event that delivers and then writes (none today) would deliver what was in flight.
  for (const name of changed) {
    for (const kind of REPLICATION_KINDS) {
      const link = reported.link(kind, name);
      if (link?.what === 'stream-reset') {
        // Promoted, disabled, re-pointed, given other credentials: what was on its way is lost with the link.
        const primary = link.primary!;
        out.drop(bus.onStream(walStream(kind, primary, name)), `link reset: ${name} no longer streams from ${primary}`);
        out.drop(bus.onStream(linkStream(kind, name)), `link reset: ${name} no longer follows ${primary}`);
      } else if (link?.what === 'connection-closed') {
        // Told to follow the same primary again (update-primary, recover), the secondary closed the
        // connection it had: a sync under way on it is lost with it, and it dials afresh.
        out.drop(bus.onStream(linkStream(kind, name)), `connection closed: ${name} connects to ${link.primary!} again`);
      } else if (e.type === 'replication-recovered' && (e.kinds as ReplicationKind[]).includes(kind)) {
        // Recovery restarts a secondary's connection: a dial waiting out its backoff is replaced by one now.
        const primary = after.clusters.named(name).replication[kind].primary;
        if (primary !== null) out.drop(bus.onStream(linkStream(kind, name)), `recover: ${name} connects to ${primary} again`);
      }
    }
  }
  // WALs taken: a delivery, or a merkle sync that covered the WALs on their way, up to `wal`.
  if (e.type === 'replication-wal-delivered' || e.type === 'replication-secondary-synced') {
    const ids = walsUpTo(bus, walStream(e.kind as ReplicationKind, e.primary as string, e.cluster as string), e.wal as number);
    if (ids.length) out.deliver(...ids);
  }
  // A performance secondary forwarded a write to its primary (forwarding.ts `forwardedFrom`): a call
  // made and answered within the request, which the network allowed (the decision refuses the write
  // when the link is down: `writeLanding`, `configurationLanding`).
  if (typeof e.forwardedBy === 'string') {
    const what = forwardedWhat(event);
    if (what === null) throw new Error(`replication log is inconsistent: ${event.type} names forwardedBy, but no forwarded write is of that type`);
    out.send({ id: `forwarded-write:${e.forwardedBy}>${e.cluster}@${seq}`, kind: 'forwarded-write', from: e.forwardedBy, to: e.cluster as string, sentAt: event.at, label: `forwarded ${what}`, order: 0, now: true });
  }
  switch (e.type) {
    case 'replication-secondary-connected': {
      const kind = e.kind as ReplicationKind;
      const cluster = e.cluster as string;
      const primary = e.primary as string;
      const link = linkStream(kind, cluster);
      for (const m of bus.onStream(link)) if (m.kind === 'connect') out.deliver(m.id);
      const r = after.clusters.named(cluster).replication[kind];
      const stream = walStream(kind, primary, cluster);
      out.wakeStream(stream);
      if (r.syncState === 'stream-wals') {
        // Back to streaming WALs: the primary resumes from the secondary's WAL position, sending what it
        // missed and is not already on its way.
        let onTheWay = r.lastRemoteWal;
        for (const m of bus.onStream(stream)) if (m.order > onTheWay) onTheWay = m.order;
        const last = after.clusters.named(primary).wal.last;
        if (last > onTheWay) wals(out.sending(), kind, primary, cluster, onTheWay + 1, walLabels(kind, onTheWay + 1, last), event.at, net, seq, bus);
      } else {
        // Into a merkle sync (a new secondary) or diff (one re-pointed): the primary sends it.
        const word = r.syncState === 'merkle-sync' ? 'initial sync' : 'merkle diff';
        out.send({ id: `merkle-sync:${kind}:${primary}>${cluster}@${seq}`, kind: 'merkle-sync', stream: link, from: primary, to: cluster, sentAt: event.at, dueAt: event.at + linkLatency(net, primary, cluster), label: `${word} (${KIND_WORD[kind]})`, order: 0 });
      }
      break;
    }
    case 'replication-secondary-synced': {
      const kind = e.kind as ReplicationKind;
      const cluster = e.cluster as string;
      // Its label says, now that it ended, up to which WAL it brought the secondary.
      for (const m of bus.onStream(linkStream(kind, cluster))) if (m.kind === 'merkle-sync') out.deliver({ id: m.id, label: m.label.replace(/ \(/, ` to WAL ${e.wal as number} (`) });
      out.wakeStream(walStream(kind, e.primary as string, cluster));
      break;
    }
    case 'cluster-crashed': {
      // The crash ended these connections (streaming.ts `withConnectionsLost`): the dials and syncs
      // on their way over them are lost with them, and each secondary dials again. WALs a crashed
      // primary sent stay on their way (they wait for the stream, and a promotion meanwhile shows
      // them as the writes it lost); what was on its way to a crashed secondary the bus dropped.
      // Streaming resumes from the secondary's own WAL position.
      const crashed = e.cluster as string;
      for (const name of changed) {
        const was = before.clusters.get(name);
        if (!was) continue;
        for (const kind of REPLICATION_KINDS) {
          const r0 = was.replication[kind];
          if (r0.primary === null || r0.role !== 'secondary.following') continue;
          if (name !== crashed && r0.primary !== crashed) continue;
          out.drop(bus.onStream(linkStream(kind, name)), `connection lost: ${crashed} crashed`);
        }
      }
      break;
    }
    case 'message-dropped': {
      // A dial nothing answered (the primary is down): the secondary dials again after its backoff
      // (link.ts REDIAL). Sent now, the attempt starts then: its send time is the attempt's start.
      const dial = DIAL.exec(e.id as string);
      if (!dial || e.reason !== `${dial[3]} is down`) break;
      const [, kind, name, primary, n] = dial as unknown as [string, ReplicationKind, string, string, string | undefined];
      const r = after.clusters.get(name)?.replication[kind];
      const link = linkStream(kind, name);
      if (!r || r.role !== 'secondary.following' || r.primary !== primary || r.connected || !isUp(after.network, name) || out.onItsWay(bus, link)) break;
      const attempt = (n === undefined ? 1 : Number(n)) + 1;
      const start = event.at + redialDelayMs(attempt - 1);
      out.send({ id: `connect:${kind}:${name}>${primary}#${attempt}@${seq}`, kind: 'connect', stream: link, from: name, to: primary, sentAt: start, dueAt: start + linkLatency(net, name, primary), label: `connect (${KIND_WORD[kind]}), attempt ${attempt}`, order: 0 });
      break;
    }
    case 'replication-secondary-disconnected':
      // The link dropped: a connection attempt or a sync under way is lost with it (WALs held by a
      // partition stay: they cross once the link is back).
      out.drop(bus.onStream(linkStream(e.kind as ReplicationKind, e.cluster as string)), `link down: ${e.reason as string}`);
      break;
    case 'replication-secondary-enabled':
    case 'replication-secondary-primary-updated': {
      const kind = e.kind as ReplicationKind;
      const primary = e.primary as string | null;
      if (primary === null || e.via === 'addresses' || e.via === 'empty-token') break;
      const issued = before.clusters.get(primary)?.replication[kind].issued[e.secondaryId as string];
      if (issued?.publicKey) break;
      out.send({ id: `unwrap:${kind}:${e.cluster}>${primary}@${seq}`, kind: 'unwrap', from: e.cluster as string, to: primary, sentAt: event.at, label: `unwrap activation token (${KIND_WORD[kind]})`, order: 0, now: true });
      break;
    }
  }
  // A secondary waiting for its link (just told to follow, or its link dropped) tries to connect: one
  // attempt on its way at a time; a secondary whose link is up gets it checked (has it dropped?).
  // Looked at for the clusters that changed, the followers of a primary whose replication changed
  // (demoted, revoked, promoted again, a token re-issued), and everyone after a fault or a heal.
  let look: readonly string[] = networkChanged ? sortedNames(after.clusters.names) : changed;
  // The followers of a cluster whose link changed: their links may have dropped with it. A cluster
  // new in the table changed everything.
  let followers: Set<string> | null = null;
  for (const name of changed) {
    const added = !before.clusters.has(name);
    for (const kind of REPLICATION_KINDS) {
      if (!added && !reported.link(kind, name)) continue;
      // A revocation bars the credentials in the whole set (link.ts credentialsRevoked): every follower is looked at.
      const everyone = added || reported.revoked;
      for (const f of after.clusters) if (everyone || f.replication[kind].primary === name) (followers ??= new Set()).add(f.name);
    }
  }
  if (followers) {
    const all = new Set(look);
    for (const f of followers) all.add(f);
    if (all.size > look.length) look = [...all].sort();
  }
  for (const name of look) {
    for (const kind of REPLICATION_KINDS) {
      const r = after.clusters.named(name).replication[kind];
      if (r.role !== 'secondary.following' || r.primary === null) continue;
      const link = linkStream(kind, name);
      // A link that is up may have dropped: look at it now (streaming.ts checkLink) when the network
      // changed, or its own side or its primary's was reported changed (a WAL taken reports neither).
      if (r.connected) {
        if (networkChanged || followers?.has(name) || !before.clusters.has(name) || reported.link(kind, name)) out.checkLink(link);
        continue;
      }
      // A crashed secondary has no process to dial with: it dials once it is restarted.
      if (!isUp(after.network, name) || out.onItsWay(bus, link)) continue;
      out.send({ id: `connect:${kind}:${name}>${r.primary}@${seq}`, kind: 'connect', stream: link, from: name, to: r.primary, sentAt: event.at, dueAt: event.at + linkLatency(net, name, r.primary), label: `connect (${KIND_WORD[kind]})`, order: 0 });
    }
  }
  // WALs written: one message per follower whose link is up and index, in flight until delivered. A
  // follower still connecting gets them by its merkle sync, or when it resumes streaming.
  if (reported.wals) {
    for (const { cluster: name, from, to } of reported.wals) {
      const now = after.clusters.named(name);
      for (const kind of REPLICATION_KINDS) {
        if (now.replication[kind].role !== 'primary') continue;
        let labels: string[] | null = null;
        for (const f of followersOf(after, kind, now)) {
          if (!f.replication[kind].connected) continue;
          labels ??= walLabels(kind, from, to);
          wals(out.sending(), kind, name, f.name, from, labels, event.at, net, seq, bus);
        }
      }
    }
  }
  return out.result();
};
