// One GitHub App registration of the sync system (`sys/sync/github-apps/:name`), which a code host
// destination names in `app_name` to authenticate as the app: registered by POST (create or
// overwrite) and removed by DELETE, which replsim refuses while a destination still names it (the
// service's documentation says nothing of that case: a destination left naming no app could not
// sync).
//
// The world stores only the registered apps (absent = no entry) and uses this machine as a pure
// transition function (`stepGithubApp`).
import { setup } from 'xstate';
import { ask } from './ask.js';

export type GithubAppValue = 'absent' | 'registered';

export type GithubAppEvent =
  | { type: 'register' }
  /** `usedBy`: the destinations whose `app_name` is this app. */
  | { type: 'delete'; usedBy: string[] };

export const githubAppMachine = setup({
  types: { events: {} as GithubAppEvent },
  guards: {
    unused: ({ event }) => event.type === 'delete' && event.usedBy.length === 0,
  },
}).createMachine({
  id: 'githubApp',
  initial: 'absent',
  states: {
    absent: { on: { register: { target: 'registered' } } },
    registered: {
      on: {
        register: { target: 'registered' },
        delete: { guard: 'unused', target: 'absent' },
      },
    },
  },
});

/** The entry after `event`, or null when refused (a delete of an app a destination uses, or of none). */
export function stepGithubApp(value: GithubAppValue, event: GithubAppEvent): GithubAppValue | null {
  const answer = ask(githubAppMachine, value, undefined, event);
  return 'next' in answer ? (answer.next as GithubAppValue) : null;
}
