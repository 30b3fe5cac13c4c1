// The official MCP conformance suite's client auth scenarios against our conformance client (upstream
// OAuth's acceptance; docs/conformance.md): 0.1.16's whole auth suite, and the iss-* and
// authorization-server-migration scenarios of 0.2.0-alpha.12. Each run passes only when every scenario passes
// except those listed in scripts/conformance/expected-failures.yml, and every listed one still fails.
import { missingPrerequisites, runClientSuite, type SuiteRun } from './conformance-suite.harness';

const SUITE_TIMEOUT_MS = 240_000;

// The 2026-07-28 scenarios are run at 2025-11-25 (`--force`): the client speaks the SDK 1.32 generation
// (2025-11-25), whose initialize a 2026 scenario server refuses with 400. The checks under test (iss, re-
// registration after an issuer change) are the authorization's, the same on both wires.
const NEXT_SCENARIOS = [
  'auth/iss-supported',
  'auth/iss-not-advertised',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/authorization-server-migration',
];

const verdict = (run: SuiteRun): { exitCode: number | null; report: string } => ({
  exitCode: run.exitCode,
  report: run.exitCode === 0 ? '' : run.output.slice(-6_000),
});

describe('MCP conformance suite: client auth scenarios', () => {
  beforeAll(() => {
    expect(missingPrerequisites()).toEqual([]);
  });

  it(
    '0.1.16: conformance client --suite auth',
    async () => {
      const run = await runClientSuite('0.1.16', ['--suite', 'auth']);
      expect(verdict(run)).toEqual({ exitCode: 0, report: '' });
      expect(run.output).toContain('SUITE SUMMARY');
    },
    SUITE_TIMEOUT_MS,
  );

  it.each(NEXT_SCENARIOS)(
    '0.2.0-alpha.12: %s',
    async (scenario) => {
      const run = await runClientSuite('0.2.0-alpha.12', [
        '--scenario',
        scenario,
        '--spec-version',
        '2025-11-25',
        '--force',
      ]);
      expect(verdict(run)).toEqual({ exitCode: 0, report: '' });
    },
    SUITE_TIMEOUT_MS,
  );
});
