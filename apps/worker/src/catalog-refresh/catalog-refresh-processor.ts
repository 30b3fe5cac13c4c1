import type { CatalogRefreshPayload, CatalogRefreshPayloadV2, QueueName } from '@gatehouse/contracts';
import { catalogDocumentOf, superviseAdmitted, type ConnectionSupervisor } from '@gatehouse/mcp-client';
import {
  HeldLeases,
  type FreshLeaseTokens,
  type HeldLease,
  type IssuedLease,
  type LeaseApiClient,
} from '@gatehouse/lease-holder';
import type { Logger } from '@gatehouse/platform';
import { Inject, Injectable } from '@nestjs/common';
import type { WorkerConfig } from '../config/worker.config.js';
import { ChildGroupReaper } from '../children/child-group-reaper.js';
import { LOGGER, WORKER_CONFIG } from '../infrastructure/infrastructure-tokens.js';
import { leasedConnectOptions } from '../leases/leased-connect-options.js';
import { droppedOutcome, runLeasedJob } from '../leases/leased-job.js';
import { LEASE_API } from '../leases/lease-tokens.js';
import type { JobContext, QueueProcessor } from '../queues/queue-processor.js';
import { LeaseRevocationsHolder } from '../revocations/lease-revocations.holder.js';
import { discoveryFailureReportOf } from './discovery-failure-report.mapper.js';

export type CatalogRefreshOutcome =
  /** The snapshot was accepted for the lease it was discovered through. */
  | { outcome: 'stored'; leaseId: string; complete: boolean; tools: number }
  /** Nothing to do here: no worker token, a payload version without a fingerprint and pool, another pool's job. */
  | { outcome: 'skipped'; reason: 'no_worker_token' | 'payload_v1' | 'other_pool' }
  /** The API refused the lease or the snapshot (its stable problem code): retrying would not change it. */
  | { outcome: 'refused'; step: 'lease' | 'snapshot'; code: string }
  /**
   * The server could not be reached for a reason retrying does not fix (config, auth, protocol); `reported`: the
   * API took the failure for the lease (decision 0142), false when it refused it (logged).
   */
  | { outcome: 'unreachable'; failureClass: string; reason: string; reported: boolean }
  /** The lease was revoked while the job held it: connection closed, nothing posted. */
  | { outcome: 'dropped'; reason: 'revoked' | 'revalidate' };

/** What the logs name of a job, and whether it is its last attempt (logged too: why a failure was reported). */
type JobLogIds = Record<string, unknown> & { readonly lastAttempt: boolean };

/** A transient failure reaching the server: thrown so BullMQ retries the job under its backoff. */
export class ServerUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(`server unavailable: ${reason}`);
    this.name = 'ServerUnavailableError';
  }
}

/**
 * Refreshes one server's catalog (docs/architecture/catalog.md, discovery): lease the transport with the
 * worker token, connect through libs/mcp-client from the lease's admitted transport, run the initial listing,
 * build the one-server catalog document, post it for the lease, release the lease, close the connection. A server
 * not reached is reported for the lease as two closed words (decision 0142): at once when retrying would not help,
 * and on the job's last attempt when it would (a transient failure is otherwise thrown for the queue to retry). Safe
 * to run twice: a rerun takes a new lease and posts a new snapshot, which the API stores in place of the old
 * one (atomically), and a lease left by a killed run expires on its own TTL. Whatever happens, the connection
 * is closed (so a stdio child's process group is gone) before the job ends, and the lease is released.
 */
@Injectable()
export class CatalogRefreshProcessor implements QueueProcessor<typeof QueueName.CatalogRefresh> {
  constructor(
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(LEASE_API) private readonly leases: LeaseApiClient | null,
    @Inject(HeldLeases) private readonly held: HeldLeases,
    @Inject(LeaseRevocationsHolder) private readonly revocations: LeaseRevocationsHolder,
    @Inject(ChildGroupReaper) private readonly reaper: ChildGroupReaper,
  ) {}

  async handle(payload: CatalogRefreshPayload, job: JobContext): Promise<CatalogRefreshOutcome> {
    const ids = {
      jobId: job.jobId,
      attempt: job.attempt,
      tenantId: payload.tenantId,
      workspaceId: payload.workspaceId,
    };
    if (payload.v === 1) {
      this.logger.info(ids, 'catalog refresh skipped: a v1 job names no fingerprint or pool');
      return { outcome: 'skipped', reason: 'payload_v1' };
    }
    if (payload.pool !== this.config.WORKER_POOL) {
      this.logger.warn(
        { ...ids, pool: payload.pool },
        'catalog refresh skipped: the job is for another pool',
      );
      return { outcome: 'skipped', reason: 'other_pool' };
    }
    if (this.leases === null) {
      this.logger.warn(ids, 'catalog refresh skipped: no WORKER_TOKEN configured');
      return { outcome: 'skipped', reason: 'no_worker_token' };
    }
    return this.refresh(this.leases, payload, ids, job.lastAttempt);
  }

