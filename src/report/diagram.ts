// Mermaid `stateDiagram-v2` drawn from the XState machines themselves (their state nodes, events,
// targets and named guards), so the pictures in docs/machines.md cannot drift from the gates the
// simulator asks: a test regenerates them and compares.
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { generationAttemptMachine } from '../../models/generation-attempt.machine.js';
import { pluginRuntimeMachine } from '../../models/plugin-runtime.machine.js';
import { replicationRoleMachine } from '../../models/replication-role.machine.js';
import { secondaryConnectionMachine } from '../../models/secondary-connection.machine.js';
import { syncAssociationMachine } from '../../models/sync-association.machine.js';

/** The machines drawn, in the order of the spec's tables, each with the words that introduce it. */
export const MACHINES: readonly { title: string; file: string; about: string; machine: AnyStateMachine }[] = [
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
  },
  {
    title: 'Plugin runtime',
    file: 'models/plugin-runtime.machine.ts',
    about: 'Registered (created or overwritten) by POST, removed by DELETE unless a plugin references it.',
    machine: pluginRuntimeMachine,
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

/** A state node's id in the diagram: its path joined by `_` (Mermaid ids cannot hold dots). */
function nodeId(node: AnyStateNode): string {
  return node.path.length === 0 ? '[*]' : node.path.join('_');
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
    // Mermaid takes no display name on a composite state: its id (the path) is shown.
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

function drawTransitions(node: AnyStateNode, out: string[]): void {
  // A transition declared on the machine's root applies in every state: drawn from each top-level one.
  const sources = node.path.length === 0 ? childrenOf(node) : [node];
  for (const [eventType, defs] of node.transitions) {
    for (const def of defs) {
      const targets = (def.target ?? [node]) as AnyStateNode[];
      const guard = def.guard === undefined ? '' : ` [${guardLabel(def.guard)}]`;
      for (const from of sources) for (const t of targets) out.push(`  ${nodeId(from)} --> ${nodeId(t)} : ${eventType}${guard}`);
    }
  }
  for (const child of childrenOf(node)) drawTransitions(child, out);
}

/** A Mermaid `stateDiagram-v2` of a machine: every state, every transition, guards by name. */
export function stateDiagram(machine: AnyStateMachine): string {
  const root = machine.root as AnyStateNode;
  const out = ['stateDiagram-v2', `  %% generated from the machine "${machine.id}" by replsim diagram: do not edit`];
  const first = root.initial?.target?.[0] as AnyStateNode | undefined;
  if (first) out.push(`  [*] --> ${nodeId(first)}`);
  for (const child of childrenOf(root)) drawNode(child, '  ', out);
  drawTransitions(root, out);
  return out.join('\n');
}

/** docs/machines.md: one section and diagram per machine. */
export function machinesMarkdown(): string {
  const parts = [
    '# The machines, drawn from the code',
    '',
    'Generated by `npx replsim diagram` from the XState machines in `models/` (a test fails when a machine',
    'changes and this file does not). Each label reads `event [guard]`: the request that asks, and the',
    'named guards (the real facts the handler checked) that must hold. Code hosts render these diagrams.',
    '',
  ];
  for (const m of MACHINES) {
    parts.push(`## ${m.title}`, '', `${m.about} Source: \`${m.file}\`.`, '', '```mermaid', stateDiagram(m.machine), '```', '');
  }
  return parts.join('\n');
}
