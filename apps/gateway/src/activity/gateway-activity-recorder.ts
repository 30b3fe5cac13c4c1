import { closeRedis } from '@gatehouse/coordination';
import {
  GATEWAY_ACTIVITY_BUCKET_TTL_SECONDS,
  GATEWAY_ACTIVITY_REFUSALS,
  GATEWAY_ACTIVITY_SESSIONS_TTL_SECONDS,
  GATEWAY_CALL_OUTCOMES,
  callField,
  encodeReplicaSessions,
  epochMinuteOf,
  gatewayMinuteKey,
  gatewaySessionsKey,
  refusalField,
  type GatewayActivityRefusal,
  type GatewayCallOutcome,
} from '@gatehouse/contracts';
import type { Logger } from '@gatehouse/platform';
import type { Redis } from 'ioredis';

// What the dashboard's Gateway panel shows (decision 0118), kept by each replica for itself:
// per workspace, its open sessions, its tool calls by outcome and the refusals of its own authenticated
// callers by reason. The call path only adds to numbers in memory; every few seconds they go to Redis in ONE
// pipeline (the layout in libs/contracts' gateway-activity.keys), where the API reads every replica's. Redis
// away: a flush fails, is logged once for the outage, and its numbers are lost (at most one interval's
// worth); no call ever waits for Redis or fails because of it.

export interface GatewayActivityRecorderOptions {
  /** Opens this recorder's own `command` connection (RedisConnections.open); it closes it in close(). */
  readonly connect: () => Redis;
  /** REDIS_KEY_PREFIX, trailing colon included (the API reads under the same one). */
  readonly keyPrefix: string;
  /** This replica's name in the sessions hashes (one per process). */
  readonly replicaId: string;
  readonly logger: Logger;
  /** Open sessions per workspace now (read at each flush, never kept). */
  readonly sessionCounts: () => ReadonlyMap<string, number>;
  /** Default 5 s. */
  readonly flushIntervalMs?: number;
  readonly now?: () => number;
}

const DEFAULT_FLUSH_INTERVAL_MS = 5_000;
const OUTCOMES: ReadonlySet<string> = new Set(GATEWAY_CALL_OUTCOMES);
const REFUSALS: ReadonlySet<string> = new Set(GATEWAY_ACTIVITY_REFUSALS);

/** field -> count, per epoch minute, per workspace: what was recorded since the last flush. */
type Pending = Map<string, Map<number, Map<string, number>>>;

export class GatewayActivityRecorder {
  private pending: Pending = new Map();
  /** Workspaces this replica last wrote a session count for (written 0 as a delete when they have none). */
  private reported = new Set<string>();
  private connection: Redis | null = null;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private failing = false;
  private readonly now: () => number;

  constructor(private readonly options: GatewayActivityRecorderOptions) {
    this.now = options.now ?? (() => Date.now());
  }

  /** Connects (lazily: Redis need not be up) and flushes on an interval. */
  start(): void {
    if (this.connection !== null) return;
    this.connection = this.options.connect();
    this.timer = setInterval(
      () => void this.flush(),
      this.options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS,
    );
    this.timer.unref();
  }

  /** One tools/call's outcome; a word that is not one of the recorded outcomes is not kept. */
  toolCall(workspaceId: string, outcome: string): void {
    if (OUTCOMES.has(outcome)) this.add(workspaceId, callField(outcome as GatewayCallOutcome));
  }

  /** A refusal of the workspace's own authenticated caller (the endpoint never calls this for anyone else). */
  refused(workspaceId: string, reason: string): void {
    if (REFUSALS.has(reason)) this.add(workspaceId, refusalField(reason as GatewayActivityRefusal));
  }

  /** Writes what was recorded since the last flush and this replica's session counts; never throws. */
  flush(): Promise<void> {
    // One flush at a time: an interval tick during a slow one (Redis away, retrying) waits for the next tick.
    if (this.flushing !== null) return this.flushing;
    this.flushing = this.write().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  /** Stops the interval, writes the last numbers (sessions are closed by then: their counts go) and disconnects. */
  async close(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.flushing;
    await this.flush();
    if (this.connection !== null) await closeRedis(this.connection);
    this.connection = null;
  }

  private add(workspaceId: string, field: string): void {
    const minute = epochMinuteOf(this.now());
    let minutes = this.pending.get(workspaceId);
    if (minutes === undefined) this.pending.set(workspaceId, (minutes = new Map()));
    let fields = minutes.get(minute);
    if (fields === undefined) minutes.set(minute, (fields = new Map()));
    fields.set(field, (fields.get(field) ?? 0) + 1);
  }

  private async write(): Promise<void> {
    const connection = this.connection;
    if (connection === null) return;
    const { keyPrefix, replicaId } = this.options;
    const pending = this.pending;
    this.pending = new Map();
    const counts = this.options.sessionCounts();
    const at = this.now();
    const pipeline = connection.pipeline();
    for (const [workspaceId, minutes] of pending) {
      for (const [minute, fields] of minutes) {
        const key = gatewayMinuteKey(keyPrefix, workspaceId, minute);
        for (const [field, count] of fields) pipeline.hincrby(key, field, count);
        pipeline.expire(key, GATEWAY_ACTIVITY_BUCKET_TTL_SECONDS);
      }
    }
    const reported = new Set<string>();
    for (const [workspaceId, count] of counts) {
      if (count <= 0) continue;
      const key = gatewaySessionsKey(keyPrefix, workspaceId);
      pipeline.hset(key, replicaId, encodeReplicaSessions(count, at));
      pipeline.expire(key, GATEWAY_ACTIVITY_SESSIONS_TTL_SECONDS);
      reported.add(workspaceId);
    }
    // A workspace whose last session here closed: this replica's field goes, others' stay.
    for (const workspaceId of this.reported)
      if (!reported.has(workspaceId)) pipeline.hdel(gatewaySessionsKey(keyPrefix, workspaceId), replicaId);
    if (pipeline.length === 0) return;
    try {
      const results = (await pipeline.exec()) ?? [];
      const failed = results.find(([error]) => error !== null);
      if (failed !== undefined) throw failed[0];
      this.reported = reported;
      if (this.failing) this.options.logger.info('gateway activity: flushing to Redis again');
      this.failing = false;
    } catch (error) {
      // Keep the workspaces to delete for the next flush; the counts of this one are lost (at most one interval).
      for (const workspaceId of reported) this.reported.add(workspaceId);
      if (!this.failing)
        this.options.logger.warn(
          { err: error instanceof Error ? error.name : 'non-error thrown' },
          'gateway activity: Redis unavailable, the dashboard counts miss this replica until it is back',
        );
      this.failing = true;
    }
  }
}
