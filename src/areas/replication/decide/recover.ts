// POST sys/replication/recover (a client token, any cluster) and POST
// sys/replication/dr/secondary/recover (a DR secondary, its DR operation token): "attempts recovery
// if replication is in an adverse state. For example: an error has caused replication to stop
// syncing" (the service's replication API page; sample answer `{"warnings": ["..."]}`). What the
// service does inside is not documented; replsim restarts the secondary side of replication: each
// kind the cluster follows a primary in closes its connection and dials again at once (a backoff
// it was waiting out is skipped), into a merkle diff of the data it keeps (the connection machine's
// `follow` row, as update-primary does). A primary's secondaries dial it, so it has nothing to
// restart: it answers so. The warnings are replsim's words.
import { stepConnection } from '../../../../models/secondary-connection.machine.js';
import type { Outcome, RequestContext } from '../../core/http/route.js';
import { isDrSecondary } from '../../core/http/authorize.js';
import type { ClusterState, ReplicationKind } from '../../core/state.js';
import { reply } from '../../../kernel/http/http.js';
import { notDrSecondary } from '../../operation-token/decide/strategy.js';
import { KIND_WORD, REPLICATION_KINDS } from '../../core/vocabulary.js';
import type { ReplicationRecovered } from '../events.js';
import { storedConnection } from '../link.js';
import { replicationRefusals as R } from '../refusals.js';

export const DR_PATH = 'sys/replication/dr/secondary/recover';

export const drFields = { dr_operation_token: { type: 'string' } } as const;

/** The kinds whose connection the machine restarts: those the cluster follows a primary in. */
function restartable(c: ClusterState, kinds: readonly ReplicationKind[]): ReplicationKind[] {
  return kinds.filter((k) => {
    const r = c.replication[k];
    return r.role === 'secondary.following' && r.primary !== null && stepConnection(storedConnection(r), { type: 'follow', phase: 'merkle-diff' }) !== null;
  });
}

function recover(ctx: RequestContext, kinds: readonly ReplicationKind[]): Outcome {
  const c = ctx.cluster;
  if (kinds.every((k) => c.replication[k].role === 'disabled')) return R.nothingToRecover();
  const restart = restartable(c, kinds);
  if (restart.length === 0) {
    return reply.data(null, { warnings: ['nothing to restart: this cluster follows no primary (a primary\'s secondaries connect to it; a secondary with no primary needs update-primary)'] });
  }
  const event: ReplicationRecovered = { type: 'replication-recovered', at: ctx.now, cluster: c.name, kinds: restart };
  const warnings = restart.map((k) => `${KIND_WORD[k]} replication restarted: ${c.name} closed its connection to ${c.replication[k].primary} and connects again, then checks its data with a merkle diff`);
  return { events: [event], reply: () => reply.data(null, { warnings }) };
}

/** sys/replication/recover: both kinds of the cluster asked. */
export function decide(ctx: RequestContext): Outcome {
  return recover(ctx, REPLICATION_KINDS);
}

/** dr/secondary/recover: a DR secondary's DR replication. */
export function decideDr(ctx: RequestContext<typeof drFields>): Outcome {
  if (!isDrSecondary(ctx.cluster)) return notDrSecondary(DR_PATH);
  return recover(ctx, ['dr']);
}
