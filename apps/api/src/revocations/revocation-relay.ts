import {
  publishRevocations,
  Wakeup,
  type CoordinationLogger,
  type RevocationAnnouncement,
} from '@gatehouse/coordination';
import {
  listUnpublishedRevocationEvents,
  markRevocationEventsPublished,
  sequenceRevocationEvents,
  type Database,
} from '@gatehouse/db';
import type { Redis } from 'ioredis';
import { revocationLedgerIdOf } from './revocation-ledger-identity.js';

// The after-commit relay of the revocation ledger (docs/decisions/0053-revocation-relay-and-holders.md). It
// reads the ledger, never an in-memory queue: woken by every commit of this process that appended an event, and
// by a periodic tick for everything else (another replica's commit, the operator CLI, a crash between commit and
// publish). Each pass gives committed events their positions, publishes the unpublished ones in order, then
// marks them published. Dying between publish and mark publishes them again (at least once; holders drop
// positions they have). Every API replica runs one; they may publish the same row twice, never skip one.

export interface RevocationRelayOptions {
  readonly database: Database;
  readonly redis: Redis;
  readonly namespace: string;
  /** The periodic pass (default 1 s): the bound for events this process was not woken for. */
  readonly tickMs?: number;
  readonly batchSize?: number;
  readonly logger?: CoordinationLogger;
  /**
   * Told of every batch once it is published (after commit, so readers see the change): the catalog lease's
   * long-polls are woken from here. Must not throw; a failure of its own is its own to log.
   */
  readonly onPublished?: (events: readonly RevocationAnnouncement[]) => void;
}

export class RevocationRelay {
  private readonly wakeup = new Wakeup();
  private readonly abort = new AbortController();
  private loop: Promise<void> | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly tickMs: number;
  private readonly batchSize: number;

  constructor(private readonly options: RevocationRelayOptions) {
    this.tickMs = options.tickMs ?? 1_000;
    this.batchSize = options.batchSize ?? 500;
  }

  start(): void {
    if (this.loop) return;
    this.unsubscribe = this.options.database.onRevocationsAppended(() => this.wakeup.notify());
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.abort.abort();
    await this.loop;
  }

  /** One pass: sequence, publish, mark. Returns how many events it published. */
  async pass(): Promise<number> {
    const { database, redis, namespace } = this.options;
    let published = 0;
    const ledger = await revocationLedgerIdOf(database);
    await database.lookup((query) => sequenceRevocationEvents(query, this.batchSize));
    for (;;) {
      const rows = await database.lookup((query) => listUnpublishedRevocationEvents(query, this.batchSize));
      if (rows.length === 0) break;
      const announcements: RevocationAnnouncement[] = rows.map((row) => {
        const common = {
          ledger,
          tenantId: row.tenantId,
          kind: row.kind,
          subject: row.subject,
          occurredAt: row.occurredAt,
        };
        return {
          platform: { seq: row.seq, ...common },
          tenant: row.tenantId === null || row.tenantSeq === null ? null : { seq: row.tenantSeq, ...common },
        };
      });
      await publishRevocations(redis, namespace, announcements);
      this.options.onPublished?.(announcements);
      const last = rows.at(-1);
      if (last) await database.lookup((query) => markRevocationEventsPublished(query, last.seq));
      published += rows.length;
      if (rows.length < this.batchSize) break;
      await database.lookup((query) => sequenceRevocationEvents(query, this.batchSize));
    }
    return published;
  }

  private async run(): Promise<void> {
    while (!this.abort.signal.aborted) {
      try {
        await this.pass();
      } catch (error) {
        // Postgres or Redis away: the rows stay unpublished and the next pass (tick or wake-up) tries again.
        this.options.logger?.warn(
          { err: error instanceof Error ? error.message : 'non-error thrown' },
          'revocation relay pass failed',
        );
      }
      await this.wakeup.wait(this.tickMs, this.abort.signal);
    }
  }
}
