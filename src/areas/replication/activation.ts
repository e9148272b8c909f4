// Secondary activation tokens: issued by a primary, redeemed by a secondary (secondary/enable and
// update-primary). Two forms, as the service has them:
//  - wrapped (the default): a JWT signed by the primary, redeemed by calling the primary to unwrap
//    it, so the primary must be reachable at that moment;
//  - sealed to the secondary's `secondary_public_key` (from its generate-public-key): the
//    credentials travel encrypted and no call to the primary is needed.
// Vault's sealed format is not public; replsim's is a JSON payload (below) in a sealed box.
import { epochSeconds } from '../../kernel/clock.js';
import { reachable } from '../../kernel/network.js';
import type { Rng } from '../../kernel/prng.js';
import { activationSigningKey, decodeActivationClaims, signActivationTokenSync, verifyActivationTokenWith, type ActivationSigningKey } from '../core/crypto/activation-token.js';
import { openSealed, sealToPublicKey } from '../core/crypto/sealed-box.js';
import { own } from '../../kernel/own.js';
import { memoBounded } from '../../kernel/memo.js';
import type { ClusterState, ReplicationKind, SimState } from '../core/state.js';
import type { PrimaryAssignment } from './events.js';
import { advertisedClusterAddr, clusterAt } from './link.js';
import { KIND_WORD } from '../core/vocabulary.js';
import type { Refused } from '../../kernel/refusal.js';
import { replicationRefusals as R } from './refusals.js';

/**
 * The Ed25519 key a cluster signs activation tokens with, from its seed (built once per seed):
 * building one costs some 300 µs (node:crypto's PKCS#8 import). The most recent 1,024 are kept,
 * since every world brings new seeds (a property check makes thousands of worlds).
 */
const keyOfSeed = memoBounded((seed: string) => activationSigningKey(Buffer.from(seed, 'hex')), 1024);

export function signingKeyOf(cluster: ClusterState): ActivationSigningKey {
  return keyOfSeed(cluster.signingSeed);
}

/** The wrapped form: the JWT a primary hands out in `wrap_info.token`. */
export function wrappedActivationToken(primary: ClusterState, jti: string, nowMs: number, ttlMs: number): string {
  const iat = epochSeconds(nowMs);
  return signActivationTokenSync(signingKeyOf(primary), { addr: primary.apiAddr, exp: iat + Math.floor(ttlMs / 1000), iat, jti, type: 'wrapping' });
}

/**
 * The credentials sealed to a secondary's public key (simulator format, the service's is not
 * public): which replication kind, the secondary id, the token's jti, the primary's addresses and
 * replication set, and the expiry in epoch seconds.
 */
export interface SealedCredentials {
  type: 'replsim-secondary-credentials';
  kind: ReplicationKind;
  id: string;
  jti: string;
  primary_api_addr: string;
  primary_cluster_addr: string;
  cluster_id: string;
  iat: number;
  exp: number;
}

/** The sealed form: base64 of a box only the holder of the matching private key can open. Draws from `rng`. */
export function sealedActivationToken(primary: ClusterState, kind: ReplicationKind, id: string, jti: string, nowMs: number, ttlMs: number, publicKey: string, rng: Rng): string {
  const iat = epochSeconds(nowMs);
  const credentials: SealedCredentials = {
    type: 'replsim-secondary-credentials',
    kind,
    id,
    jti,
    primary_api_addr: primary.apiAddr,
    primary_cluster_addr: advertisedClusterAddr(primary, kind),
    cluster_id: primary.replication[kind].clusterId,
    iat,
    exp: iat + Math.floor(ttlMs / 1000),
  };
  return sealToPublicKey(JSON.stringify(credentials), publicKey, rng);
}

/** A refusal to redeem a token (registered in refusals.ts): a 400, or the 500 of the secondary's own failed call to the primary. */
export interface RedeemRefusal {
  refusal: Refused;
}

export type Redeemed = { ok: true; assignment: PrimaryAssignment } | ({ ok: false } & RedeemRefusal);

const refuse = (refusal: Refused): Redeemed => ({ ok: false, refusal });


/** "https://east.replsim.test:8200" → "east.replsim.test:8200", as Go's dialer prints it. */
function hostPort(address: string): string {
  try {
    const u = new URL(address);
    return u.port ? u.host : `${u.hostname}:${u.protocol === 'http:' ? 80 : 443}`;
  } catch {
    return address;
  }
}

/** The issuer of the token is no longer its set's primary (demoted or disabled). Simulator wording. */
const notAPrimary = (kind: ReplicationKind, address: string, form: 'wrapped' | 'sealed') => refuse(R.issuerNotPrimary(KIND_WORD[kind], address.replace(/\/+$/, ''), form));

