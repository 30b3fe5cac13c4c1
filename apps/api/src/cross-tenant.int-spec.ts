import { Writable } from 'node:stream';
import { createDatabase, insertGatewayToken, type Database } from '@gatehouse/db';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  assertCrossTenantReport,
  collectRoutes,
  createTestDatabase,
  runCrossTenantHarness,
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type CollectedRoutes,
  type HarnessInject,
  type TestDatabase,
} from '@gatehouse/testing';
import { Module } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { mintTokenSecret } from './auth/api-token-format';
import { apiConfigSchema } from './config/api.config';
import { createApiApp } from './create-api-app';
import {
  graphqlCases,
  routeCases,
  seedCrossTenantWorld,
  signIn,
  victimMarkers,
  type CrossTenantWorld,
} from './cross-tenant.fixtures';
import { adminToolCases } from './mcp-admin/testing/admin-tool-cases';

// Every route the API actually registers, every GraphQL field and every admin-over-MCP tool it actually serves,
// attacked with tenant B's credentials at tenant A's ids (libs/testing/src/cross-tenant). A route, field or tool
// added without a case here fails this test (the tools' cases are their commands' REST cases).

jest.setTimeout(120_000);

let collected: CollectedRoutes | undefined;

/**
 * Installs the onRoute collector on the API's Fastify instance while Nest instantiates providers, which is
 * before any controller, command route, auth route or GraphQL route is registered.
 */
@Module({
  providers: [
    {
      provide: 'CROSS_TENANT_ROUTE_COLLECTOR',
      inject: [HttpAdapterHost],
      useFactory: (host: HttpAdapterHost) => {
        collected = collectRoutes(host.httpAdapter.getInstance<FastifyInstance>());
        return collected;
      },
    },
  ],
})
class RouteCollectorModule {}

let testDb: TestDatabase;
let db: Database;
let app: NestFastifyApplication;
let world: CrossTenantWorld;
let gatewaySecret: string;
let seededAt: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  world = await seedCrossTenantWorld(db);
  seededAt = new Date().toISOString();
  // A gateway token, as the operator's CLI makes one (owner connection): the gateway-only routes' credential.
  const minted = mintTokenSecret('gateway');
  await insertGatewayToken({
    ownerUrl: testDb.ownerUrl,
    name: 'cross-tenant gateway',
    scopes: ['tokens:introspect', 'leases:write'],
    pool: null,
    secretHash: minted.secretHash,
    prefix: minted.prefix,
    expiresAt: null,
  });
  gatewaySecret = minted.secret;
  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: testDb.appUrl,
    REDIS_URL: testRedisUrl(),
  });
  if (!parsed.ok) throw new Error(parsed.message);
  const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
  app = await createApiApp(parsed.config, {
    logger: createLogger({ name: 'cross-tenant', level: 'warn', destination: quiet }),
    imports: [RouteCollectorModule],
  });
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await app?.close();
  await db?.close();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

describe('cross-tenant harness over the whole API', () => {
  it("gives tenant B a 404 (or nothing of A's) on every route and GraphQL field, and covers them all", async () => {
    const inject: HarnessInject = async (request) => {
      const response = await app.inject({
        method: request.method as 'GET',
        url: request.url,
        headers: request.headers,
        ...(request.payload !== undefined ? { payload: request.payload } : {}),
      });
      return { statusCode: response.statusCode, body: response.body, headers: response.headers };
    };
    const sessions = { main: await signIn(inject, world.b), logout: await signIn(inject, world.b) };
    if (!collected) throw new Error('the route collector module was not instantiated');

    const lines: string[] = [];
    const cases = routeCases(world, sessions, gatewaySecret);
    const report = await runCrossTenantHarness({
      app: inject,
      routes: collected,
      attackerHeaders: { authorization: `Bearer ${world.b.token.secret}` },
      victimMarkers: victimMarkers(world.a),
      cases,
      graphql: { path: '/graphql', cases: graphqlCases(world, gatewaySecret) },
      mcp: {
        path: '/mcp/admin',
        cases: adminToolCases(cases, {
          overrides: {
            'workspaces.create': { name: 'bravo-mcp-new' },
            // Up to the seeding: both tenants' rows exist then, and B's own later rows name ids B sent at A.
            'audit.list': { to: seededAt },
          },
        }),
      },
      log: (line) => lines.push(line),
    });
    process.stdout.write(`${report.summary}\n`);
    assertCrossTenantReport(report);
    expect(report.routes.total).toBeGreaterThan(20);
    expect(report.fields.total).toBeGreaterThan(20);
    expect(report.tools.total).toBeGreaterThan(20);
    expect(lines).toEqual([report.summary]);
  });
});
