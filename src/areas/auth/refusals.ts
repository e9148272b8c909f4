// Every refusal of ACL policies, token roles and token creation, registered once
// (kernel/refusal.ts). The texts are the service's where its system and token-store backends
// are known to say them; the others are marked simulator wording.
import { defineRefusals } from '../../kernel/refusal.js';

const rule = (id: string, words: string) => ({ id, words });

export const authRefusals = defineRefusals('auth', {
  policyMissing: { status: 400, wording: 'service', text: () => ["'policy' parameter not supplied or empty"], rule: rule('acl.write', 'a policy is written with its text in `policy`') },
  policyUnreadable: { status: 400, wording: 'service', text: (why: string) => [`failed to parse policy: ${why}`], rule: rule('acl.write', 'a policy is HCL or JSON made of path blocks with capabilities') },
  builtinPolicy: { status: 400, wording: 'service', text: (what: 'update' | 'delete', name: string) => [`cannot ${what} ${JSON.stringify(name)} policy`], rule: rule('acl.builtin', 'the built-in policies root and default cannot be changed or deleted (root cannot even be read as text)') },
  unknownRole: { status: 400, wording: 'service', text: (name: string) => [`unknown role ${name}`], rule: rule('token.role', 'a token is created against a role that exists') },
  badTokenType: { status: 400, wording: 'service', text: (given: string) => [`invalid 'token_type' value ${JSON.stringify(given)}`], rule: rule('token.type', 'a token is of type service or batch (a role also takes default-service and default-batch)') },
  notSubsetOfParent: { status: 400, wording: 'service', text: () => ['child policies must be subset of parent'], rule: rule('token.policies', 'a token other than root can only create tokens with policies it has itself') },
  notSubsetOfRole: {
    status: 400,
    wording: 'service',
    text: (asked: readonly string[], allowed: readonly string[]) => [`token policies (${JSON.stringify(asked)}) must be subset of the role's allowed policies (${JSON.stringify(allowed)})`],
    rule: rule('token.role', "a token created against a role gets only the role's allowed policies"),
  },
  disallowedByRole: { status: 400, wording: 'service', text: (name: string) => [`token policy ${JSON.stringify(name)} is disallowed by this role`], rule: rule('token.role', "a role's disallowed policies are never given to its tokens") },
  batchPeriodic: { status: 400, wording: 'service', text: () => ['batch tokens cannot be periodic'], rule: rule('token.batch', 'a batch token has a fixed TTL: it cannot be periodic') },
  batchRoot: { status: 400, wording: 'service', text: () => ['batch tokens cannot create root tokens'], rule: rule('token.batch', 'a batch token cannot be a root token') },
  batchNotOrphanFromBatch: { status: 400, wording: 'service', text: () => ['batch tokens cannot create more tokens'], rule: rule('token.batch', 'a batch token cannot create child tokens') },
  customIdNotAllowed: {
    status: 400,
    wording: 'simulator',
    text: () => ['replsim draws every token itself: `id` (a chosen token value) is not simulated'],
    rule: rule('token.id', 'a chosen token value would bypass the seeded generator a replay relies on'),
  },
  badToken: { status: 403, wording: 'service', text: () => ['bad token'], rule: rule('token.lookup', 'only a token this cluster holds (or a batch token made under its keyring, not expired) can be looked up') },
  /** The token store's text (vault/expiration.go): a batch token has a fixed TTL. */
  batchNotRenewable: { status: 400, wording: 'service', text: () => ['batch tokens cannot be renewed'], rule: rule('token.batch', 'a batch token cannot be renewed: it lives to its fixed TTL') },
  /** The token store's text (vault/token_store.go, its revoke handlers). */
  batchNotRevocable: { status: 400, wording: 'service', text: () => ['batch tokens cannot be revoked'], rule: rule('token.batch', 'a batch token cannot be revoked: it lives to its fixed TTL') },
  notRenewable: { status: 400, wording: 'simulator', text: () => ['lease is not renewable'], rule: rule('token.renew', 'only a token created renewable can be renewed') },
  neverExpires: { status: 400, wording: 'simulator', text: () => ['lease does not expire: this token has no TTL to renew'], rule: rule('token.renew', 'a token without a TTL (a root token) has nothing to renew') },
  noTokenId: { status: 400, wording: 'simulator', text: () => ['missing token ID'], rule: rule('token.renew', 'renew and revoke name the token in `token`') },
  tokenNotFound: { status: 400, wording: 'simulator', text: () => ['token not found'], rule: rule('token.renew', 'only a token this cluster holds, not expired, can be renewed') },
  noAccessor: { status: 400, wording: 'simulator', text: () => ['missing accessor'], rule: rule('token.accessor', 'the accessor paths name the token by its accessor in `accessor`') },
  badAccessor: { status: 400, wording: 'simulator', text: () => ['invalid accessor'], rule: rule('token.accessor', "an accessor names a service token this cluster holds (a batch token has none)") },
  noTokenGiven: { status: 400, wording: 'service', text: () => ['missing token to lookup'], rule: rule('token.lookup', 'a lookup names the token to look up') },
});