function assignmentFrom(primary: ClusterState | null, apiAddr: string, clusterAddr: string, id: string, jti: string, clusterId: string): PrimaryAssignment {
  return {
    primary: primary ? primary.name : null,
    primaryApiAddr: apiAddr,
    primaryClusterAddr: clusterAddr,
    knownPrimaryClusterAddrs: clusterAddr ? [clusterAddr] : [],
    secondaryId: id,
    jti,
    clusterId,
  };
}

/**
 * Redeems an activation token on `secondary`: the wrapped form by calling the primary (at the
 * token's `addr`, or `primary_api_addr` when given) to unwrap it, the sealed form by opening it
 * with the key pair from generate-public-key. Changes nothing: the caller builds the event.
 */
export function redeemActivationToken(state: SimState, secondary: ClusterState, kind: ReplicationKind, token: string, primaryApiAddr: string): Redeemed {
  const t = token.trim();
  if (t.split('.').length === 3) return redeemWrapped(state, secondary, kind, t, primaryApiAddr);
  return redeemSealed(state, secondary, kind, t, primaryApiAddr);
}

function redeemWrapped(state: SimState, secondary: ClusterState, kind: ReplicationKind, jwt: string, override: string): Redeemed {
  const claims = decodeActivationClaims(jwt);
  if (!claims) return refuse(R.tokenUndecodable());
  const address = override || claims.addr;
  const primary = clusterAt(state, address);
  // The unwrap is a call over the network, made now: no answer, no activation.
  if (!primary || !reachable(state.network, secondary.name, primary.name))
    return refuse(R.unwrapUnreachable(address.replace(/\/+$/, ''), hostPort(address)));
  // The primary unwraps: its own signature, not expired, a token it issued for this kind, unused and not revoked.
  const check = verifyActivationTokenWith(signingKeyOf(primary), jwt, epochSeconds(state.now));
  if (!check.ok) return refuse(R.unwrapRefused());
  const r = primary.replication[kind];
  const issued = Object.values(r.issued).find((i) => i.jti === claims.jti);
  if (!issued || issued.usedBy !== null || issued.revoked || issued.publicKey) return refuse(R.unwrapRefused());
  // A token activates a secondary of its issuer's replication set only while the issuer is that
  // set's primary: a demoted issuer (now a secondary) serves no secondaries. The spec is silent on
  // redeeming a token of a demoted issuer; the service's secondary would unwrap, then fail to
  // connect to a cluster that is no primary, so replsim refuses the activation itself (simulator wording).
  if (r.role !== 'primary') return notAPrimary(kind, address, 'wrapped');
  return { ok: true, assignment: assignmentFrom(primary, address, advertisedClusterAddr(primary, kind), issued.id, issued.jti, r.clusterId) };
}

function redeemSealed(state: SimState, secondary: ClusterState, kind: ReplicationKind, sealed: string, override: string): Redeemed {
  const keys = secondary.secondaryKeys[kind];
  const notForUs = refuse(R.tokenNotForUs(KIND_WORD[kind], kind));
  if (!keys) return notForUs;
  let credentials: SealedCredentials;
  try {
    credentials = JSON.parse(openSealed(sealed, keys.privateKey)) as SealedCredentials;
  } catch {
    return notForUs;
  }
  if (credentials.type !== 'replsim-secondary-credentials') return notForUs;
  if (credentials.kind !== kind) return refuse(R.tokenOtherKind(KIND_WORD[credentials.kind], KIND_WORD[kind]));
  if (credentials.exp <= epochSeconds(state.now)) return refuse(R.tokenExpired());
  // No call is made; the primary's bookkeeping still decides single use and revocation.
  const issuer = clusterAt(state, credentials.primary_api_addr);
  const issued = own(issuer?.replication[kind].issued, credentials.id);
  if (issued && issued.jti === credentials.jti && issued.revoked) return refuse(R.tokenRevoked(credentials.id));
  if (issued && issued.jti === credentials.jti && issued.usedBy !== null) return refuse(R.tokenUsed());
  // As for the wrapped form: the issuer must still be the primary of the set the credentials name.
  if (issuer && issued?.jti === credentials.jti && (issuer.replication[kind].role !== 'primary' || issuer.replication[kind].clusterId !== credentials.cluster_id))
    return notAPrimary(kind, credentials.primary_api_addr, 'sealed');
  const address = override || credentials.primary_api_addr;
  const primary = clusterAt(state, address);
  return { ok: true, assignment: assignmentFrom(primary, address, credentials.primary_cluster_addr, credentials.id, credentials.jti, credentials.cluster_id) };
}
