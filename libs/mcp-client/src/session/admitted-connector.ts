import type { Connector, SupervisedConnection } from '../supervisor/connection-supervisor.js';
import { connectAdmitted, type ConnectOptions } from './connect-admitted.js';
import type { AdmittedSession } from './admitted-session.js';

// The supervisor's connector over connectAdmitted: every (re)connection is built from the admitted description
// again (admit-then-construct each time: for stdio the activation recheck and the spawn-time authority check
// run before every spawn), and a refusal comes back as the typed, classified failure connectAdmitted gave (its
// failureClass is what the supervisor retries on). The connection it hands over carries the server's startup
// bound for the initial listing and the session's guard for tool calls.

/** A connection made by {@link admittedConnector}: the supervisor's view, plus the session it wraps. */
export interface AdmittedConnection extends SupervisedConnection {
  readonly session: AdmittedSession;
}

export function connectionOf(session: AdmittedSession): AdmittedConnection {
  return {
    session,
    client: session.client,
    protocolVersion: session.identity.protocolVersion,
    protocolEra: session.identity.protocolEra,
    close: () => session.close(),
    // Seed 004: the handshake and the initial listing EACH carry the startup bound (the listing as one walk).
    initialListingTimeoutMs: session.startupTimeoutMs,
    guard: (request, signal) => session.guard(request, signal),
    withCallHeaders: (headers, start) => session.withCallHeaders(headers, start),
    elicitation: session.elicitation,
  };
}

export function admittedConnector(description: unknown, options: ConnectOptions): Connector {
  return async (signal) => {
    const connected = await connectAdmitted(description, options);
    if (!connected.ok) return { ok: false, failure: connected };
    if (signal.aborted) {
      // Closed while connecting: nobody will hold this session.
      await connected.session.close().catch(() => undefined);
      return { ok: false, failure: { failureClass: 'fatal', reason: 'closed_while_connecting' } };
    }
    return { ok: true, connection: connectionOf(connected.session) };
  };
}
