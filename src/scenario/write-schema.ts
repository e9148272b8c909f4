// Writes scenarios/schema.json from the zod schema, so editors validate scenario files against exactly
// what the loader accepts. Run `npx tsx src/scenario/write-schema.ts` after changing schema.ts; a test
// fails while the committed file and the schema differ.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderScenarioJsonSchema } from './schema.js';

const target = fileURLToPath(new URL('../../scenarios/schema.json', import.meta.url));
writeFileSync(target, renderScenarioJsonSchema());
process.stdout.write(`wrote ${target}\n`);
