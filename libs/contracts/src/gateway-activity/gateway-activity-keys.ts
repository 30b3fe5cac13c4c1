import type { GatewayActivityRefusal, GatewayCallOutcome } from './gateway-activity.schema';

// Where the gateway's replicas leave their activity in Redis and the API reads it (decision 0118). Written by
// each replica every few seconds in one pipeline, never on the call path:
// - `<prefix>gateway-activity:<workspace>:sessions`, a hash: field = replica id, value = `<open sessions>@<ms>`
//   (the replica's clock when it wrote); a replica not heard from within GATEWAY_ACTIVITY_LIVE_MS is not counted
//   (it died or lost Redis), and the hash expires when no replica refreshes it.
// - `<prefix>gateway-activity:<workspace>:minute:<epoch minute>`, a hash of `call:<outcome>` and
//   `refusal:<reason>` counters, expiring after GATEWAY_ACTIVITY_BUCKET_TTL_SECONDS.
// The prefix is the deployment's REDIS_KEY_PREFIX (with its trailing colon).

/** A replica's session count older than this is not live. */
export const GATEWAY_ACTIVITY_LIVE_MS = 30_000;
/** A minute's counters live this long: the read's hour and some margin. */
export const GATEWAY_ACTIVITY_BUCKET_TTL_SECONDS = 2 * 60 * 60;
/** A workspace's sessions hash outlives its last refresh by this long. */
export const GATEWAY_ACTIVITY_SESSIONS_TTL_SECONDS = 120;
/** The read covers this many minutes, the current one included. */
export const GATEWAY_ACTIVITY_WINDOW_MINUTES = 60;

export function epochMinuteOf(ms: number): number {
  return Math.floor(ms / 60_000);
}

export function gatewaySessionsKey(prefix: string, workspaceId: string): string {
  return `${prefix}gateway-activity:${workspaceId}:sessions`;
}

export function gatewayMinuteKey(prefix: string, workspaceId: string, epochMinute: number): string {
  return `${prefix}gateway-activity:${workspaceId}:minute:${epochMinute}`;
}

export function callField(outcome: GatewayCallOutcome): string {
  return `call:${outcome}`;
}

export function refusalField(reason: GatewayActivityRefusal): string {
  return `refusal:${reason}`;
}

export function encodeReplicaSessions(count: number, atMs: number): string {
  return `${count}@${atMs}`;
}

/** A replica's field as written by encodeReplicaSessions; anything else is null (never counted). */
export function decodeReplicaSessions(value: string): { count: number; atMs: number } | null {
  const match = /^(\d{1,9})@(\d{1,16})$/.exec(value);
  if (match === null) return null;
  return { count: Number(match[1]), atMs: Number(match[2]) };
}
