// Which token a request carries, on the cluster it reached. A service token is stored (and so
// reaches DR secondaries with the storage, not performance ones); it is known until its TTL ends.
// A batch token is stored nowhere: the cluster opens it with its keyring (crypto/batch-token.ts),
// so it is valid on every cluster that holds the keyring it was made under, until its TTL ends.
import { memoBounded, memoOnObject } from '../../kernel/memo.js';
import { own } from '../../kernel/own.js';
import type { Rng } from '../../kernel/prng.js';
import { openBatchToken } from './crypto/batch-token.js';
import type { ClusterState, TokenEntry } from './state.js';

/** Expired: its TTL ended at or before `now`. */
export function expired(token: TokenEntry, now: number): boolean {
  return token.expiresAt !== undefined && token.expiresAt !== null && token.expiresAt <= now;
}

/** Batch tokens opened, by keyring and token: opening one is pure, and a run presents the same few again and again (the last 64 kept per keyring). */
const openedWith = memoOnObject((keyring: ClusterState['storage']['keyring']) =>
  memoBounded((sent: string): TokenEntry | null => {
    const claims = openBatchToken(sent, keyring.rootKeyHex);
    const entry: TokenEntry | null = claims
      ? Object.freeze({
          id: sent,
          accessor: '',
          name: claims.displayName,
          namespace: claims.namespace,
          policy: Object.freeze({}),
          policies: claims.policies,
          type: 'batch',
          expiresAt: claims.expiresAt,
          issuedAt: claims.issuedAt,
          creationTtl: Math.round((claims.expiresAt - claims.issuedAt) / 1000),
          orphan: claims.orphan,
          renewable: false,
          role: claims.role,
          displayName: claims.displayName,
          meta: claims.meta,
        })
      : null;
    return entry;
  }, 64),
);

function batchEntry(cluster: ClusterState, sent: string): TokenEntry | null {
  return openedWith(cluster.storage.keyring)(sent);
}

/** The token `sent` names on `cluster` at `now`, or null (unknown, expired, or made under another keyring). */
export function resolveToken(cluster: ClusterState, sent: string | undefined, now: number): TokenEntry | null {
  if (!sent) return null;
  const stored = own(cluster.storage.tokens, sent);
  const token = stored ?? (sent.startsWith('hvb.') ? batchEntry(cluster, sent) : null);
  return token && !expired(token, now) ? token : null;
}

/** A service token: `hvs.` and 24 base62 characters, as the service issues them. */
export function newServiceToken(rng: Rng): string {
  return 'hvs.' + rng.base62(24);
}
