// A file read in pieces keeps what a run needs of it (its steps deflated, where each starts, its head)
// and lets its text go: a run of a large file would otherwise hold the whole text to the end. V8
// keeps a slice's whole parent string, so one slice kept anywhere (the head, a step's path, a
// locate's closure) keeps the text. The text of this file is larger than V8's regular objects,
// so it lives in the large-object space, whose use is measured after full collections.
import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { heapAfterCollection } from '../heap.js';
import { loadScenarioStreamed } from '../../src/scenario/loader.js';

function largeObjects(): number {
  heapAfterCollection();
  return getHeapSpaceStatistics().find((s) => s.space_name === 'large_object_space')!.space_used_size;
}

const HEAD = 'name: many writes\nseed: 1\nclusters:\n  east: {}\nsteps:\n';
const stepLine = (i: number) => `  - {request: POST secret/data/k${i}, on: east, body: {data: {v: ${i}}}}`;

function load(steps: number) {
  let text = HEAD;
  for (let i = 0; i < steps; i++) text += stepLine(i) + '\n';
  return { size: text.length, loaded: loadScenarioStreamed(text, 'writes.yaml') };
}

describe('a loaded file lets its text go', () => {
  it('holds less than a tenth of a 1.5 MB text once loaded, and still locates a key inside a step', () => {
    const before = largeObjects();
    const { size, loaded } = load(20_000);
    if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
    // V8 remembers the subject of the last regular expression run: run one on a string of its own.
    expect(/x/.test('x')).toBe(true);
    const kept = largeObjects() - before;
    expect(kept, `${kept} bytes of large objects kept for a text of ${size}`).toBeLessThan(size / 10);
    // Where step 12,345's body names `data`: its line in the file, its column in that line (from 1).
    expect(loaded.locate(['steps', 12_345, 'body', 'data'])).toEqual({ line: HEAD.split('\n').length + 12_345, column: stepLine(12_345).indexOf('data: {v') + 1 });
    expect([...loaded.scenario.steps].length).toBe(20_000);
  }, 120_000);
});
