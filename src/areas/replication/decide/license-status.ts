// GET sys/replication/dr/secondary/license/status: the licence status of a DR secondary, one of the
// paths it leaves open (unauthenticated in the service's API document). A simulated cluster's
// licence is its scenario's `license`; the autoloaded licence's fields are replsim's own (simulator
// wording: the service's sample is not in the facts), with times far from any scenario's clock.
import { rfc3339 } from '../../../kernel/clock.js';
import { reply } from '../../../kernel/http/http.js';
import { endpoint, type Route } from '../../core/http/route.js';

const YEAR_MS = 365 * 24 * 3600 * 1000;

export const licenseStatusRoute: Route = {
  pattern: 'sys/replication/dr/secondary/license/status',
  methods: {
    GET: endpoint({
      summary: 'read the licence status of a DR secondary',
      auth: { token: 'none', rootNamespace: true, license: 'enterprise', openOnDrSecondary: true },
      handle: (ctx) =>
        reply.data({
          autoloading_used: true,
          autoloaded: {
            license_id: `replsim-${ctx.cluster.license}`,
            start_time: rfc3339(0),
            expiration_time: rfc3339(YEAR_MS),
            termination_time: rfc3339(YEAR_MS),
            features: ['DR Replication', 'Performance Replication', 'Namespaces', 'Secrets Sync'],
          },
        }),
    }),
  },
};
