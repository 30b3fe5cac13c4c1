import {
  GATEWAY_ACTIVITY_LIVE_MS,
  GATEWAY_ACTIVITY_REFUSALS,
  GATEWAY_ACTIVITY_SESSIONS_TTL_SECONDS,
  GATEWAY_ACTIVITY_WINDOW_MINUTES,
  GATEWAY_CALL_OUTCOMES,
  callField,
  decodeReplicaSessions,
  epochMinuteOf,
  gatewayMinuteKey,
  gatewaySessionsKey,
  refusalField,
  type GatewayActivityView,
} from '@gatehouse/contracts';
import type { Redis } from 'ioredis';

// Reads what the gateway replicas flushed for one workspace (the layout in libs/contracts' gateway-activity.keys)
// in one pipeline: the sessions hash and the window's minute hashes. Sessions: the sum over the replicas whose
// count is fresh (a replica that died or lost Redis stops counting once its field is older than
// GATEWAY_ACTIVITY_LIVE_MS). Counts: only the outcome and reason words the schema knows, each a bounded number.

export interface ReadGatewayActivityOptions {
  readonly keyPrefix: string;
  /** Already checked visible to the caller: this reads no tenant data of its own. */
  readonly workspaceId: string;
  readonly nowMs: number;
}

const MAX_COUNT = 1_000_000_000;

function countOf(value: string | undefined): number {
  const n = value === undefined ? 0 : Number(value);
  return Number.isSafeInteger(n) && n > 0 ? Math.min(n, MAX_COUNT) : 0;
}

export async function readGatewayActivity(
  redis: Redis,
  options: ReadGatewayActivityOptions,
): Promise<GatewayActivityView> {
  const { keyPrefix, workspaceId, nowMs } = options;
  const current = epochMinuteOf(nowMs);
  const minutes = Array.from(
    { length: GATEWAY_ACTIVITY_WINDOW_MINUTES },
    (_, i) => current - GATEWAY_ACTIVITY_WINDOW_MINUTES + 1 + i,
  );
  const pipeline = redis.pipeline();
  pipeline.hgetall(gatewaySessionsKey(keyPrefix, workspaceId));
  for (const minute of minutes) pipeline.hgetall(gatewayMinuteKey(keyPrefix, workspaceId, minute));
  const results = (await pipeline.exec()) ?? [];
  const hashes = results.map(([error, value]) => {
    if (error !== null) throw error;
    return (value ?? {}) as Record<string, string>;
  });

  let liveSessions = 0;
  let replicas = 0;
  const dead: string[] = [];
  for (const [replica, value] of Object.entries(hashes[0] ?? {})) {
    const decoded = decodeReplicaSessions(value);
    if (decoded === null || nowMs - decoded.atMs > GATEWAY_ACTIVITY_SESSIONS_TTL_SECONDS * 1000) {
      dead.push(replica);
      continue;
    }
    if (nowMs - decoded.atMs > GATEWAY_ACTIVITY_LIVE_MS) continue;
    liveSessions += decoded.count;
    replicas += 1;
  }
  // Live replicas keep the hash's expiry fresh, so a crashed replica's field would never go: a field older than
  // the key would live alone (or unreadable) is dropped here: one more command, only when there is one, and a
  // failure of it (housekeeping) never fails the read.
  if (dead.length > 0)
    await redis.hdel(gatewaySessionsKey(keyPrefix, workspaceId), ...dead).catch(() => undefined);

  const outcomes = new Map<(typeof GATEWAY_CALL_OUTCOMES)[number], number>();
  const reasons = new Map<(typeof GATEWAY_ACTIVITY_REFUSALS)[number], number>();
  const series = minutes.map((minute, i) => {
    const hash = hashes[i + 1] ?? {};
    let calls = 0;
    let refusals = 0;
    for (const outcome of GATEWAY_CALL_OUTCOMES) {
      const n = countOf(hash[callField(outcome)]);
      if (n > 0) outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + n);
      calls += n;
    }
    for (const reason of GATEWAY_ACTIVITY_REFUSALS) {
      const n = countOf(hash[refusalField(reason)]);
      if (n > 0) reasons.set(reason, (reasons.get(reason) ?? 0) + n);
      refusals += n;
    }
    return { minute: new Date(minute * 60_000).toISOString(), calls, refusals };
  });

  const byOutcome = [...outcomes].map(([outcome, count]) => ({ outcome, count }));
  const byReason = [...reasons].map(([reason, count]) => ({ reason, count }));
  byOutcome.sort((a, b) => b.count - a.count);
  byReason.sort((a, b) => b.count - a.count);
  return {
    workspaceId,
    asOf: new Date(nowMs).toISOString(),
    windowMinutes: GATEWAY_ACTIVITY_WINDOW_MINUTES,
    liveSessions,
    replicas,
    calls: { total: byOutcome.reduce((sum, e) => sum + e.count, 0), byOutcome },
    refusals: { total: byReason.reduce((sum, e) => sum + e.count, 0), byReason },
    minutes: series,
  };
}
