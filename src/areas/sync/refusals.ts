// Every refusal of the secret sync endpoints (spec area D), registered once (kernel/refusal.ts).
// The facts file lacks most texts (gap 2 and area D's unknown validation messages): simulator
// wording unless marked `service`.
import { defineRefusals } from '../../kernel/refusal.js';
import { multierror } from '../../kernel/http/http.js';

const rule = (id: string, words: string) => ({ id, words });
const sim = 'simulator' as const;

export const syncRefusals = defineRefusals('sync', {
  missingField: { status: 400, wording: sim, text: (name: string) => [`missing required field "${name}"`], rule: rule('D.fields', "a destination's required connection fields must be given (area D)") },
  badAccepted: {
    status: 400,
    wording: sim,
    text: (field: string, value: string, accepted: readonly string[]) => [`invalid ${field} value "${value}": accepted values are ${accepted.join(', ')}`],
    rule: rule('D.fields', 'a field with a fixed set of values takes one of them (area D)'),
  },
  noDestination: {
    status: 404,
    wording: sim,
    text: (type: string, name: string) => [`destination ${type}/${name} does not exist: create it with POST sys/sync/destinations/${type}/${name}`],
    rule: rule('D.rule1', 'an association names an existing destination, by type and name in the URL (area D rule 1)'),
  },
  purging: {
    status: 400,
    wording: sim,
    text: (type: string, name: string) => [`destination ${type}/${name} is being purged: wait until it is gone, then create it again`],
    rule: rule('D.purge', 'a destination being purged takes no new configuration until it is gone (area D)'),
  },
  stillManages: {
    status: 400,
    wording: sim,
    text: (type: string, name: string, count: number) => [
      `destination ${type}/${name} still manages ${count} association${count === 1 ? '' : 's'}: remove them first, or delete with purge=true to unsync and remove them`,
    ],
    rule: rule('D.errors', 'a sync destination that still manages associations cannot be deleted (area D errors)'),
  },
  noMount: { status: 400, wording: sim, text: (mount: string) => [`mount "${mount}" not found in this namespace`], rule: rule('limits.kv-v2', 'only secrets of a KV-v2 mount of the namespace can be associated (Limits)') },
  notKvV2: {
    status: 400,
    wording: sim,
    text: (mount: string) => [`mount "${mount}" is a KV version 1 mount: only KV version 2 secrets can be synced`],
    rule: rule('limits.kv-v2', 'only KV-v2 secrets can be associated (Limits)'),
  },
  /** The service's text (vault-api-facts.md §D), checked on set only. */
  cannotRead: {
    status: 403,
    wording: 'service',
    text: (name: string, mount: string) => [`permission denied to read the content of the secret ${name} in mount ${mount}`],
    rule: rule('D.rule2', 'setting an association syncs the secret, so the caller must be allowed to read it (area D rule 2)'),
  },
  /** The UI mock's text for a secret that is not there (vault-api-facts.md §D, tag I). */
  noSecret: { status: 400, wording: 'service', text: () => ['Secret not found. Please provide full path to existing secret'], rule: rule('D.rule2', 'an association syncs an existing secret (area D rule 2)') },
  /** A secret_name_template problem, in the words of naming.ts (which checks the template). */
  badTemplate: { status: 400, wording: sim, text: (problem: string) => [problem], rule: rule('D.template', "a destination's secret_name_template must render a valid name for its granularity (area D)") },
  badCustomTag: { status: 400, wording: sim, text: (key: string) => [`custom_tags: the value of "${key}" must be a string`], rule: rule('D.fields', 'custom_tags maps names to text (area D)') },
  /** Vault's framework text for a parameter that is not a boolean. */
  badFlag: {
    status: 400,
    wording: 'service',
    text: (raw: string, name: string) => [`Field validation failed: error converting input ${raw} for field "${name}": expected a boolean`],
    rule: rule('facts.fields', 'a flag of a DELETE (purge) is a boolean'),
  },
  badQueueCapacity: {
    status: 400,
    wording: sim,
    text: (given: number) => [`queue_capacity must be a positive number of operations, not ${given}`],
    rule: rule('D.config', 'queue_capacity is the maximum number of pending sync operations allowed on the queue (sys/sync/config)'),
  },
  queueFull: {
    status: 400,
    wording: sim,
    text: (capacity: number) => [`the sync queue is full: it already holds ${capacity} pending operation${capacity === 1 ? '' : 's'} (queue_capacity); wait for them to run, or raise queue_capacity with PATCH sys/sync/config`],
    rule: rule('D.config', 'no more operations are queued than queue_capacity allows (sys/sync/config)'),
  },
  missingAppId: { status: 400, wording: sim, text: () => ['missing required field "app_id": the GitHub App\'s numeric ID'], rule: rule('D.apps', 'a GitHub App registration names the app by its ID and private key') },
  missingPrivateKey: { status: 400, wording: sim, text: () => ['missing required field "private_key"'], rule: rule('D.apps', 'a GitHub App registration names the app by its ID and private key') },
  badPrivateKey: {
    status: 400,
    wording: sim,
    text: () => ['private_key is not a PEM-encoded private key: give the key GitHub generated for the app'],
    rule: rule('D.apps', "a GitHub App's private key is the PEM file GitHub generates"),
  },
  appInUse: {
    status: 400,
    wording: sim,
    text: (name: string, users: string[]) => [`GitHub App "${name}" is used by the destination${users.length === 1 ? '' : 's'} ${users.join(', ')}: point ${users.length === 1 ? 'it' : 'them'} elsewhere first`],
    rule: rule('D.apps', 'a GitHub App that a code host destination authenticates as stays registered while the destination names it'),
  },
  /** An unknown destination type in the path: as an unregistered path. */
  unknownType: { status: 404, wording: 'service', text: () => [multierror('unsupported path')], rule: rule('D.types', 'the destination types are the ones area D lists') },
});
