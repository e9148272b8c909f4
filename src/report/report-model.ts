// The data behind report.html and sequence.md: for every step of a run, what was asked and answered,
// the rule behind a refusal, the findings, and the topology after it (roles, who follows whom,
// streaming, partitions, crashes, external stores); the messages that crossed the network; and each
// cluster's role over time. Built from the run's own records and log, never recomputed by the page.
import { modeOf } from '../../models/replication-role.machine.js';
import { replicationStatus } from '../areas/replication/index.js';
import type { ReplicationKind, SimState } from '../areas/cluster/state.js';
import type { RunResult } from '../scenario/runner.js';
import { messagesOf, type NetworkMessage } from './messages.js';
import { redact } from './redact.js';
import type { RefusalExplanation } from '../kernel/http/refusal.js';

export interface RoleView {
  /** disabled | primary | secondary, as the status record's `mode`. */
  mode: 'disabled' | 'primary' | 'secondary';
  /** The machine's state, e.g. `secondary.demoted`. */
  role: string;
  /** The cluster it follows, when a secondary that knows its primary. */
  follows: string | null;
  /** `state, connection_state` of the status record, on a secondary. */
  streaming: string | null;
  /** Performance secondary: the mount and namespace paths its primary filters from it. */
  filtered: string[];
}

export interface ClusterView {
  name: string;
  version: string;
  crashed: boolean;
  dr: RoleView;
  performance: RoleView;
}

export interface TopologyView {
  /** Virtual time (ms). */
  at: number;
  clusters: ClusterView[];
  /** Links cut by a partition, as pairs of cluster names. */
  cut: [string, string][];
  /** External stores behind sync destinations, by destination key ("codehost/gh1"); a store is a network node. */
  stores: string[];
}

export interface StepView {
  /** From 1, as narration numbers steps. */
  n: number;
  title: string;
  name: string | null;
  kind: string;
  request: unknown;
  /** The response with secrets shortened. */
  response: { status: number; body: unknown } | null;
  endpoint: string | null;
  /** A refusal's registered code and the spec rule behind it (id and words). */
  rule: RefusalExplanation | null;
  ok: boolean;
  failure: string | null;
  findings: { kind: string; id: string; message: string; at: number }[];
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
  initial: TopologyView;
  steps: StepView[];
  messages: NetworkMessage[];
  roles: RoleSpan[];
  /** Virtual time at the end of the run (ms). */
  end: number;
}

const KINDS: ReplicationKind[] = ['dr', 'performance'];

function roleView(state: SimState, name: string, kind: ReplicationKind): RoleView {
  const r = state.clusters.named(name).replication[kind];
  const mode = modeOf(r.role);
  let streaming: string | null = null;
  if (mode === 'secondary') {
    const s = replicationStatus(state, name, kind) as { state?: string; connection_state?: string };
    streaming = `${s.state ?? '?'}, ${s.connection_state ?? '?'}`;
  }
  const filtered = kind === 'performance' && mode === 'secondary' ? [...r.dynamicFilter.mounts, ...r.dynamicFilter.namespaces] : [];
  return { mode, role: r.role, follows: mode === 'secondary' ? r.primary : null, streaming, filtered };
}

/** The topology a state shows. */
export function topologyOf(state: SimState): TopologyView {
  const names = [...state.clusters.names].sort();
  return {
    at: state.now,
    clusters: names.map((name) => ({
      name,
      version: state.clusters.named(name).version,
      crashed: state.network.down[name] === true,
      dr: roleView(state, name, 'dr'),
      performance: roleView(state, name, 'performance'),
    })),
    cut: Object.keys(state.network.cut)
      .sort()
      .map((l) => l.split('|') as [string, string]),
    stores: Object.keys(state.stores).sort(),
  };
}

/** Each cluster's role per kind as spans of virtual time (a crash shows as its own span). */
function roleSpans(views: TopologyView[], end: number): RoleSpan[] {
  const spans: RoleSpan[] = [];
  const open = new Map<string, RoleSpan>();
  for (const v of views) {
    for (const c of v.clusters) {
      for (const kind of KINDS) {
        const mode = c.crashed ? 'crashed' : c[kind].mode;
        const key = `${c.name}|${kind}`;
        const cur = open.get(key);
        if (cur && cur.mode === mode) continue;
        if (cur) cur.to = v.at;
        const span: RoleSpan = { cluster: c.name, kind, mode, from: v.at, to: end };
        spans.push(span);
        open.set(key, span);
      }
    }
  }
  return spans;
}

/** The report's data for a finished run. */
export function reportModel(file: string, r: RunResult, description?: string): ReportModel {
  const initialState = r.steps[0]?.before ?? r.world.state;
  let seqEnd = 1; // the world-created event
  const steps: StepView[] = r.steps.map((s) => {
    for (const e of s.events) seqEnd = Math.max(seqEnd, e.seq ?? 0);
    return {
      n: s.index + 1,
      title: s.title,
      name: s.name ?? null,
      kind: s.kind,
      request: s.request ? redact(s.request) : null,
      response: s.response ? { status: s.response.status, body: redact(s.response.body) } : null,
      endpoint: s.endpoint ?? null,
      rule: s.refusal ?? null,
      ok: s.ok,
      failure: s.failure ?? null,
      findings: s.findings.map((f) => ({ kind: f.kind, id: f.id, message: f.message, at: f.at })),
      topology: topologyOf(s.after),
      seqEnd,
    };
  });
  const initial = topologyOf(initialState);
  const end = r.world.state.now;
  return {
    file,
    name: r.name,
    description: description ?? null,
    seed: r.seed,
    verdict: r.verdict,
    expect: r.expect,
    reasons: r.reasons,
    clusterNames: initial.clusters.map((c) => c.name),
    initial,
    steps,
    messages: messagesOf(r.world.messages),
    roles: roleSpans([initial, ...steps.map((s) => s.topology)], end),
    end,
  };
}
