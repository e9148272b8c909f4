// Rewrites docs/refusals.md from the refusal registry.
import { writeFileSync } from 'node:fs';
import { refusalReference } from './refusals-doc.js';

writeFileSync(new URL('../../docs/refusals.md', import.meta.url), refusalReference());
