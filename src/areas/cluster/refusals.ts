// The refusals of the client endpoints a cluster serves beside the spec's tables (KV, sys/health,
// wrapping, token lookup), registered once (kernel/http/refusal.ts). These are the service's
// behaviour from the facts file, outside the spec's areas: their rule ids start with `facts.`.
import { defineRefusals } from '../../kernel/http/refusal.js';

const rule = (id: string, words: string) => ({ id, words });

export const clusterRefusals = defineRefusals('cluster', {
  /** The service's text (vault/logical/framework) for a KV write with no data. */
  missingData: { status: 400, wording: 'service', text: () => ['missing data fields'], rule: rule('facts.kv', 'a KV write must carry at least one field of data') },
  /** sys/health's `?standbycode=abc`: the service's text. */
  badStatusCode: { status: 400, wording: 'service', text: (name: string, raw: string) => [`unable to parse ${name} code: ${raw}`], rule: rule('facts.health', "sys/health's status-code parameters are three-digit HTTP codes") },
  /** The service's text for a wrapping token it does not know (used, expired, or never issued). */
  invalidWrappingToken: {
    status: 400,
    wording: 'service',
    text: () => ['wrapping token is not valid or does not exist'],
    rule: rule('facts.wrapping', 'a wrapping token is unwrapped once, before it expires, on the cluster that issued it'),
  },
});
