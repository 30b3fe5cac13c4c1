import type { FreshLeaseTokens, HeldLease } from '@gatehouse/lease-holder';
import { runAsOptionsOf, type ConnectOptions } from '@gatehouse/mcp-client';
import type { ChildGroupReaper } from '../children/child-group-reaper.js';
import type { WorkerConfig } from '../config/worker.config.js';

const CLIENT_INFO = { name: 'gatehouse-worker', version: '0.1.0' } as const;

/**
 * How every job of this worker connects to a leased server: the operator's child settings, the lease's own
 * liveness as the admission re-check, the one fresh token after a 401, and the reaper told of each child's process
 * group so a killed worker leaves no child behind (decision 0072), whatever the job.
 */
export function leasedConnectOptions(
  config: WorkerConfig,
  reaper: ChildGroupReaper,
  lease: { readonly serverName: string },
  held: HeldLease,
  fresh: FreshLeaseTokens,
): ConnectOptions {
  return {
    serverName: lease.serverName,
    clientInfo: CLIENT_INFO,
    defaultStartupTimeoutMs: config.DISCOVERY_STARTUP_TIMEOUT_MS,
    searchPath: config.CHILD_PATH,
    ...runAsOptionsOf(config.CHILD_USER, config.NODE_ENV),
    closeGraceMs: config.CHILD_CLOSE_GRACE_MS,
    stillAdmitted: () => held.live,
    freshAccessToken: fresh.freshAccessToken,
    processGroups: reaper,
  };
}
