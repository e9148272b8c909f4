// The data behind report.html and sequence.md: for every step of a run, what was asked and answered,
// the rule behind a refusal, the findings, and the topology after it (roles, who follows whom,
// streaming, partitions, crashes, external stores); the messages that crossed the network; and each
// cluster's role over time. Built from the run's own records and log, never recomputed by the page.
import type { ReplicationKind } from '../areas/core/state.js';
import { REPLICATION_KINDS } from '../areas/core/vocabulary.js';
import type { BusMessage } from '../kernel/bus.js';
import type { RunResult } from '../scenario/runner.js';
import { lostMessagesOf, messagesOf, type LostMessage, type NetworkMessage } from './messages.js';
import { redact } from './redact.js';
import type { RefusalExplanation } from '../kernel/refusal.js';
import { stepPicture, topologyPicture, type ClusterPicture, type LagFacts, type RolePicture, type TopologyPicture } from '../scenario/picture.js';

/** A role in a step's topology, with how far a secondary is behind (worked out from the run's messages). */
export type RoleView = Omit<RolePicture, 'lagFacts'> & {
  /** A secondary that follows a primary: how far behind it is, in WALs and in ms (since the first WAL it lacks was written). */
  lag: { wals: number; ms: number } | null;
};

export type ClusterView = Omit<ClusterPicture, 'dr' | 'performance'> & { dr: RoleView; performance: RoleView };

export type TopologyView = Omit<TopologyPicture, 'clusters'> & { clusters: ClusterView[] };

export interface StepView {
  /** From 1, as narration numbers steps. */
  n: number;
  title: string;
  name: string | null;
  kind: string;
  /** Virtual time when the step began (ms); `topology.at` is when it ended. */
  at: number;
  request: { cluster: string; method: string; path: string; body?: unknown; namespace?: string; token: string } | null;
  /** The response with secrets shortened. */
  response: { status: number; body: unknown } | null;
  endpoint: string | null;
  /** A refusal's registered code and the spec rule behind it (id and words). */
  rule: RefusalExplanation | null;
  ok: boolean;
  failure: string | null;
  findings: { kind: string; id: string; message: string; at: number; lostKeys: string[] }[];
  /** What changed in the topology, in narration's words. */
  changes: string[];
  /** The step's `expect`, as written (secrets shortened), or null. */
  expect: unknown;
  /** An inspect step: the store read and what it held. */
  inspected: unknown;
  topology: TopologyView;
  /** The log position of the last event appended by the end of this step. */
  seqEnd: number;
}

export interface RoleSpan {
  cluster: string;
  kind: ReplicationKind;
  mode: RoleView['mode'] | 'crashed';
  from: number;
  to: number;
}

export interface ReportModel {
  file: string;
  name: string;
  description: string | null;
  seed: number;
  verdict: string;
  expect: unknown;
  reasons: string[];
  clusterNames: string[];
  /**
   * Where a client reaches each cluster, for the curl commands: `replsim serve`'s listeners (the
   * first cluster of the file on 127.0.0.1:8200, the next on 8201, …), or a live session's own.
   */
  addresses: Record<string, string>;
  initial: TopologyView;
  steps: StepView[];
  messages: NetworkMessage[];
  /** Messages dropped on the way (a crash, a reset link) or never delivered by the end of the run. */
  lost: LostMessage[];
  roles: RoleSpan[];
  /** Virtual time at the end of the run (ms). */
  end: number;
}

/**
 * How far a secondary is behind its primary. A DR secondary receives every WAL, so it lacks
 * `last_wal - last_remote_wal` of them; a performance secondary only those its paths filter lets
 * through, so it lacks the WALs its primary sent it (the bus keeps every one) that it has not applied.
 * The time is since the first WAL it lacks left the primary (or, for one never sent, was written).
 */
function lagOf(bus: readonly BusMessage[], at: number, name: string, kind: ReplicationKind, primary: string, facts: LagFacts): { wals: number; ms: number } {
  const stream = `wal:${kind}:${primary}>${name}`;
  const sent = new Set<number>();
  let first = Infinity;
  for (const m of bus) {
    if (m.stream !== stream || m.order <= facts.applied || m.sentAt > at) continue;
    sent.add(m.order);
    first = Math.min(first, m.sentAt);
  }
  const wals = kind === 'dr' ? Math.max(0, facts.last - facts.applied) : sent.size;
  if (wals === 0) return { wals: 0, ms: 0 };
  if (first === Infinity) first = facts.lastAt;
  return { wals, ms: Math.max(0, at - first) };
}

function roleView(r: RolePicture, bus: readonly BusMessage[], at: number, name: string, kind: ReplicationKind): RoleView {
  const { mode, role, follows, status, streaming, filtered, lastRemoteWal, lagFacts, revoked } = r;
  const lag = follows && lagFacts ? lagOf(bus, at, name, kind, follows, lagFacts) : null;
  return { mode, role, follows, status, streaming, filtered, lastRemoteWal, lag, revoked };
}

