// Replication, DR and performance (spec areas A and B): the role table, activation, streaming, paths
// filters and how DR carries performance replication. What the area gives the world (src/areas.ts).
import { simArea } from '../sim-area.js';
import { deletePathsFilter } from './commands/delete-paths-filter.js';
import { demote } from './commands/demote.js';
import { disable } from './commands/disable.js';
import { enablePrimary } from './commands/enable-primary.js';
import { enableSecondary } from './commands/enable-secondary.js';
import { issueSecondaryToken } from './commands/issue-secondary-token.js';
import { promote } from './commands/promote.js';
import { revokeSecondary } from './commands/revoke-secondary.js';
import { setPathsFilter } from './commands/set-paths-filter.js';
import { updatePrimary } from './commands/update-primary.js';
import { filterReducers } from './filters.js';
import { replicatingPerformanceConfiguration } from './interplay.js';
import { replicationMessages } from './messages.js';
import { receiveConnect, receiveSync, receiveWal, withWalSnapshots } from './shipping.js';
import { checkLink, withConnectionsLost } from './streaming.js';
import { clusterIdRules } from './monitors/cluster-id-rules.js';
import { convergence } from './monitors/convergence.js';
import { drSecondaryClosed } from './monitors/dr-secondary-closed.js';
import { filtersRespected } from './monitors/filters-respected.js';
import { forcedPromotion } from './monitors/forced-promotion.js';
import { lostWrites } from './monitors/lost-writes.js';
import { newerPrimary } from './monitors/newer-primary.js';
import { revokedStaysBarred } from './monitors/revoked-stays-barred.js';
import { twoPrimaries } from './monitors/two-primaries.js';
import { wipeOnEnable } from './monitors/wipe-on-enable.js';
import { replicationReducers } from './evolve.js';
import { replicationRefusals } from './refusals.js';
import { drRoutes, legacyRoutes, performanceRoutes, recoverRoutes } from './routes.js';
import { licenseStatusRoute } from './decide/license-status.js';

export const replicationArea = simArea({
  name: 'replication',
  readme: 'src/areas/replication/README.md',
  reducers: { ...replicatingPerformanceConfiguration(replicationReducers), ...filterReducers },
  routes: [
    ...drRoutes,
    ...performanceRoutes,
    ...legacyRoutes,
    licenseStatusRoute,
    ...recoverRoutes,
  ],
  messages: [replicationMessages],
  receivers: { wal: receiveWal, connect: receiveConnect, 'merkle-sync': receiveSync },
  checkers: { link: checkLink },
  upkeep: (table) => withWalSnapshots(withConnectionsLost(table)),
  monitors: [wipeOnEnable, clusterIdRules, revokedStaysBarred, filtersRespected, drSecondaryClosed, convergence, twoPrimaries, newerPrimary, forcedPromotion, lostWrites],
  commands: [enablePrimary, issueSecondaryToken, enableSecondary, promote, demote, disable, revokeSecondary, updatePrimary, setPathsFilter, deletePathsFilter],
  refusals: replicationRefusals,
});
