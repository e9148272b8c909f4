import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { endpointReference } from '../../src/report/endpoints.js';
import { routes } from '../../src/world.js';

describe('docs/endpoints.md', () => {
  it('is the reference generated from the route table (run npx tsx src/report/write-endpoints.ts)', () => {
    expect(readFileSync(join(__dirname, '..', '..', 'docs', 'endpoints.md'), 'utf8')).toBe(endpointReference(routes));
  });
});
