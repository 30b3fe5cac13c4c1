import type { Transport } from '@modelcontextprotocol/client';
import type { NotificationBudget } from './notification-budget';

// The first reader of every message a server sends on one connection (decision 0130), ahead of the progress relay
// and the SDK's Protocol. A list_changed is never dispatched one by one: it only asks for the one coalesced
// re-list the supervisor keeps pending, so 20,000 of them cost 20,000 flag checks, not 20,000 handler runs.
// Every other notification spends the connection's budget; past it, it is dropped here, unread, and counted.
// A request from the server (a ping, an elicitation, any method) spends the same budget: the SDK answers each one
// it reads, and each answer is written back to the server, so a server that sends 50,000 requests and never reads
// the answers would make us hold 50,000 answers. Past the budget a request is dropped unanswered (a server that
// sends within its budget is answered; one that floods learns nothing from silence it could not learn anyway).

/** Why a server's notification reached nobody. */
export type NotificationDropReason =
  /** Nothing relays or reacts to this method (logging, resources/updated, anything unknown). */
  | 'not_relayed'
  /** Past the connection's notification budget. */
  | 'flood'
  /** A request from the server past the same budget: dropped unanswered. */
  | 'request_flood'
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

/** A message from the server that asks something of us: a notification (no id) or a request (an id). */
interface Incoming {
  readonly method: string;
  readonly request: boolean;
}

/** A method makes it a notification or a request (a request has an id too); a response has no method. */
function incoming(message: unknown): Incoming | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const method = (message as { method?: unknown }).method;
  return typeof method === 'string' ? { method, request: 'id' in message } : undefined;
}

/** Reads ahead of the transport's current message handler: call after `connect` and after the progress relay. */
export function gateNotifications(
  transport: Pick<Transport, 'onmessage'>,
  options: NotificationGateOptions,
): void {
  const next = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const read = incoming(message);
    if (read !== undefined) {
      if (!read.request && LIST_CHANGED.has(read.method)) {
        options.onListChanged();
        return;
      }
      if (!options.budget.take()) {
        options.onDropped(read.method.slice(0, 64), read.request ? 'request_flood' : 'flood');
        return;
      }
    }
    next?.(message, extra);
  };
}
