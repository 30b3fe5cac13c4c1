import { z } from 'zod';
import { isoDateTime, uuid } from '../api/common.schema';

// The workspace gateway's live activity (decision 0118), as the API's `gateway.activity` answers
// it: the outcomes and refusal reasons a gateway replica records per workspace, and the read's schema. The
// words are the gateway's own (its tools/call outcomes and the refusals of callers the workspace vouches
// for); the refusals of requests nobody is vouched for (unauthenticated, unknown workspace, Host or Origin)
// are never here.

/** How a tools/call ended: served (`ok`), the upstream's tool error, or the gateway's refusal of it. */
export const GATEWAY_CALL_OUTCOMES = [
  'ok',
  'tool_error',
  'unknown_tool',
  'invalid_arguments',
  'catalog_unavailable',
  'upstream_unavailable',
] as const;
export const gatewayCallOutcome = z.enum(GATEWAY_CALL_OUTCOMES);
export type GatewayCallOutcome = z.infer<typeof gatewayCallOutcome>;

/** Requests of an authenticated caller of the workspace the gateway refused before any tool ran. */
export const GATEWAY_ACTIVITY_REFUSALS = [
  'rate_limited_token',
  'rate_limited_workspace',
  'session_not_found',
  'session_limit',
  'server_not_found',
] as const;
export const gatewayActivityRefusal = z.enum(GATEWAY_ACTIVITY_REFUSALS);
export type GatewayActivityRefusal = z.infer<typeof gatewayActivityRefusal>;

export const gatewayActivityInput = z.strictObject({ workspaceId: uuid });

const count = z.number().int().min(0);

export const gatewayActivityView = z
  .object({
    workspaceId: uuid,
    /** When the API read it; the window ends at this minute. */
    asOf: isoDateTime,
    /** How many minutes the counts cover (the current minute included). */
    windowMinutes: z.number().int().min(1),
    /** Open MCP sessions, summed over the replicas that reported in the last seconds. */
    liveSessions: count,
    /** Replicas that reported sessions for this workspace recently. */
    replicas: count,
    calls: z.object({
      total: count,
      /** Outcomes with at least one call, most first. */
      byOutcome: z.array(z.object({ outcome: gatewayCallOutcome, count })),
    }),
    refusals: z.object({
      total: count,
      /** Reasons with at least one refusal, most first. */
      byReason: z.array(z.object({ reason: gatewayActivityRefusal, count })),
    }),
    /** One entry per minute of the window, oldest first. */
    minutes: z.array(z.object({ minute: isoDateTime, calls: count, refusals: count })),
  })
  .meta({ title: 'GatewayActivity' });
export type GatewayActivityView = z.infer<typeof gatewayActivityView>;
