// Mermaid `stateDiagram-v2` drawn from the XState machines themselves (their state nodes, events,
// targets and named guards), so the pictures in docs/machines.md cannot drift from the gates the
// simulator asks: a test regenerates them and compares.
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { generationAttemptMachine } from '../../models/generation-attempt.machine.js';
import { pluginRuntimeMachine } from '../../models/plugin-runtime.machine.js';
import { replicationRoleMachine } from '../../models/replication-role.machine.js';
import { secondaryConnectionMachine } from '../../models/secondary-connection.machine.js';
import { syncAssociationMachine } from '../../models/sync-association.machine.js';
import { syncConfigMachine } from '../../models/sync-config.machine.js';
import { githubAppMachine } from '../../models/sync-github-app.machine.js';
import { tokenMachine } from '../../models/token.machine.js';

/** The machines drawn, in the order of the spec's tables, each with the words that introduce it. */
export const MACHINES: readonly { title: string; file: string; about: string; machine: AnyStateMachine; direction?: 'LR' }[] = [
  {
    title: 'Replication role (DR and performance)',
    file: 'models/replication-role.machine.ts',
    about: 'The spec\'s role table, one machine for both kinds; `hasOperationTokenIfDr` is where the kinds differ.',
    machine: replicationRoleMachine,
  },
  {
    title: 'Secondary connection',
    file: 'models/secondary-connection.machine.ts',
    about: 'A following secondary\'s link to its primary: what the status record reports as `connection_state` and `state`; the guards are the link\'s facts (reachable, issuer still a primary, same replication set, credentials accepted).',
    machine: secondaryConnectionMachine,
    // `follow` and `lost` share one arrow into connecting, whose longer label meets the observe
    // arrows' labels when drawn top to bottom.
    direction: 'LR',
  },
  {
    title: 'Operation token generation attempt',
    file: 'models/generation-attempt.machine.ts',
    about: 'One attempt at a time; each key share must carry the nonce; the threshold completes it.',
    machine: generationAttemptMachine,
  },
  {
    title: 'Sync association',
    file: 'models/sync-association.machine.ts',
    about: 'Linked by set, refreshed by set, unlinked by remove; the sync status moves with each attempt.',
    machine: syncAssociationMachine,
    // Its failure states all lead to each other: drawn top to bottom, two of their labels overlap.
    direction: 'LR',
  },
  {
    title: 'Plugin runtime',
    file: 'models/plugin-runtime.machine.ts',
    about: 'Registered (created or overwritten) by POST, removed by DELETE unless a plugin references it.',
    machine: pluginRuntimeMachine,
  },
  {
    title: 'Sync system settings',
    file: 'models/sync-config.machine.ts',
    about: '`sys/sync/config`: disabled stops sync jobs (operations wait, PENDING); an operation is queued only while the queue has room (`queue_capacity`).',
    machine: syncConfigMachine,
  },
  {
    title: 'GitHub App registration',
    file: 'models/sync-github-app.machine.ts',
    about: 'Registered by POST, removed by DELETE unless a code host destination authenticates as it.',
    machine: githubAppMachine,
  },
  {
    title: 'Token (renew and revoke)',
    file: 'models/token.machine.ts',
    about: 'A service token is renewed while renewable and expiring, and revoked; a batch token has no row: it cannot be renewed or revoked.',
    machine: tokenMachine,
  },
];

type GuardLike = string | { type?: string } | ((...args: never[]) => unknown) & { guards?: unknown[] };

/** A guard as its name, or a combination of names (`a ∧ b`, `a ∨ b`, `¬a`). */
export function guardLabel(guard: unknown): string {
  const g = guard as GuardLike;
  if (typeof g === 'string') return g;
  if (typeof g === 'function') {
    const inner = (g.guards ?? []).map(guardLabel);
    if (g.name === 'and') return inner.join(' ∧ ');
    if (g.name === 'or') return inner.map((s) => (s.includes(' ') ? `(${s})` : s)).join(' ∨ ');
    if (g.name === 'not') return `¬${inner[0]}`;
    return g.name || 'inline guard';
  }
  if (g && typeof g === 'object' && typeof g.type === 'string') return g.type;
  return 'guard';
}

/**
 * A state node's id in the diagram: its path joined by `_`, every character Mermaid's lexer does not
 * take in an id (dots, hyphens: `stream-wals`) made `_`. The state's own name is shown through
 * `state "name" as id`, so the picture keeps the spec's words.
 */
export function nodeId(node: AnyStateNode): string {
  return node.path.length === 0 ? '[*]' : node.path.map((p) => p.replace(/[^A-Za-z0-9_]/g, '_')).join('_');
}

function childrenOf(node: AnyStateNode): AnyStateNode[] {
  return Object.values(node.states) as AnyStateNode[];
}

/** The lines of one state node and its children, indented, with the transitions it declares. */
function drawNode(node: AnyStateNode, indent: string, out: string[]): void {
  const children = childrenOf(node);
  const id = nodeId(node);
  const name = node.key;
  if (children.length > 0) {
    if (name !== id) out.push(`${indent}state "${name}" as ${id}`);
    out.push(`${indent}state ${id} {`);
    const first = node.initial?.target?.[0] as AnyStateNode | undefined;
    if (first) out.push(`${indent}  [*] --> ${nodeId(first)}`);
    for (const child of children) drawNode(child, indent + '  ', out);
    out.push(`${indent}}`);
  } else if (name !== id) {
    out.push(`${indent}state "${name}" as ${id}`);
  }
  if (node.description) out.push(`${indent}note right of ${id} : ${node.description.replace(/\s+/g, ' ')}`);
}

