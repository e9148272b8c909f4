// Rewrites docs/rules.md from the numbered rules and the refusal registry.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rulesReference } from './rules-doc.js';

writeFileSync(new URL('../../docs/rules.md', import.meta.url), rulesReference(fileURLToPath(new URL('../..', import.meta.url))));
