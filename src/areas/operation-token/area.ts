// The DR operation token and sys/generate-root (the generation attempt): what the area gives the world (src/areas.ts).
import { simArea } from '../sim-area.js';
import { oneGenerationAttempt } from './monitors/one-generation-attempt.js';
import { operationTokenGate } from './monitors/operation-token-gate.js';
import { otpNeverReturned } from './monitors/otp-never-returned.js';
import { unauthenticatedCeremonyOpen } from './monitors/unauthenticated-ceremony-open.js';
import { operationTokenReducers } from './evolve.js';
import { operationTokenRefusals } from './refusals.js';
import { operationTokenRoutes } from './routes.js';

export const operationTokenArea = simArea({
  name: 'operation-token',
  readme: 'src/areas/operation-token/README.md',
  reducers: operationTokenReducers,
  routes: operationTokenRoutes,
  monitors: [oneGenerationAttempt, operationTokenGate, otpNeverReturned, unauthenticatedCeremonyOpen],
  refusals: operationTokenRefusals,
});
