// A scenario file read in pieces (its head, then its steps a chunk at a time: src/scenario/pieces.ts)
// must load exactly as the same file read as one YAML document: the same scenario, the same errors,
// the same lines for every key path. Each case is loaded both ways and compared; the cases are the
// constructs a line-based cut could get wrong.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario, loadScenarioStreamed } from '../../src/scenario/loader.js';
import { cutSteps } from '../../src/scenario/pieces.js';

const head = 'name: pieces\nclusters:\n  east: {}\n  west: {}\n';

const CASES: Record<string, string> = {
  'block steps, keys after them': `${head}steps:\n  - request: POST sys/replication/dr/primary/enable\n    on: east\n  - wait: 1s\nexpect: pass\nseed: 7\n`,
  'items at the key\'s indentation': `${head}steps:\n- wait: 1s\n- request: GET sys/health\n  on: west\nseed: 3\n`,
  'comments and blank lines between items': `${head}steps:\n  # first\n  - wait: 1s\n\n# a comment at the margin\n  - wait: 2s   # trailing\n\n`,
  'block scalar holding list-like lines': `${head}steps:\n  - request: POST secret/data/x\n    on: east\n    body:\n      data:\n        text: |\n          - not a step\n        - still not\n  - wait: 1s\n`,
  'multi-line flow collection': `${head}steps:\n  - request: POST secret/data/x\n    on: east\n    body: {data: {a: [1,\n      2, 3]}}\n  - wait: 1s\n`,
  'a quoted value continued on lines': `${head}steps:\n  - request: "POST secret/data/x"\n    on: east\n    body: {data: {t: "a\n      b"}}\n`,
  'anchors and aliases across steps': `${head}steps:\n  - request: POST secret/data/x\n    on: east\n    body: &b {data: {v: 1}}\n  - request: POST secret/data/y\n    on: east\n    body: *b\n`,
  // A serializer writes an object met again as a reference to its number: a deserializer that had read
  // the steps before took the second `*v` from them (y came back as the first step's {b: 2}).
  'aliases within a step, after other steps': `${head}steps:\n  - request: POST secret/data/first\n    on: east\n    body: {data: {p: &w {b: 2}, q: *w}}\n  - request: POST secret/data/a\n    on: east\n    body: {data: {x: &v {a: 1}, y: *v}}\n`,
  'aliases across and within steps, in a file of 40 steps (read whole, kept 16 to a serializer)': `${head}steps:\n  - request: POST secret/data/first\n    on: east\n    body: &b {data: {v: 1}}\n${'  - wait: 1s\n'.repeat(18)}  - request: POST secret/data/mid\n    on: east\n    body: {data: {x: &v {a: 1}, y: *v, z: *b}}\n${'  - wait: 2s\n'.repeat(19)}  - request: POST secret/data/last\n    on: east\n    body: *b\n`,
  'an anchor in the head used in a step': `name: pieces\nclusters:\n  east: &c {}\nsteps:\n  - wait: 1s\n`,
  'flow-style steps': `${head}steps: [{wait: 1s}, {wait: 2s}]\n`,
  'CRLF line ends': `${head}steps:\r\n  - wait: 1s\r\n  - request: GET sys/health\r\n    on: east\r\n`.replace(/\n/g, '\r\n').replace(/\r\r/g, '\r'),
  'steps given twice': `${head}steps:\n  - wait: 1s\nsteps:\n  - wait: 2s\n`,
  'a schema error in a step': `${head}steps:\n  - wait: 1s\n  - request: POST secret/data/x\n    on: north\n  - wiat: 2s\n`,
  'a YAML error in a step': `${head}steps:\n  - wait: 1s\n  - request: [POST\n  - wait: 2s\n`,
  'an unknown variable': `${head}steps:\n  - request: POST secret/data/x\n    on: east\n    token: \${later}\n  - request: POST auth/token/create\n    on: east\n    save: { later: auth.client_token }\n`,
  'a value continued at the list\'s indentation': `${head}steps:\n  - request: POST secret/data/x\n  on: east\n`,
  'a directive': `%YAML 1.2\n---\n${head}steps:\n  - wait: 1s\n`,
  'no steps key': head,
  'an empty item': `${head}steps:\n  -\n  - wait: 1s\n`,
  'a tab before an item': `${head}steps:\n  - wait: 1s\n\t- wait: 2s\n`,
  'a description holding a steps line': `name: x\ndescription: "a\nsteps:\n  - b\nc"\nclusters:\n  east: {}\nsteps:\n  - wait: 1s\n`,
  'a recording miscounted': `# replsim-recording/1: 3 steps, ending with the line "# end of recording: 3 steps"\n${head}steps:\n  - wait: 1s\n  - wait: 2s\n# end of recording: 3 steps\n`,
};

