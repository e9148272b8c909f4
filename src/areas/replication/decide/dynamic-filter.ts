// GET performance/primary/dynamic-filter/:id (what the primary filters from that secondary now) and
// GET performance/secondary/dynamic-filter/:id (what this secondary was told its primary filters
// from it, at its last sync).
import { modeOf } from '../../../../models/replication-role.machine.js';
import type { RequestContext } from '../../core/http/route.js';
import type { DynamicFilter } from '../state.js';
import { reply, type Reply } from '../../../kernel/http/http.js';
import { dynamicFilterOf } from '../filters.js';
import { replicationRefusals as R } from '../refusals.js';
import { replicationErrors } from './common.js';
import { issuedOn } from './paths-filter.js';

const err = replicationErrors('performance');

function dynamicFilterReply(f: DynamicFilter): Reply {
  return reply.data({ dynamic_filtered_mounts: f.mounts, dynamic_filtered_namespaces: f.namespaces });
}

export function decideOnPrimary(ctx: RequestContext): Reply {
  return issuedOn(ctx.cluster, ctx.params.id) ?? dynamicFilterReply(dynamicFilterOf(ctx.cluster, ctx.params.id));
}

export function decideOnSecondary(ctx: RequestContext): Reply {
  const r = ctx.cluster.replication.performance;
  if (modeOf(r.role) !== 'secondary') return err.notSecondary();
  if (ctx.params.id !== r.secondaryId) return r.secondaryId === '' ? R.noPrimaryToFilter() : R.notThisSecondary(r.secondaryId, ctx.params.id);
  return dynamicFilterReply(r.dynamicFilter);
}