  private async refresh(
    api: LeaseApiClient,
    payload: CatalogRefreshPayloadV2,
    ids: Record<string, unknown>,
    lastAttempt: boolean,
  ): Promise<CatalogRefreshOutcome> {
    const result = await runLeasedJob(
      { api, held: this.held, revocations: this.revocations, logger: this.logger },
      {
        input: {
          workspaceId: payload.workspaceId,
          serverName: payload.serverName,
          principalUserId: payload.principalUserId,
        },
        label: 'catalog refresh',
        ids,
      },
      ({ lease, held, fresh, logIds }) =>
        this.discoverAndSubmit(api, lease, held, fresh, { ...logIds, lastAttempt }),
    );
    if (result.leased) return result.value;
    this.logger.info({ ...ids, status: result.status, code: result.code }, 'catalog refresh: lease refused');
    return { outcome: 'refused', step: 'lease', code: result.code };
  }

  private async discoverAndSubmit(
    api: LeaseApiClient,
    lease: IssuedLease,
    held: HeldLease,
    fresh: FreshLeaseTokens,
    logIds: JobLogIds,
  ): Promise<CatalogRefreshOutcome> {
    const supervisor = superviseAdmitted(lease.transport.transport, {
      serverId: lease.serverName,
      connect: leasedConnectOptions(this.config, this.reaper, lease, held, fresh),
      // One attempt per job: the queue's retries and backoff govern reruns, not a supervisor inside a job.
      backoff: { maxAttempts: 1, baseMs: 0, maxMs: 0 },
    });
    const closeOnDrop = () => void supervisor.close();
    held.signal.addEventListener('abort', closeOnDrop, { once: true });
    try {
      const status = await supervisor.start();
      const dropped = droppedOutcome(held);
      if (dropped !== null) return dropped;
      if (status !== 'ready' || supervisor.catalog === undefined)
        return await this.notReached(api, lease, held, supervisor, logIds);
      const document = catalogDocumentOf(supervisor.catalog, {
        source: lease.source,
        fetchedAt: new Date().toISOString(),
      });
      // Connection closed before posting: the child is gone whatever the API answers.
      await supervisor.close();
      const afterClose = droppedOutcome(held);
      if (afterClose !== null) return afterClose;
      const submitted = await api.submitSnapshot(lease.id, document, held.signal);
      if (!submitted.ok) {
        this.logger.warn(
          { ...logIds, status: submitted.status, code: submitted.code },
          'catalog refresh: snapshot refused',
        );
        return { outcome: 'refused', step: 'snapshot', code: submitted.code };
      }
      const [server] = document.servers;
      const tools = server?.tools.length ?? 0;
      this.logger.info({ ...logIds, tools, complete: document.complete }, 'catalog refresh: snapshot stored');
      return { outcome: 'stored', leaseId: lease.id, complete: document.complete, tools };
    } catch (error) {
      const dropped = droppedOutcome(held);
      if (dropped !== null) return dropped;
      throw error;
    } finally {
      held.signal.removeEventListener('abort', closeOnDrop);
      await supervisor.close();
    }
  }

  /**
   * The server was not reached: a transient failure is thrown for the queue to retry, unless this is the job's last
   * attempt; anything else, and a transient failure the job now gives up on, is reported for the lease first.
   */
  private async notReached(
    api: LeaseApiClient,
    lease: IssuedLease,
    held: HeldLease,
    supervisor: ConnectionSupervisor,
    logIds: JobLogIds,
  ): Promise<CatalogRefreshOutcome> {
    const failure = supervisor.state.failure;
    const failureClass = failure?.failureClass ?? 'fatal';
    const reason = failure?.reason ?? 'no_catalog';
    this.logger.warn({ ...logIds, failureClass, reason }, 'catalog refresh: server not reached');
    const transient = failureClass === 'transient';
    if (transient && !logIds.lastAttempt) throw new ServerUnavailableError(reason);
    // An API that cannot be reached throws here: the queue retries the job, and with it the report.
    const answer = await api.reportDiscoveryFailure(lease.id, discoveryFailureReportOf(failure), held.signal);
    if (!answer.ok)
      this.logger.warn(
        { ...logIds, status: answer.status, code: answer.code },
        'catalog refresh: discovery failure report refused',
      );
    if (transient) throw new ServerUnavailableError(reason);
    return { outcome: 'unreachable', failureClass, reason, reported: answer.ok };
  }
}
