// A sequence of operator commands, as the operator wrote it down step by step, turned into a
// scenario file of format 1 (docs/scenario-format.md) that `replsim run` replays unchanged:
// the same clusters and seed, every request with the variables it saved, waits and faults. It
// expects the run to pass (or to meet only the hazards the run met and nobody forbade), so it fails
// the way the finding did until its cause is fixed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Document, isMap, isSeq, parseDocument, type Node, type YAMLMap } from 'yaml';
import { propertyCluster } from './commands/index.js';
import type { ModelExpectation } from '../areas/property/model.js';
import type { ScriptStep } from './commands/operator.js';

export interface ScenarioExport {
  name: string;
  description: string;
  /** The world's seed. */
  seed: number;
  clusters: string[];
  steps: ScriptStep[];
  /** Comment lines above the document: how the file was found and how to replay it. */
  header?: string[];
  /**
   * Hazards the run met that nobody forbade (a mixed-version topology meets newer-primary): the file
   * expects them, so that it fails on its cause alone, not on them once the cause is fixed.
   */
  hazards?: readonly string[];
  /**
   * The scenario the run started from (`--from`): the file is its text — clusters, comments and
   * steps kept — with the commands' steps after its own, and `expect`, name and description replaced.
   */
  from?: { file: string; text: string };
}

/**
 * The steps of a run that ended in a model mismatch, with the model's prediction written as an
 * expectation, so that `replsim run` fails on the file until the simulator agrees with the model:
 * the request the service answered against the model expects the model's answer (a 2xx, or any
 * error), and a disagreement about roles or replication sets becomes a last step reading the
 * status record. Without a prediction a step can state, the steps are returned unchanged.
 */
export function withModelExpectation(steps: readonly ScriptStep[], expected: ModelExpectation | undefined): ScriptStep[] {
  const out = steps.map((s) => ({ ...s }));
  if (!expected) return out;
  if ('answer' in expected) {
    const last = out.at(-1);
    if (!last || typeof last.request !== 'string') return out;
    if (expected.answer === 'accept') delete last.expect;
    // Any refusal will do: the model predicts that one is refused, not with which error.
    else last.expect = { error: '/./' };
    last.name = `${String(last.name ?? last.request)} (the model expects ${expected.answer === 'accept' ? 'it to be accepted' : 'a refusal'})`;
    return out;
  }
  const { on, kind, data, words } = expected.status;
  out.push({ name: `the model expects ${words}`, request: `GET sys/replication/${kind}/status`, on, token: 'none', expect: { data } });
  return out;
}

/** The scenario as the plain object a format-1 file holds. */
export function scenarioObject(s: ScenarioExport): Record<string, unknown> {
  return {
    name: s.name,
    description: s.description,
    seed: s.seed,
    expect: s.hazards?.length ? { hazards: [...s.hazards] } : 'pass',
    clusters: Object.fromEntries(s.clusters.map((c) => [c, propertyCluster(c)])),
    steps: s.steps,
  };
}

// Keys whose values read best on one line: `body: { id: west }`, `partition: [east, west]`.
const FLOW_KEYS = ['body', 'save', 'expect', 'partition', 'slow', 'heal'];

/** The scenario file's text. */
export function scenarioYaml(s: ScenarioExport): string {
  if (s.from) return fromScenarioYaml(s, s.from.text);
  const doc = new Document(scenarioObject(s), { aliasDuplicateObjects: false });
  const clusters = doc.get('clusters') as YAMLMap;
  for (const pair of clusters.items) if (isMap(pair.value)) pair.value.flow = true;
  const steps = doc.get('steps');
  if (isSeq(steps)) {
    for (const item of steps.items) {
      if (!isMap(item)) continue;
      for (const key of FLOW_KEYS) {
        const node = item.get(key, true);
        if (isMap(node) || isSeq(node)) node.flow = true;
      }
    }
  }
  if (s.header?.length) doc.commentBefore = s.header.map((l) => ` ${l}`).join('\n');
  return doc.toString({ lineWidth: 0 });
}

/** The run as the scenario it started from, its steps followed by the commands' steps. */
function fromScenarioYaml(s: ScenarioExport, text: string): string {
  const doc = parseDocument(text);
  const steps = doc.get('steps', true);
  if (!isSeq(steps)) throw new Error('the scenario started from has no steps sequence');
  for (const step of s.steps) {
    const node = doc.createNode(step) as YAMLMap;
    for (const key of FLOW_KEYS) {
      const v = node.get(key, true);
      if (isMap(v) || isSeq(v)) v.flow = true;
    }
    steps.items.push(node as Node as (typeof steps.items)[number]);
  }
  doc.set('name', s.name);
  doc.set('description', s.description);
  doc.set('seed', s.seed);
  doc.set('expect', s.hazards?.length ? doc.createNode({ hazards: [...s.hazards] }, { flow: true }) : 'pass');
  doc.commentBefore = [...(s.header ?? []), `Starts from ${s.from!.file}: its steps first (unchanged), then the commands found.`].map((l) => ` ${l}`).join('\n');
  return doc.toString({ lineWidth: 0 });
}

/** Writes the scenario to `dir/file` (creating `dir`) and returns the path written. */
export function writeScenario(dir: string, s: ScenarioExport, file = 'counterexample.yaml'): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, file);
  writeFileSync(path, scenarioYaml(s));
  return path;
}