/** The topology a step's picture shows; `bus` is the run's messages, for how long a lagging secondary has lacked a WAL. */
export function topologyView(picture: TopologyPicture, bus: readonly BusMessage[] = []): TopologyView {
  const { at, clusters, cut, stores, alarms } = picture;
  return {
    at,
    clusters: clusters.map(({ name, version, crashed, lastWal, dr, performance }) => ({
      name,
      version,
      crashed,
      lastWal,
      dr: roleView(dr, bus, at, name, 'dr'),
      performance: roleView(performance, bus, at, name, 'performance'),
    })),
    cut,
    stores,
    alarms,
  };
}

/** Each cluster's role per kind as spans of virtual time (a crash shows as its own span), told the topologies in order. */
class RoleSpans {
  readonly spans: RoleSpan[] = [];
  private readonly open = new Map<string, RoleSpan>();

  constructor(private readonly end: number) {}

  add(v: TopologyView): void {
    for (const c of v.clusters) {
      for (const kind of REPLICATION_KINDS) {
        const mode = c.crashed ? 'crashed' : c[kind].mode;
        const key = `${c.name}|${kind}`;
        const cur = this.open.get(key);
        if (cur && cur.mode === mode) continue;
        if (cur) cur.to = v.at;
        const span: RoleSpan = { cluster: c.name, kind, mode, from: v.at, to: this.end };
        this.spans.push(span);
        this.open.set(key, span);
      }
    }
  }
}

/** A report's model without its steps and roles: what is known before the steps are read. */
export type ReportHead = Omit<ReportModel, 'steps' | 'roles'>;

/**
 * A report's model read one step at a time, for a run too long to hold every step's view at once:
 * `steps()` makes each step's view as it is read (a pass over the run's records) and returns, at
 * its end, the roles over time that the views showed. `count` is the number of steps.
 */
export interface ReportStream {
  head: ReportHead;
  count: number;
  steps(): Generator<StepView, RoleSpan[], undefined>;
}

/** The report's data for a finished run, its steps made as they are read. */
export function reportStream(file: string, r: RunResult, description?: string, addresses?: Record<string, string>): ReportStream {
  const initialState = r.steps.at(0)?.before ?? r.world.state;
  const bus = r.world.messages;
  const initial = topologyView(topologyPicture(initialState), bus);
  const end = r.world.state.now;
  const head: ReportHead = {
    file,
    name: r.name,
    description: description ?? null,
    seed: r.seed,
    verdict: r.verdict,
    expect: r.expect,
    reasons: r.reasons,
    clusterNames: initial.clusters.map((c) => c.name),
    addresses: addresses ?? Object.fromEntries([...initialState.clusters.names].map((name, i) => [name, `http://127.0.0.1:${8200 + i}`])),
    initial,
    messages: messagesOf(bus),
    lost: lostMessagesOf(bus),
    end,
  };
  function* steps(): Generator<StepView, RoleSpan[], undefined> {
    const roles = new RoleSpans(end);
    roles.add(initial);
    let seqEnd = 1; // the world-created event
    for (const s of r.steps) {
      for (const e of s.events) seqEnd = Math.max(seqEnd, e.seq ?? 0);
      // A record kept by a run carries its picture; one made by hand is pictured from its states.
      const picture = s.picture ?? stepPicture(s.before, s.after);
      const view: StepView = {
        n: s.index + 1,
        title: s.title,
        name: s.name ?? null,
        kind: s.kind,
        at: s.virtualAt,
        request: s.request ? (redact(s.request) as StepView['request']) : null,
        response: s.response ? { status: s.response.status, body: redact(s.response.body) } : null,
        endpoint: s.endpoint ?? null,
        rule: s.refusal ?? null,
        ok: s.ok,
        failure: s.failure ?? null,
        findings: s.findings.map((f) => ({ kind: f.kind, id: f.id, message: f.message, at: f.at, lostKeys: f.lostKeys ?? [] })),
        changes: picture.changes,
        expect: s.expect === undefined ? null : redact(s.expect),
        inspected: s.inspected ? redact(s.inspected) : null,
        topology: topologyView(picture.topology, bus),
        seqEnd,
      };
      roles.add(view.topology);
      yield view;
    }
    return roles.spans;
  }
  return { head, count: r.steps.length, steps };
}

/** The report's data for a finished run, every step's view in one array (the live view, a tutorial). */
export function reportModel(file: string, r: RunResult, description?: string, addresses?: Record<string, string>): ReportModel {
  const { head, steps: read } = reportStream(file, r, description, addresses);
  const views: StepView[] = [];
  const it = read();
  let next = it.next();
  for (; !next.done; next = it.next()) views.push(next.value);
  const { initial, messages, lost, end, ...rest } = head;
  // The keys in the order the page's data has always had them.
  return { ...rest, initial, steps: views, messages, lost, roles: next.value, end };
}
