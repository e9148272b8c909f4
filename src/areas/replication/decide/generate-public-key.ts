// POST <kind>/secondary/generate-public-key: a key pair for sealed credentials. The response field
// name is not public (facts file, gap 1): replsim answers `data.secondary_public_key`, the name of
// the parameter the primary takes it under.
import type { Outcome, RequestContext } from '../../core/http/route.js';
import type { ReplicationKind } from '../../core/state.js';
import { generateSecondaryKeyPair } from '../../core/crypto/sealed-box.js';
import { reply } from '../../../kernel/http/http.js';

export const decide =
  (kind: ReplicationKind) =>
  (ctx: RequestContext): Outcome => {
    const pair = generateSecondaryKeyPair(ctx.rng);
    return {
      events: [{ type: 'replication-secondary-key-generated', at: ctx.now, kind, cluster: ctx.cluster.name, publicKey: pair.publicKey, privateKey: pair.privateKey }],
      reply: () => reply.data({ secondary_public_key: pair.publicKey }),
    };
  };
