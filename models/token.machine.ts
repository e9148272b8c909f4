// One token's life after it is created (the token store's renew and revoke): a service token can be
// renewed while it is renewable and has a TTL to extend, and revoked; a batch token "cannot be
// renewed, cannot be revoked manually" (the service's tokens page): it lives to its fixed TTL.
//
//   service ──renew [renewable, expiring]──▶ service        service ──revoke──▶ revoked
//   batch: no row (every request is refused)                 revoked: no row (gone from the store)
//
// The world stores tokens as plain data and uses this machine as a pure transition function
// (`stepToken`) with the token's facts as the guards' inputs; the refusal says which fact failed.
import { setup } from 'xstate';
import { ask } from './ask.js';

export type TokenValue = 'service' | 'batch' | 'revoked';

export type TokenEvent = { type: 'renew'; renewable: boolean; expiring: boolean } | { type: 'revoke' };

export const tokenMachine = setup({
  types: { events: {} as TokenEvent },
  guards: {
    renewableAndExpiring: ({ event }) => event.type === 'renew' && event.renewable && event.expiring,
  },
}).createMachine({
  id: 'token',
  initial: 'service',
  states: {
    service: {
      on: {
        renew: { guard: 'renewableAndExpiring', target: 'service' },
        revoke: { target: 'revoked' },
      },
    },
    batch: {},
    revoked: { type: 'final' },
  },
});

/** The token after `event`, or null when the token store refuses it. */
export function stepToken(value: TokenValue, event: TokenEvent): TokenValue | null {
  const answer = ask(tokenMachine, value, undefined, event);
  return 'next' in answer ? (answer.next as TokenValue) : null;
}
