// The official MCP conformance suite's SERVER scenarios at the 2026-07-28 revision (0.2.0-alpha.12,
// `--requirements 2026-07-28`: exactly the scenarios that revision requires, plus the extension and pending
// ones it runs without scoring) against the gateway, which serves 2026-07-28 clients statelessly in front of
// 2025 upstreams (decision 0144; docs/conformance.md). The scenario upstream (libs/testing's
// conformanceScenarioServer, an SDK 1.32 server) speaks 2025 only, so the suite runs twice: directly against
// the upstream, and through the per-server passthrough /mcp/w/:workspaceId/s/conformance fronting it. What
// passes directly must pass through; what fails through must be exactly the `server-2026:` list of
// expected-failures.yml. And dns-rebinding-protection at 2026-07-28 against the workspace endpoint. The suite
// connects without a token; a loopback forwarder adds the agent's (see conformance-server.int-spec.ts).
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
import { missingPrerequisites, runServerSuite, type ServerSuiteRun } from './conformance-suite.harness';
import { expectedFailures, suiteServerBaseline } from './expected-failures';
import {
  compareWithBaseline,
  failingCheckIds,
  passes,
  readScenarioResults,
  type ScenarioResults,
} from './scenario-results';

const SUITE_TIMEOUT_MS = 300_000;
const SERVER = 'conformance';
const REVISION = '2026-07-28';
const BASELINE = expectedFailures('server-2026');

let stack: GatewayStack;
let upstream: StreamableHttpUpstream;
let forwarder: BearerForwarder;

const verdict = (run: ServerSuiteRun): { exitCode: number | null; report: string } => ({
  exitCode: run.exitCode,
  report: run.exitCode === 0 ? '' : run.output.slice(-8_000),
});

function resultsOf(run: ServerSuiteRun): ScenarioResults {
  if (run.resultsDir === undefined) throw new Error('the suite was run without -o');
  return readScenarioResults(run.resultsDir);
}

/** Checks that pass directly (and never fail there) but fail through the gateway, as `scenario:check-id`. */
function checksLostThroughTheGateway(direct: ScenarioResults, through: ScenarioResults): string[] {
  const lost: string[] = [];
  for (const [scenario, checks] of direct) {
    const failedDirectly = failingCheckIds(checks);
    const failedThrough = failingCheckIds(through.get(scenario));
    for (const check of checks ?? [])
      if (check.status === 'SUCCESS' && !failedDirectly.has(check.id) && failedThrough.has(check.id))
        lost.push(`${scenario}:${check.id}`);
    if (!through.has(scenario)) lost.push(`${scenario} (not run through the gateway)`);
  }
  return lost;
}

beforeAll(async () => {
  expect(missingPrerequisites()).toEqual([]);
  stack = await startGatewayStack({ name: 'conformance-server-2026', stdioCommands: [] });
  upstream = await startStreamableHttpUpstream(conformanceScenarioServer);
  await stack.defineServers('admin', 'managed', {
    [SERVER]: { type: 'http', url: upstream.url, elicitation: true },
  });
  await stack.approve(SERVER);
  await stack.discoverAndSubmit(SERVER);
  // One suite run is some hundreds of requests within seconds under one token: never throttled here.
  const gateway = await stack.startGateway({
    RATE_LIMIT_PER_TOKEN: '100000',
    RATE_LIMIT_PER_WORKSPACE: '100000',
  });
  forwarder = await startBearerForwarder(gateway.url, stack.tokens.agent);
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await forwarder?.close();
  await stack?.close();
  await upstream?.close();
}, TEST_DATABASE_TIMEOUT_MS);

describe(`MCP conformance suite 0.2.0-alpha.12: server scenarios at --requirements ${REVISION}`, () => {
  let directRun: ServerSuiteRun;
  let throughRun: ServerSuiteRun;
  let direct: ScenarioResults;
  let through: ScenarioResults;

  beforeAll(async () => {
    // Directly: the upstream fails most 2026 checks by itself (it is a 2025 server); only the results are read.
    directRun = await runServerSuite(upstream.url, ['--requirements', REVISION], {
      version: '0.2.0-alpha.12',
      expectedFailures: null,
      keepResults: true,
    });
    // Through: the suite checks the scenarios the revision scores against the list itself.
    throughRun = await runServerSuite(
      `${forwarder.origin}/mcp/w/${stack.workspaceId}/s/${SERVER}`,
      ['--requirements', REVISION],
      { version: '0.2.0-alpha.12', expectedFailures: await suiteServerBaseline(BASELINE), keepResults: true },
    );
    direct = resultsOf(directRun);
    through = resultsOf(throughRun);
  }, 2 * SUITE_TIMEOUT_MS);

  it('runs the same scenarios both ways', () => {
    expect(directRun.output).toContain(`Running requirements ${REVISION}`);
    expect([...through.keys()].sort()).toEqual([...direct.keys()].sort());
    expect(through.size).toBeGreaterThan(0);
  });

  it('passes through the gateway every check and every scenario that passes directly', () => {
    expect(checksLostThroughTheGateway(direct, through)).toEqual([]);
    const scenariosLost = [...direct]
      .filter(([scenario, checks]) => passes(checks) && !passes(through.get(scenario)))
      .map(([scenario]) => scenario);
    expect(scenariosLost).toEqual([]);
  });

  it('fails through the gateway exactly the server-2026 list (every scenario run, scored or not)', () => {
    expect(compareWithBaseline(through, BASELINE)).toEqual({ unexpected: [], stale: [] });
  });

  it("passes the suite's own baseline check of the scored scenarios", () => {
    expect(verdict(throughRun)).toEqual({ exitCode: 0, report: '' });
    expect(throughRun.output).toContain('Baseline check passed');
  });

  it(
    `dns-rebinding-protection at ${REVISION} against the workspace endpoint`,
    async () => {
      const run = await runServerSuite(
        `${forwarder.origin}/mcp/w/${stack.workspaceId}`,
        ['--spec-version', REVISION, '--scenario', 'dns-rebinding-protection'],
        { version: '0.2.0-alpha.12', expectedFailures: null, keepResults: true },
      );
      expect(verdict(run)).toEqual({ exitCode: 0, report: '' });
      const results = resultsOf(run);
      expect([...results.keys()]).toEqual(['dns-rebinding-protection']);
      const checks = results.get('dns-rebinding-protection') ?? [];
      expect(passes(checks)).toBe(true);
      expect(checks.map((check) => check.id)).toContain('localhost-host-rebinding-rejected');
    },
    SUITE_TIMEOUT_MS,
  );
});
