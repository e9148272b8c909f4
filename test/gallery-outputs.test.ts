// Behaviour kept across the message bus (issue #11 item 6): every gallery scenario answers every
// step with the same status and body, reaches the same verdict and ends with the same replicated
// data (KV data and mounts of each cluster, the external sync stores) as recorded in
// test/fixtures/gallery-outputs.json, taken from main before the bus. The event log may differ.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIXTURE, galleryFiles, galleryOutput, type GalleryOutput } from './gallery-outputs.js';

const recorded = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, GalleryOutput>;

describe('gallery outputs are kept', () => {
  it('the fixture covers every gallery scenario', () => {
    expect(Object.keys(recorded).sort()).toEqual(galleryFiles());
  });

  it.each(galleryFiles())('%s', async (file) => {
    const now = await galleryOutput(file);
    const before = recorded[file];
    expect(now.verdict).toBe(before.verdict);
    expect(now.steps.length).toBe(before.steps.length);
    now.steps.forEach((step, i) => expect(step, `step ${i + 1}`).toEqual(before.steps[i]));
    expect(now.data).toEqual(before.data);
    expect(now.stores).toEqual(before.stores);
  });
});
