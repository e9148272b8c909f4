// A variant of a runbook written back as a format-1 scenario: the runbook's own text (its comments,
// variables and expectations kept), with the fault steps inserted where they happened, a wait cut
// where a fault fell inside it, and the steps after the one that went wrong left out. The runbook's
// `expect` stays, so `replsim run` fails on the file until the runbook copes with the fault.
import { isMap, isSeq, parseDocument, type Document, type Node, type YAMLMap } from 'yaml';
import { parseDuration } from '../scenario/schema.js';
import { formatScenarioWait } from './faults.js';
import type { Action, VariantResult } from './engine.js';

const FLOW_KEYS = ['body', 'save', 'expect', 'partition', 'slow', 'heal'];

/** The variant's scenario text, from the runbook's text. */
export function variantYaml(text: string, variant: VariantResult, header: string[], seed: number): string {
  const doc = parseDocument(text);
  const steps = doc.get('steps', true);
  if (!isSeq(steps)) throw new Error('the runbook has no steps sequence');
  const originals = steps.items as Node[];
  const out: Node[] = [];
  const add = (value: Record<string, unknown>) => out.push(flowed(doc, value));
  for (const a of wholeWaits(variant.actions, originals, doc)) appendAction(doc, a, originals, out, add);
  steps.items = out as typeof steps.items;
  doc.set('seed', seed);
  const name = doc.get('name');
  doc.set('name', `${typeof name === 'string' ? name : 'runbook'} - whatif variant ${variant.n}`);
  doc.commentBefore = header.map((l) => ` ${l}`).join('\n');
  return doc.toString({ lineWidth: 0 });
}

function appendAction(doc: Document, a: Action, originals: Node[], out: Node[], add: (v: Record<string, unknown>) => void): void {
  if ('original' in a) {
    const node = originals[a.original].clone() as Node;
    if (a.waitMs !== undefined && isMap(node)) {
      const m = node as YAMLMap;
      m.set('wait', formatScenarioWait(a.waitMs));
      const name = m.get('name');
      m.set('name', `${typeof name === 'string' ? name : 'wait'} (part)`);
    }
    out.push(node);
    return;
  }
  if ('inserted' in a) {
    if (a.note === 'retry') {
      // The first send of a retried step: the same request, its answer lost to the client.
      const { retryOf, status } = a.yaml as { retryOf: number; status: number };
      const node = originals[retryOf].clone() as YAMLMap;
      node.delete('save');
      node.set('expect', flowed(doc, { status }));
      const name = node.get('name');
      node.set('name', `whatif: sent twice, this first answer lost - ${typeof name === 'string' ? name : 'the step'}`);
      out.push(node);
      return;
    }
    add(a.yaml);
    return;
  }
  add({ name: 'whatif: let the world settle after the last fault healed', wait: formatScenarioWait(a.ms) });
  for (const s of a.yaml) add(s);
}

/** A wait taken whole (its parts joined again) is the runbook's own step. */
function wholeWaits(actions: readonly Action[], originals: Node[], doc: Document): Action[] {
  return actions.map((a) => {
    if (!('original' in a) || a.waitMs === undefined) return a;
    const whole = (originals[a.original] as YAMLMap).toJS(doc) as { wait?: unknown };
    return typeof whole.wait === 'string' && waitMsOf(whole.wait) === a.waitMs ? { original: a.original } : a;
  });
}

/** A wait's duration in ms as the loader reads it, or null. */
function waitMsOf(text: string): number | null {
  try {
    return parseDuration(text);
  } catch {
    return null;
  }
}

/** A step as a YAML node, with its short maps and lists on one line, as the gallery writes them. */
function flowed(doc: Document, value: Record<string, unknown>): Node {
  const node = doc.createNode(value) as YAMLMap;
  for (const key of FLOW_KEYS) {
    const v = node.get(key, true);
    if (isMap(v) || isSeq(v)) v.flow = true;
  }
  return node;
}
