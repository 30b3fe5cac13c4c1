// Public surface of @gatehouse/testing: real Postgres and Redis per test file, and quick fixtures.
export { createTestDatabase, TEST_DATABASE_TIMEOUT_MS } from './test-database';
export type { TestDatabase } from './test-database';
export { createTestRedisPrefix, testRedisUrl } from './test-redis';
export { readTestEnv } from './test-env';
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
