// The one adapter over the MCP SDK's client side (@modelcontextprotocol/client, v2: decision 0143).
// A curated surface: named exports only, added here as the lib grows.
// 13c: discovery, schema narrowing, result caps, supervisor.
export {
  discoverCatalog,
  LIST_KINDS,
  DEFAULT_MAX_PAGES,
  DEFAULT_MAX_ENTRIES,
  DEFAULT_LIST_REQUEST_TIMEOUT_MS,
} from './discovery/catalog-discovery';
export type {
  DiscoveredLists,
  DiscoveredTool,
  Discovery,
  DiscoveryDiagnostic,
  DiscoveryOptions,
  ListKind,
  ListStatus,
} from './discovery/catalog-discovery';
export { MAX_CURSOR_LENGTH } from './discovery/bounded-pagination';
export type { PaginationFailure, PaginationFailureReason } from './discovery/bounded-pagination';
export type { ListingClient } from './discovery/listing-client';
export {
  narrowInputSchema,
  MAX_SCHEMA_DEPTH,
  MAX_SCHEMA_NODES,
  MAX_REPORTED_DROPS,
} from './schema/schema-narrowing';
export type {
  DroppedPath,
  NarrowedInputSchema,
  NarrowedNode,
  NarrowingReason,
  NarrowingResult,
} from './schema/schema-narrowing';
export { checkArguments } from './schema/narrowed-schema.guard';
export type { ArgumentCheck, ArgumentProblem } from './schema/narrowed-schema.guard';
export {
  admitToolResult,
  measureResultChars,
  readResultCap,
  withheldResult,
  RESULT_CAP_META_KEY,
  DEFAULT_MAX_RESULT_CHARS,
  MIN_REQUESTED_RESULT_CHARS,
  MAX_REQUESTED_RESULT_CHARS,
} from './results/result-cap.policy';
export type { ResultAdmission, ResultCap, ResultCapDiagnostic } from './results/result-cap.policy';
export { ConnectionSupervisor, DEFAULT_CALL_TIMEOUT_MS } from './supervisor/connection-supervisor';
export type {
  CallElicitation,
  ConnectOutcome,
  Connector,
  ElicitationRefusal,
  ElicitationRelay,
  SupervisedCatalog,
  SupervisedClient,
  SupervisedConnection,
  SupervisorEvent,
  SupervisorFailure,
  SupervisorOptions,
  SupervisorStatus,
  ToolCallOutcome,
  CompletionOutcome,
  PromptOutcome,
  ResourceReadOutcome,
  UpstreamReadOutcome,
} from './supervisor/connection-supervisor';
export type { CallProgress } from './supervisor/call-progress-relay';
export { isElicitationRefusal } from './supervisor/elicitation-refused-error';
export { classifyFailure, FAILURE_CLASSES } from './supervisor/failure-class';
export type { ClassifiedFailure, FailureClass, SelfClassifiedError } from './supervisor/failure-class';
export { backoffDelayMs, DEFAULT_BACKOFF } from './supervisor/backoff.policy';
export type { BackoffPolicy } from './supervisor/backoff.policy';
export { sameIdentity } from './supervisor/catalog-identity';
export type { CatalogIdentity } from './supervisor/catalog-identity';
// 13b: admit-then-construct transports (Streamable HTTP through the pinned egress fetch; stdio under authority),
// the authenticator and per-request header hooks, header helpers, the receive cap.
export { connectAdmitted } from './session/connect-admitted';
export type {
  ConnectFailure,
  ConnectFailureClass,
  ConnectFailureReason,
  ConnectOptions,
  ConnectResult,
} from './session/connect-admitted';
export { AdmittedSession } from './session/admitted-session';
export type { RequestBounds, SessionIdentity } from './session/admitted-session';
export type { AuthRefusal, Authenticator } from './auth/authenticator';
export { createHeaderHelperAuthenticator } from './auth/header-helper-authenticator';
export type { HeaderHelperOptions } from './auth/header-helper-authenticator';
export { createLeaseTokenAuthenticator } from './auth/lease-token-authenticator';
export type { FreshAccessToken, LeaseTokenAuthenticatorOptions } from './auth/lease-token-authenticator';
export { parseHeaderHelperOutput, MAX_HELPER_HEADERS } from './auth/header-helper-output-parser';
export type { HeaderHelperOutput, HeaderHelperOutputRefusal } from './auth/header-helper-output-parser';
export type { OutgoingRequest, RequestHeaderHook } from './transport/mcp-fetch';
export {
  McpTransportError,
  isMcpTransportError,
  DEFAULT_RECEIVE_CAP_BYTES,
} from './transport/transport-error';
export type { TransportFailureReason } from './transport/transport-error';
export { checkSpawnAuthority } from './stdio/spawn-authority.guard';
export { runAsOptionsOf } from './stdio/child-run-as';
export type { RunAsOptions, UnixAccount } from './stdio/child-run-as';
export type { SpawnAuthority, SpawnRefusalReason } from './stdio/spawn-authority.guard';
export type { ProcessGroupObserver } from './stdio/process-group-stdio-transport';
// The public entry point from an admitted description to a supervised server and its catalog document.
export { superviseAdmitted } from './session/supervise-admitted';
export type { SuperviseAdmittedOptions } from './session/supervise-admitted';
export { admittedConnector } from './session/admitted-connector';
export type { AdmittedConnection } from './session/admitted-connector';
export { catalogDocumentOf, serverListingOf } from './catalog/server-listing.mapper';
export type { ListingContext } from './catalog/server-listing.mapper';
