// Injection tokens of the gateway's collaborators that are not classes, or that are absent (null) without a
// GATEWAY_TOKEN: nothing talks to the API then, so there is no upstream pool, activity or revocation holder.
/** GatewayMetrics (createGatewayMetrics on the app's registry). */
export const GATEWAY_METRICS = 'GATEWAY_METRICS';
/** UpstreamPool | null. */
export const UPSTREAM_POOL = 'UPSTREAM_POOL';
/** GatewayActivityRecorder | null. */
export const GATEWAY_ACTIVITY = 'GATEWAY_ACTIVITY';
/** GatewayRevocationsHolder | null. */
export const GATEWAY_REVOCATIONS = 'GATEWAY_REVOCATIONS';
/** GatewayServing | null: the tools and surfaces services the MCP servers answer from. */
export const GATEWAY_SERVING = 'GATEWAY_SERVING';
/** LateBinding<McpServing>: for the providers built before the sessions that call them back. */
export const SESSIONS_BINDING = 'SESSIONS_BINDING';
/** LateBinding<GatewayRevocationsHolder>: the caller cache asks whether the holder is live. */
export const REVOCATIONS_BINDING = 'REVOCATIONS_BINDING';
