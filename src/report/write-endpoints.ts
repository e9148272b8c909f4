// Rewrites docs/endpoints.md from the route table.
import { writeFileSync } from 'node:fs';
import { routes } from '../world.js';
import { endpointReference } from './endpoints.js';

writeFileSync(new URL('../../docs/endpoints.md', import.meta.url), endpointReference(routes));
