// The official MCP conformance suite's SERVER scenarios (0.1.16) against the gateway (the gateway's
// acceptance; docs/conformance.md): every server scenario (`--suite all`: the active ones and the two
// pending, json-schema-2020-12 and server-sse-polling) against the per-server passthrough
// /mcp/w/:workspaceId/s/:server fronting our scenario upstream (libs/testing's conformanceScenarioServer,
// over Streamable HTTP), and dns-rebinding-protection against the workspace endpoint /mcp/w/:workspaceId.
// Each run passes only when every scenario passes except those listed under `server:` in
// expected-failures.yml, and every listed one still fails. The suite connects without authentication; a
// loopback forwarder adds the agent's bearer token and changes nothing else (Host and Origin go through as
// the suite sent them).
import {
  conformanceScenarioServer,
  startBearerForwarder,
  startStreamableHttpUpstream,
  TEST_DATABASE_TIMEOUT_MS,
  type BearerForwarder,
  type StreamableHttpUpstream,
} from '@gatehouse/testing';
// The gateway's acceptance stack (the real API and the gateway app): a conformance run is an acceptance test.
import {
  startGatewayStack,
  type GatewayStack,
} from '../../apps/gateway/src/acceptance/gateway-stack.harness';
import { missingPrerequisites, runServerSuite, type SuiteRun } from './conformance-suite.harness';

const SUITE_TIMEOUT_MS = 300_000;
const SERVER = 'conformance';

let stack: GatewayStack;
let upstream: StreamableHttpUpstream;
let forwarder: BearerForwarder;

const verdict = (run: SuiteRun): { exitCode: number | null; report: string } => ({
  exitCode: run.exitCode,
  report: run.exitCode === 0 ? '' : run.output.slice(-8_000),
});

beforeAll(async () => {
  expect(missingPrerequisites()).toEqual([]);
  stack = await startGatewayStack({ name: 'conformance-server', stdioCommands: [] });
  upstream = await startStreamableHttpUpstream(conformanceScenarioServer);
  await stack.defineServers('admin', 'managed', {
    [SERVER]: { type: 'http', url: upstream.url, elicitation: true },
  });
  await stack.approve(SERVER);
  await stack.discoverAndSubmit(SERVER);
  const gateway = await stack.startGateway();
  forwarder = await startBearerForwarder(gateway.url, stack.tokens.agent);
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await forwarder?.close();
  await stack?.close();
  await upstream?.close();
}, TEST_DATABASE_TIMEOUT_MS);

describe('MCP conformance suite 0.1.16: server scenarios', () => {
  it(
    'dns-rebinding-protection against the workspace endpoint',
    async () => {
      const run = await runServerSuite(`${forwarder.origin}/mcp/w/${stack.workspaceId}`, [
        '--scenario',
        'dns-rebinding-protection',
      ]);
      expect(verdict(run)).toEqual({ exitCode: 0, report: '' });
      expect(run.output).toContain('localhost-host-rebinding-rejected');
    },
    SUITE_TIMEOUT_MS,
  );

  it(
    'every server scenario (--suite all) against the passthrough fronting the scenario upstream',
    async () => {
      const run = await runServerSuite(`${forwarder.origin}/mcp/w/${stack.workspaceId}/s/${SERVER}`, [
        '--suite',
        'all',
      ]);
      expect(verdict(run)).toEqual({ exitCode: 0, report: '' });
      expect(run.output).toContain('=== SUMMARY ===');
    },
    SUITE_TIMEOUT_MS,
  );
});