/** One transition of a machine: from which state (or any), to which, on which event, under which guard. */
export interface Transition {
  /** The source state's path (`secondary.following`), or `*` for a transition the machine takes in every state. */
  from: string;
  to: string;
  /** Their ids in the diagram. */
  fromId: string;
  toId: string;
  event: string;
  guard: string | null;
}

/** The id of the pseudo-state that stands for "any state" (transitions declared on the machine's root). */
const ANY = 'any_state';

/** Every transition of a machine, in declaration order; one declared on the root is taken in any state. */
export function transitionsOf(machine: AnyStateMachine): Transition[] {
  const out: Transition[] = [];
  const walk = (node: AnyStateNode) => {
    for (const [event, defs] of node.transitions) {
      for (const def of defs) {
        const targets = (def.target ?? [node]) as AnyStateNode[];
        const guard = def.guard === undefined ? null : guardLabel(def.guard);
        const root = node.path.length === 0;
        for (const t of targets) out.push({ from: root ? '*' : node.path.join('.'), to: t.path.join('.'), fromId: root ? ANY : nodeId(node), toId: nodeId(t), event, guard });
      }
    }
    for (const child of childrenOf(node)) walk(child);
  };
  walk(machine.root as AnyStateNode);
  return out;
}

/**
 * The arrows: one per pair of states, labelled with the numbers of the transitions it carries (the
 * table under the diagram gives each number's event and guards). Mermaid's layout puts parallel
 * arrows and long labels over each other (update-primary by token, by addresses, by an empty token,
 * each with three guards); numbers keep every label small. A transition the machine takes in every
 * state is drawn once, from "any state", not from each.
 */
function drawTransitions(transitions: readonly Transition[], out: string[]): void {
  const edges = new Map<string, number[]>();
  transitions.forEach((t, k) => {
    const key = `${t.fromId} --> ${t.toId}`;
    edges.set(key, [...(edges.get(key) ?? []), k + 1]);
  });
  if (transitions.some((t) => t.from === '*')) out.push(`  state "any state" as ${ANY}`);
  for (const [key, numbers] of edges) out.push(`  ${key} : ${numbers.join(', ')}`);
}

/** The table of a diagram's numbered transitions, in Markdown. */
export function transitionTable(transitions: readonly Transition[]): string[] {
  const lines = ['| # | from | to | event | guards (all must hold) |', '|---|---|---|---|---|'];
  const code = (s: string) => '`' + s + '`';
  transitions.forEach((t, k) =>
    lines.push(`| ${k + 1} | ${t.from === '*' ? 'any state' : code(t.from)} | ${code(t.to)} | ${code(t.event)} | ${t.guard === null ? '—' : t.guard.split(' ∧ ').map(code).join(' ∧ ')} |`),
  );
  return lines;
}

/** Two states whose ids came out the same once made safe would be drawn as one: refuse to draw. */
function checkIds(root: AnyStateNode): void {
  const seen = new Map<string, string>();
  const walk = (n: AnyStateNode) => {
    const id = nodeId(n);
    const path = n.path.join('.');
    const other = seen.get(id);
    if (other !== undefined && other !== path) throw new Error(`states ${other} and ${path} would share the diagram id ${id}`);
    seen.set(id, path);
    for (const c of childrenOf(n)) walk(c);
  };
  walk(root);
}

/** A Mermaid `stateDiagram-v2` of a machine: every state, every transition, guards by name. */
export function stateDiagram(machine: AnyStateMachine, direction?: 'LR'): string {
  const root = machine.root as AnyStateNode;
  checkIds(root);
  const out = ['stateDiagram-v2', `  %% generated from the machine "${machine.id}" by replsim diagram: do not edit`];
  if (direction) out.push(`  direction ${direction}`);
  const first = root.initial?.target?.[0] as AnyStateNode | undefined;
  if (first) out.push(`  [*] --> ${nodeId(first)}`);
  for (const child of childrenOf(root)) drawNode(child, '  ', out);
  drawTransitions(transitionsOf(machine), out);
  return out.join('\n');
}

/** docs/machines.md: one section and diagram per machine. */
export function machinesMarkdown(): string {
  const parts = [
    '# The machines, drawn from the code',
    '',
    'Generated by `npx replsim diagram` from the XState machines in `models/` (a test fails when a machine',
    'changes and this file does not). Each arrow carries the numbers of its transitions; the table under',
    'the diagram gives each one\'s event (the request that asks) and its named guards (the real facts the',
    'handler checked, all of which must hold). A transition the machine takes in every state is drawn',
    'once, from "any state". Code hosts render these diagrams; a test renders each with Mermaid.',
    '',
  ];
  for (const m of MACHINES) {
    parts.push(`## ${m.title}`, '', `${m.about} Source: \`${m.file}\`.`, '', '```mermaid', stateDiagram(m.machine, m.direction), '```', '', ...transitionTable(transitionsOf(m.machine)), '');
  }
  return parts.join('\n');
}