/** Every key path a run or an error could ask a line for: the top keys, each step, each step's keys, and a few that are not there. */
function paths(text: string): (string | number)[][] {
  const whole = loadScenario(text, 'f.yaml', { pieces: false });
  const out: (string | number)[][] = [[], ['name'], ['expect'], ['clusters'], ['clusters', 'east'], ['steps'], ['steps', 999], ['steps', 'x'], ['nothing']];
  if (whole.ok) {
    whole.scenario.steps.forEach((step, i) => {
      out.push(['steps', i]);
      // A path inside a step parses its text again (the whole text, read whole): a sample of a long file's steps.
      if (i !== 0 && i !== whole.scenario.steps.length - 1 && i % 257 !== 5) return;
      out.push(['steps', i, 'body', 'data'], ['steps', i, 'nothing']);
      for (const key of Object.keys(step)) out.push(['steps', i, key]);
    });
  }
  return out;
}

function compare(text: string): void {
  const pieces = loadScenario(text, 'f.yaml');
  const whole = loadScenario(text, 'f.yaml', { pieces: false });
  expect(pieces.ok).toBe(whole.ok);
  if (!pieces.ok || !whole.ok) {
    expect(pieces).toEqual(whole);
    return;
  }
  expect(pieces.scenario).toStrictEqual(whole.scenario);
  for (const path of paths(text)) expect([path, pieces.locate(path)]).toEqual([path, whole.locate(path)]);
  const streamed = loadScenarioStreamed(text, 'f.yaml');
  if (!streamed.ok) throw new Error('the streamed load failed');
  expect(streamed.scenario.steps.length).toBe(whole.scenario.steps.length);
  expect([...streamed.scenario.steps]).toStrictEqual(whole.scenario.steps);
  expect([...streamed.scenario.steps]).toStrictEqual(whole.scenario.steps);
  const { steps: _a, ...restStreamed } = streamed.scenario;
  const { steps: _b, ...restWhole } = whole.scenario;
  expect(restStreamed).toStrictEqual(restWhole);
}

describe('a scenario read in pieces loads as the file read whole', () => {
  for (const [name, text] of Object.entries(CASES)) it(name, () => compare(text));

  it('a cut is found for the cases a cut is meant for, and refused for the others', () => {
    expect(cutSteps(CASES['block steps, keys after them'])?.steps).toBe(2);
    expect(cutSteps(CASES["items at the key's indentation"])?.steps).toBe(2);
    expect(cutSteps(CASES['block scalar holding list-like lines'])?.steps).toBe(2);
    expect(cutSteps(CASES['flow-style steps'])).toBeNull();
    expect(cutSteps(CASES['a directive'])).toBeNull();
    expect(cutSteps(CASES['no steps key'])).toBeNull();
  });

  it('steps in chunks: a file of 600 steps (38 chunks of 16 by default; 3 of 256) loads as read whole', () => {
    let text = `${head}steps:\n`;
    for (let i = 0; i < 600; i++) text += i % 3 === 0 ? `  - request: POST secret/data/k${i}\n    on: east\n    body: {data: {v: ${i}}}\n` : `  - wait: ${i + 1}ms\n`;
    expect(cutSteps(text)?.chunks.length).toBe(38);
    expect(cutSteps(text, 256)?.chunks.length).toBe(3);
    compare(text);
    compare(text.replace('  - wait: 500ms\n', '  - wait: 500 parsecs\n'));
  });

  it('every scenario of the gallery, the docs and the tests loads the same both ways', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir)) {
        const p = join(dir, e);
        if (statSync(p).isDirectory()) {
          if (e !== 'node_modules' && !e.startsWith('.')) walk(p);
        } else if (/\.ya?ml$/.test(e)) files.push(p);
      }
    };
    for (const dir of ['scenarios', 'docs', 'test']) walk(dir);
    expect(files.length).toBeGreaterThan(30);
    for (const f of files) compare(readFileSync(f, 'utf8'));
  }, 60_000);
});
