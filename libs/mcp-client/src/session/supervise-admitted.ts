import { ConnectionSupervisor, type SupervisorOptions } from '../supervisor/connection-supervisor.js';
import { admittedConnector } from './admitted-connector.js';
import type { ConnectOptions } from './connect-admitted.js';

// The one public entry point from a lease to a supervised server: connect from the admitted transport
// description (Streamable HTTP through the pinned egress fetch, or stdio under the pool's authority), run the
// initial listing under the server's startup bound (one walk, however many pages), then supervise: transient
// failures retried under bounded backoff, list_changed refreshes, the catalog bound to (server, negotiated
// protocol version, server version). `catalogDocumentOf` turns its catalog into the catalog document.

export interface SuperviseAdmittedOptions extends Omit<SupervisorOptions, 'connect' | 'serverId'> {
  /** How to connect (the server's name, client identity, defaults, hooks); see connectAdmitted. */
  readonly connect: ConnectOptions;
  /** Gatehouse's id of the server, part of the catalog identity; default: `connect.serverName`. */
  readonly serverId?: string;
}

/** A supervisor for one admitted server; nothing connects until `start()`. */
export function superviseAdmitted(
  description: unknown,
  options: SuperviseAdmittedOptions,
): ConnectionSupervisor {
  const { connect, serverId, ...supervision } = options;
  return new ConnectionSupervisor({
    ...supervision,
    serverId: serverId ?? connect.serverName,
    connect: admittedConnector(description, connect),
  });
}
