import { COMMANDS, defineCommand, type CommandDefinition } from '@gatehouse/commands';
import { insertGatewayToken } from '@gatehouse/db';
import { Module } from '@nestjs/common';
import { z } from 'zod';
import { mintTokenSecret } from '../auth/api-token-format';
import type { WorkerPools } from '../auth/pool-config';
import type { Principal } from '../auth/principal';
import type { UseCaseArgs } from './command-handler';
import { HandlesCommand } from './registry/handles-command-decorator';
import { callGraphQL, callRest, type CallResult, type Surface } from './testing/command-clients';
import {
  createMember,
  createSurfacesHarness,
  createTestTenant,
  mintTestToken,
  type SurfacesHarness,
} from './testing/surfaces-harness';

// Which credentials may call a command is part of its declaration (`callers`), and a worker or gateway token's
// pool is re-checked against the operator's current WORKER_POOLS on every call. Two throwaway commands, handled
// by use cases in a test module, prove discovery too: both surfaces serve them without any other wiring.

const callerView = z.object({ via: z.string(), pool: z.string().nullable() });

const platformPing = defineCommand({
  name: 'test.platformPing',
  summary: 'A throwaway command for worker and gateway tokens.',
  scope: 'leases:write',
  kind: 'query',
  callers: ['worker', 'gateway'],
  input: z.object({}).strict(),
  output: callerView,
  http: { method: 'GET', path: '/v1/test/platform-ping' },
  graphql: { field: 'testPlatformPing' },
});

const gatewayOnlyPing = defineCommand({
  name: 'test.gatewayPing',
  summary: 'A throwaway command for gateway tokens only.',
  scope: 'leases:write',
  kind: 'query',
  callers: ['gateway'],
  input: z.object({}).strict(),
  output: callerView,
  http: { method: 'GET', path: '/v1/test/gateway-ping' },
  graphql: { field: 'testGatewayPing' },
});

function viewOf(principal: Principal) {
  return { via: principal.via, pool: principal.pool ?? null };
}

@HandlesCommand(platformPing)
class PlatformPingUseCase {
  async execute({ principal }: UseCaseArgs<Record<string, never>, Principal>) {
    return viewOf(principal);
  }
}

@HandlesCommand(gatewayOnlyPing)
class GatewayPingUseCase {
  async execute({ principal }: UseCaseArgs<Record<string, never>, Principal>) {
    return viewOf(principal);
  }
}

@Module({ providers: [PlatformPingUseCase, GatewayPingUseCase] })
class PingTestModule {}

const COMMANDS_UNDER_TEST: readonly CommandDefinition[] = [...COMMANDS, platformPing, gatewayOnlyPing];
const listWorkspaces = COMMANDS.find((c) => c.name === 'workspaces.list') as CommandDefinition;

// The operator's config as the surfaces read it: a test removes a pool from it to show the check is per call.
const pools: Record<string, WorkerPools[string]> = { default: { tenants: '*' }, edge: { tenants: '*' } };

let h: SurfacesHarness;
let workerSecret: string;
let gatewaySecret: string;

beforeAll(async () => {
  h = await createSurfacesHarness({
    imports: [PingTestModule],
    commands: COMMANDS_UNDER_TEST,
    workerPools: pools,
  });
  const acme = await createTestTenant(h.db, { slug: 'acme' });
  const owner = await createMember(h.db, acme, 'owner');
  workerSecret = (
    await mintTestToken(h.db, acme, owner, { kind: 'worker', pool: 'default', scopes: ['leases:write'] })
  ).secret;
  const minted = mintTokenSecret('gateway');
  await insertGatewayToken({
    ownerUrl: h.testDb.ownerUrl,
    name: 'gw',
    scopes: ['leases:write', 'tokens:introspect'],
    pool: 'edge',
    secretHash: minted.secretHash,
    prefix: minted.prefix,
    expiresAt: null,
  });
  gatewaySecret = minted.secret;
});

afterAll(async () => {
  await h.close();
});

const call = (surface: Surface, command: CommandDefinition, token: string): Promise<CallResult> =>
  surface === 'rest' ? callRest(h.app, command, {}, token) : callGraphQL(h.app, command, {}, token);

describe.each<Surface>(['rest', 'graphql'])('declared callers over %s', (surface) => {
  it('lets a worker token and a gateway token call a command declared for them, with their pools', async () => {
    expect(await call(surface, platformPing, workerSecret)).toMatchObject({
      ok: true,
      output: { via: 'worker', pool: 'default' },
    });
    expect(await call(surface, platformPing, gatewaySecret)).toMatchObject({
      ok: true,
      output: { via: 'gateway', pool: 'edge' },
    });
  });

  it('refuses a worker token a command not declared for workers (typed 403)', async () => {
    expect(await call(surface, gatewayOnlyPing, workerSecret)).toMatchObject({
      ok: false,
      status: 403,
      code: 'forbidden_caller',
    });
    expect(await call(surface, gatewayOnlyPing, gatewaySecret)).toMatchObject({ ok: true });
  });

  it('refuses a gateway token a tenant command (typed 403)', async () => {
    expect(await call(surface, listWorkspaces, gatewaySecret)).toMatchObject({
      ok: false,
      status: 403,
      code: 'forbidden_caller',
    });
  });
});

describe('the pool is re-checked on every call', () => {
  it('refuses the tokens of a pool removed from WORKER_POOLS at once, on both surfaces', async () => {
    expect(await call('rest', platformPing, workerSecret)).toMatchObject({ ok: true });
    expect(await call('rest', platformPing, gatewaySecret)).toMatchObject({ ok: true });
    const removed = { default: pools.default, edge: pools.edge };
    delete pools.default;
    delete pools.edge;
    try {
      for (const surface of ['rest', 'graphql'] as const) {
        for (const secret of [workerSecret, gatewaySecret]) {
          expect(await call(surface, platformPing, secret)).toMatchObject({
            ok: false,
            status: 403,
            code: 'pool_not_open',
          });
        }
      }
    } finally {
      Object.assign(pools, removed);
    }
    expect(await call('graphql', platformPing, workerSecret)).toMatchObject({ ok: true });
  });
});
