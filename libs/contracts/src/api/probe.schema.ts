import { z } from 'zod';

// What a worker reports of a probe (docs/decisions/0078-probe-queue.md): the connection state
// and failure class of one leased server, never an error's text (which may hold an address, argv or stderr).

export const PROBE_STATES = ['ready', 'failed'] as const;
export const probeState = z.enum(PROBE_STATES);

/** libs/mcp-client's FailureClass: what retrying would do (transient), or what must change first. */
export const PROBE_FAILURE_CLASSES = ['transient', 'auth', 'protocol', 'config', 'fatal'] as const;
export const probeFailureClass = z.enum(PROBE_FAILURE_CLASSES);

/** The report's fields: `failureClass` and `reason` are set exactly when the state is `failed`. */
export const probeReportShape = {
  state: probeState,
  failureClass: probeFailureClass.nullable(),
  /** A fixed word from the client (`startup_timeout`, `connection_failed`, ...). */
  reason: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,63}$/)
    .nullable(),
  /** What the server answered in `initialize`, when it got that far. */
  protocolVersion: z.string().min(1).max(64).nullable(),
  serverVersion: z.string().min(1).max(128).nullable(),
};
export const probeReport = z.strictObject(probeReportShape);
export type ProbeReport = z.infer<typeof probeReport>;
