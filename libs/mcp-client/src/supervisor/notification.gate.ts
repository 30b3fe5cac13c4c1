import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { NotificationBudget } from './notification-budget';

// The first reader of every message a server sends on one connection (decision 0130), ahead of the progress relay
// and the SDK's Protocol. A list_changed is never dispatched one by one: it only asks for the one coalesced
// re-list the supervisor keeps pending, so 20,000 of them cost 20,000 flag checks, not 20,000 handler runs.
// Every other notification spends the connection's budget; past it, it is dropped here, unread, and counted.

/** Why a server's notification reached nobody. */
export type NotificationDropReason =
  /** Nothing relays or reacts to this method (logging, resources/updated, anything unknown). */
  | 'not_relayed'
  /** Past the connection's notification budget. */
  | 'flood'
  /** Past the progress one call may relay. */
  | 'call_cap';

const LIST_CHANGED = new Set([
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
]);

export interface NotificationGateOptions {
  readonly budget: NotificationBudget;
  /** The server said a list changed (coalesced by the caller: one pending re-list at most). */
  readonly onListChanged: () => void;
  readonly onDropped: (method: string, reason: NotificationDropReason) => void;
}

/** A notification: a method and no id (a request has both, a response no method). */
function notificationMethod(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null || 'id' in message) return undefined;
  const method = (message as { method?: unknown }).method;
  return typeof method === 'string' ? method : undefined;
}

/** Reads ahead of the transport's current message handler: call after `connect` and after the progress relay. */
export function gateNotifications(
  transport: Pick<Transport, 'onmessage'>,
  options: NotificationGateOptions,
): void {
  const next = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const method = notificationMethod(message);
    if (method !== undefined) {
      if (LIST_CHANGED.has(method)) {
        options.onListChanged();
        return;
      }
      if (!options.budget.take()) {
        options.onDropped(method.slice(0, 64), 'flood');
        return;
      }
    }
    next?.(message, extra);
  };
}
