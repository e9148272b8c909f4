// One token's life after it is created (the token store's renew and revoke): a service token can be
// renewed while it is renewable and has a TTL to extend, and revoked; a batch token "cannot be
// renewed, cannot be revoked manually" (the service's tokens page): it lives to its fixed TTL.
//
//   service ──renew [expiring, renewable]──▶ service        service ──revoke──▶ revoked
//   batch: no row (every request is refused)                 revoked: no row (gone from the store)
//
// The world stores tokens as plain data and uses this machine as a pure transition function
// (`askToken`, models/ask.ts) with the token's facts as the guards' inputs; the refusal names the
// guard that failed, in the service's order: a token with no TTL never expires, then renewable.
import { and, setup } from 'xstate';
import { ask, type Answer } from './ask.js';
export { NO_ROW } from './ask.js';

export type TokenValue = 'service' | 'batch' | 'revoked';

export type TokenEvent = { type: 'renew'; renewable: boolean; expiring: boolean } | { type: 'revoke' };

export const tokenMachine = setup({
  types: { events: {} as TokenEvent },
  guards: {
    expiring: ({ event }) => event.type === 'renew' && event.expiring,
    renewable: ({ event }) => event.type === 'renew' && event.renewable,
  },
}).createMachine({
  id: 'token',
  initial: 'service',
  states: {
    service: {
      on: {
        renew: { guard: and(['expiring', 'renewable']), target: 'service' },
        revoke: { target: 'revoked' },
      },
    },
    batch: {},
    revoked: { type: 'final' },
  },
});

/** The token store's answer: the token after `event`, or the guard that refused (`NO_ROW`: a batch token, or one revoked). */
export function askToken(value: TokenValue, event: TokenEvent): Answer {
  return ask(tokenMachine, value, undefined, event);
}
