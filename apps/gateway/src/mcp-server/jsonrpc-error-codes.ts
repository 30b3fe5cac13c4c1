// Two JSON-RPC codes the 2025 SDK put on the wire and the v2 SDK keeps only as local error kinds (SdkErrorCode,
// strings that never leave the process). The gateway still answers with them where a peer is told a request
// ended without an answer, so 2025 peers read the same numbers they always have.

/** The request's connection (its session, its client's stream) went away before it was answered. */
export const CONNECTION_CLOSED = -32000;
/** The request was given up: no answer in time, or it is no longer needed. */
export const REQUEST_TIMEOUT = -32001;
