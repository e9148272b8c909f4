// GET sys/sync/destinations/<type>/:name (and …/associations): a destination, or its associations.
import type { RequestContext } from '../../core/http/route.js';
import { errors, reply, type Reply } from '../../../kernel/http/http.js';
import type { DestinationType } from '../destinations.js';
import { associationsView, destinationOf, destinationView } from './common.js';

export const decide =
  (type: DestinationType) =>
  (ctx: RequestContext): Reply => {
    const d = destinationOf(ctx, type);
    return d ? reply.data(destinationView(d)) : errors.notFound();
  };

export const decideAssociations =
  (type: DestinationType) =>
  (ctx: RequestContext): Reply => {
    const d = destinationOf(ctx, type);
    return d ? reply.data(associationsView(d)) : errors.notFound();
  };
