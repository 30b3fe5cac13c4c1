// Public surface of @gatehouse/testing: real Postgres and Redis per test file, and quick fixtures.
export { createTestDatabase, TEST_DATABASE_TIMEOUT_MS } from './test-database';
export type { TestDatabase } from './test-database';
export { createTestRedisPrefix, testRedisUrl } from './test-redis';
export { readTestEnv } from './test-env';
export { testEnvelopeCipher, testKeyMaterial } from './test-cipher';
export type { TestEnv } from './test-env';
export { createTestTenant, createTestUser, createTestWorkspace } from './tenant.fixtures';
export type { TestTenant, TestUser, TestWorkspace } from './tenant.fixtures';
export {
  DEFAULT_PUBLIC_ROUTES,
  assertCrossTenantReport,
  runCrossTenantHarness,
} from './cross-tenant/cross-tenant.harness';
export type {
  CrossTenantExpectation,
  CrossTenantHarnessOptions,
  CrossTenantReport,
  GraphQLFieldCase,
  HarnessInject,
  HarnessRequest,
  HarnessResponse,
  InjectCapable,
  RouteCase,
} from './cross-tenant/cross-tenant.harness';
export { collectRoutes } from './cross-tenant/route-collector';
export type { CollectedRoutes, RegisteredRoute } from './cross-tenant/route-collector';
export { startDedicatedRedis } from './dedicated-redis';
export type { DedicatedRedis, DedicatedRedisOptions } from './dedicated-redis';
// A real OAuth authorization server on loopback (oidc-provider in its own process), protected-resource metadata
// documents, a browser stand-in for sign-ins, and the egress lib's pinned fetch set up for loopback (decision 0057).
export {
  followSignIn,
  LoopbackDocuments,
  loopbackPinnedFetch,
  OidcProviderProcess,
} from './oauth/oauth-test.harness';
export type { ProviderClient, ProviderStats } from './oauth/oauth-test.harness';
// A process that takes a refresh lock and holds it until it is killed (the "holder killed before sending").
export { startLockHolderProcess } from './oauth/lock-holder-process';
// Real MCP servers and plumbing for the gateway's acceptance specs (docs/architecture/testing.md): an
// in-process SDK server over Streamable HTTP, the conformance suite's scenario upstream, a forwarder that
// adds a bearer token, and a stdio tap that records what one child was sent (and can hold a call's answer so
// it can be cancelled in flight).
export { startStreamableHttpUpstream } from './mcp/streamable-http-upstream';
export type { ConnectableMcpServer, StreamableHttpUpstream } from './mcp/streamable-http-upstream';
export { conformanceScenarioServer } from './mcp/conformance-scenario-server';
export { bearerDigestOf, startTokenRefusingUpstream } from './mcp/token-refusing-upstream';
export type { TokenRefusingUpstream, TokenRefusingUpstreamOptions } from './mcp/token-refusing-upstream';
export { startBearerForwarder } from './mcp/bearer-forwarder';
export { VERSION_REFUSING_SERVER, upstreamWordsOf } from './mcp/version-refusing-server';
export type { BearerForwarder } from './mcp/bearer-forwarder';
// The API-side steps of an end-to-end spec (REST as a token holder, HostPolicy, definitions, approve, discover as
// the worker does) against the API a spec started, and a spec's own queue and Redis key namespaces (decision 0121).
export { createApiSteps, httpApi } from './api/api-steps';
export { testApiEnv, testNamespaces } from './api/test-api-env';
export type { TestNamespaces } from './api/test-api-env';
export type { ApiAnswer, ApiApproval, ApiMethod, ApiSteps, ApiStepsOptions } from './api/api-steps';
export { readLines, readTap, STDIO_TAP_SCRIPT, waitForLine, waitForTap } from './stdio-tap/stdio-tap';
export type { TappedMessage } from './stdio-tap/stdio-tap';
// Programs fetched into npm's cache rather than installed (they need Node 22, or are too heavy for
// node_modules): Node 22 itself, and the MCP Inspector 2.x's CLI run on it.
export { node22 } from './cached-programs/node22';
export { runProgram } from './cached-programs/program-run';
export type { ProgramRun } from './cached-programs/program-run';
export {
  INSPECTOR_PACKAGE,
  inspectorLauncher,
  runInspectorCli,
} from './cached-programs/inspector-cli.harness';
export type {
  InspectorCliOptions,
  InspectorCliRun,
  InspectorProtocolEra,
} from './cached-programs/inspector-cli.harness';
