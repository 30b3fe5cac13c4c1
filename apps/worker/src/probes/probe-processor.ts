import type { ProbePayload, ProbeReport, QueueName } from '@gatehouse/contracts';
import { classifyFailure, connectAdmitted } from '@gatehouse/mcp-client';
import {
  HeldLeases,
  type FreshLeaseTokens,
  type HeldLease,
  type IssuedLease,
  type LeaseApiClient,
} from '@gatehouse/lease-holder';
import type { Logger } from '@gatehouse/platform';
import { Inject, Injectable } from '@nestjs/common';
import { ChildGroupReaper } from '../children/child-group-reaper.js';
import type { WorkerConfig } from '../config/worker.config.js';
import { LOGGER, WORKER_CONFIG } from '../infrastructure/infrastructure-tokens.js';
import { leasedConnectOptions } from '../leases/leased-connect-options.js';
import { LEASE_API } from '../leases/lease-tokens.js';
import { droppedOutcome, runLeasedJob } from '../leases/leased-job.js';
import type { JobContext, QueueProcessor } from '../queues/queue-processor.js';
import { LeaseRevocationsHolder } from '../revocations/lease-revocations.holder.js';

export type ProbeOutcome =
  /** The report was accepted for the lease: the server answered a ping (`ready`) or the class why not. */
  | { outcome: 'reported'; leaseId: string; state: ProbeReport['state']; failureClass: string | null }
  | { outcome: 'skipped'; reason: 'no_worker_token' | 'other_pool' }
  /** The API refused the lease or the report (its stable problem code). */
  | { outcome: 'refused'; step: 'lease' | 'report'; code: string }
  /** The lease was revoked while the probe held it: connection closed, nothing reported. */
  | { outcome: 'dropped'; reason: 'revoked' | 'revalidate' };

/**
 * Probes one server (decision 0078): lease it with the worker token, connect through libs/mcp-client from the
 * lease's admitted transport (the handshake), send `ping`, close, report the connection state and failure class
 * for the lease (`POST /v1/leases/:id/probe`), release. A failure to connect or to answer the ping is what a probe
 * is for: it is reported (with the client's failure class and reason word), never thrown, so the queue does not
 * retry it; the next sweep probes again. Safe to run twice: the API keeps the last report.
 */
@Injectable()
export class ProbeProcessor implements QueueProcessor<typeof QueueName.Probe> {
  constructor(
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(LEASE_API) private readonly leases: LeaseApiClient | null,
    @Inject(HeldLeases) private readonly held: HeldLeases,
    @Inject(LeaseRevocationsHolder) private readonly revocations: LeaseRevocationsHolder,
    @Inject(ChildGroupReaper) private readonly reaper: ChildGroupReaper,
  ) {}

  async handle(payload: ProbePayload, job: JobContext): Promise<ProbeOutcome> {
    const ids = { jobId: job.jobId, tenantId: payload.tenantId, workspaceId: payload.workspaceId };
    if (payload.pool !== this.config.WORKER_POOL) return { outcome: 'skipped', reason: 'other_pool' };
    if (this.leases === null) return { outcome: 'skipped', reason: 'no_worker_token' };
    const api = this.leases;
    const result = await runLeasedJob(
      { api, held: this.held, revocations: this.revocations, logger: this.logger },
      {
        input: {
          workspaceId: payload.workspaceId,
          serverName: payload.serverName,
          principalUserId: payload.principalUserId,
        },
        label: 'probe',
        ids,
      },
      ({ lease, held, fresh, logIds }) => this.probeAndReport(api, lease, held, fresh, logIds),
    );
    return result.leased ? result.value : { outcome: 'refused', step: 'lease', code: result.code };
  }

  private async probeAndReport(
    api: LeaseApiClient,
    lease: IssuedLease,
    held: HeldLease,
    fresh: FreshLeaseTokens,
    logIds: Record<string, unknown>,
  ): Promise<ProbeOutcome> {
    try {
      const report = await this.probe(lease, held, fresh);
      const dropped = droppedOutcome(held);
      if (dropped !== null) return dropped;
      const submitted = await api.submitProbe(lease.id, report, held.signal);
      if (!submitted.ok) return { outcome: 'refused', step: 'report', code: submitted.code };
      this.logger.info(
        { ...logIds, state: report.state, failureClass: report.failureClass, reason: report.reason },
        'probe reported',
      );
      return {
        outcome: 'reported',
        leaseId: lease.id,
        state: report.state,
        failureClass: report.failureClass,
      };
    } catch (error) {
      const dropped = droppedOutcome(held);
      if (dropped !== null) return dropped;
      throw error;
    }
  }

  /** Connects and pings; whatever happens, the connection (and a stdio child's group) is closed before it returns. */
  private async probe(lease: IssuedLease, held: HeldLease, fresh: FreshLeaseTokens): Promise<ProbeReport> {
    const connected = await connectAdmitted(
      lease.transport.transport,
      leasedConnectOptions(this.config, this.reaper, lease, held, fresh),
    );
    if (!connected.ok) return failed(connected.failureClass, connected.reason, null);
    const { session } = connected;
    const closeOnDrop = () => void session.close();
    held.signal.addEventListener('abort', closeOnDrop, { once: true });
    try {
      await session.ping({ signal: held.signal, timeoutMs: Math.max(1, session.startupTimeLeft()) });
      return {
        state: 'ready',
        failureClass: null,
        reason: null,
        protocolVersion: session.identity.protocolVersion,
        serverVersion: boundedVersion(session.identity.serverInfo.version),
      };
    } catch (error) {
      const classified = classifyFailure(error);
      return failed(classified.failureClass, classified.reason, session.identity.protocolVersion);
    } finally {
      held.signal.removeEventListener('abort', closeOnDrop);
      await session.close();
    }
  }
}

function failed(
  failureClass: ProbeReport['failureClass'],
  reason: string,
  protocolVersion: string | null,
): ProbeReport {
  // The report's reason is a fixed word; one outside its shape is reported as the class alone would be.
  const word = /^[a-z][a-z0-9_]{0,63}$/.test(reason) ? reason : 'unclassified';
  return { state: 'failed', failureClass, reason: word, protocolVersion, serverVersion: null };
}

/** The version a server named itself, as the report holds it (1-128 characters), or null. */
function boundedVersion(version: string): string | null {
  return version.length >= 1 && version.length <= 128 ? version : null;
}
