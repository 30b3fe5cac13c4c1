import type { Registry } from '@gatehouse/platform';
import { Counter, Gauge } from 'prom-client';

/** What the workspace endpoint counts: refusals by reason, tool calls by outcome, dropped upstream notifications. */
export interface GatewayMetrics {
  refused(reason: GatewayRefusalReason): void;
  toolCall(outcome: string): void;
  droppedNotification(method: string, reason: string): void;
  readonly sessions: Gauge;
}

export type GatewayRefusalReason =
  | 'unauthenticated'
  | 'workspace_not_found'
  | 'server_not_found'
  | 'host_not_allowed'
  | 'origin_not_allowed'
  | 'rate_limited_token'
  | 'rate_limited_workspace'
  | 'session_not_found'
  | 'session_limit'
  | 'unavailable';

/**
 * Notification methods and the requests a server may send are the protocol's words; anything else an upstream
 * sends is counted as `other`.
 */
const KNOWN_METHOD =
  /^(notifications\/[a-z_/]{1,48}|ping|elicitation\/create|roots\/list|sampling\/createMessage)$/;

export function createGatewayMetrics(registry: Registry): GatewayMetrics {
  const refusals = new Counter({
    name: 'gateway_refusals_total',
    help: 'MCP requests the workspace endpoint refused, by reason.',
    labelNames: ['reason'],
    registers: [registry],
  });
  const calls = new Counter({
    name: 'gateway_tool_calls_total',
    help: 'tools/call requests by outcome.',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const dropped = new Counter({
    name: 'gateway_upstream_notifications_dropped_total',
    help: 'Upstream notifications (and requests) never relayed to a client, by method and why: not_relayed (not progress of a call in flight, not list_changed), flood (past the connection budget), request_flood (a request past the same budget, left unanswered), call_cap (past a call’s progress cap).',
    labelNames: ['method', 'reason'],
    registers: [registry],
  });
  const sessions = new Gauge({
    name: 'gateway_sessions',
    help: 'Open MCP sessions on this replica.',
    registers: [registry],
  });
  return {
    refused: (reason) => refusals.inc({ reason }),
    toolCall: (outcome) => calls.inc({ outcome }),
    droppedNotification: (method, reason) =>
      dropped.inc({ method: KNOWN_METHOD.test(method) ? method : 'other', reason }),
    sessions,
  };
}
