import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VERSION_REFUSING_SERVER, upstreamWordsOf } from '@gatehouse/testing';
import type { Browser, Page } from 'playwright-core';
import {
  allowOnlyStdioCommand,
  apiSession,
  expectStatus,
  mintWorkerToken,
  reviewAndApprove,
  type ApiSession,
} from './api-steps.harness';
import {
  expectNoHorizontalOverflow,
  launchBrowser,
  newTestContext,
  screenshot,
  seriousA11yViolations,
  signInInBrowser,
} from './browser.harness';
import { startDashboardStack, type DashboardStack } from './dashboard-stack.harness';
import { startWorker } from './worker-process.harness';

// Why a server is not discovered, in a real browser against real processes (decision 0142): the built API and
// worker, Postgres, Redis, and a stdio upstream that refuses every protocol version we speak. After the approval
// the worker's discovery fails, the worker reports it for its lease, and the server's page, the servers list and
// the overview say why, in the API's fixed words; the upstream's own error text appears nowhere.

const SETUP_TIMEOUT_MS = 300_000;
const FLOW_TIMEOUT_MS = 180_000;
const PHONE = { width: 390, height: 844 };
const POOL = 'catalog';
const MARKER = `upstream-words-${randomBytes(6).toString('hex')}`;
const REFUSING = [process.execPath, VERSION_REFUSING_SERVER, MARKER];
/** What the upstream says in its refusal: never on a page (the marker itself is in its argv, which pages show). */
const UPSTREAM_WORDS = upstreamWordsOf(MARKER);
const WHY = 'protocol_version_refused: the server refused every protocol version we speak';

let stack: DashboardStack;
let browser: Browser;
let page: Page;
let mobile: Page;
let api: ApiSession;
let workspaceId = '';
const roots = mkdtempSync(join(tmpdir(), 'gh-e2e-refusing-'));

/** Long-polls the owner's catalog (ETag + ?wait=) until the server carries a discovery failure. */
async function awaitFailure(serverName: string): Promise<Record<string, unknown>> {
  let etag: string | null = null;
  let last: unknown = null;
  for (let round = 0; round < 12; round += 1) {
    const answer = await api.call(
      'GET',
      `/v1/workspaces/${workspaceId}/catalog${etag === null ? '' : '?wait=20'}`,
      undefined,
      etag === null ? {} : { 'if-none-match': etag },
    );
    if (answer.status === 200) {
      const servers = (answer.body as { servers: Record<string, unknown>[] }).servers;
      last = servers;
      etag = answer.etag;
      const server = servers.find((s) => s.name === serverName);
      if (server?.discoveryFailure !== undefined) return server;
    } else {
      expect(answer.status).toBe(304);
    }
  }
  throw new Error(`no discovery failure was reported: ${JSON.stringify(last)}\n${stack.logs()}`);
}

beforeAll(async () => {
  stack = await startDashboardStack({
    pools: {
      // Sorts before `default`: catalog routing takes the first pool (by name) that fits.
      [POOL]: { tenants: '*', stdio: true, commandCeiling: [REFUSING], allowedRoots: [roots] },
    },
  });
  api = await apiSession(stack, stack.owner);
  workspaceId = (
    await expectStatus<{ id: string }>(
      api.call('POST', '/v1/workspaces', {
        name: 'refusing-space',
        repositoryIdentity: 'github.com/acme/refusing',
      }),
      201,
    )
  ).id;
  await allowOnlyStdioCommand(api, REFUSING);
  await expectStatus(
    api.call('PUT', '/v1/definition-sources', {
      tier: 'managed',
      name: 'refusing',
      document: {
        mcpServers: {
          legacy: { type: 'stdio', command: process.execPath, args: REFUSING.slice(1) },
        },
      },
    }),
    200,
  );
  await startWorker(stack, { token: await mintWorkerToken(api, 'worker discovery', POOL), pool: POOL });
  await reviewAndApprove(api, workspaceId, 'legacy');
  await awaitFailure('legacy');
  browser = await launchBrowser();
  page = await (await newTestContext(browser)).newPage();
  await signInInBrowser(page, stack.dashboardUrl, stack.owner);
  mobile = await (await newTestContext(browser, PHONE)).newPage();
  await signInInBrowser(mobile, stack.dashboardUrl, stack.owner);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  rmSync(roots, { recursive: true, force: true });
}, 60_000);

async function open(target: Page, path: string): Promise<void> {
  await target.goto(`${stack.dashboardUrl}${path}`);
  await target.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
}

async function expectAccessible(target: Page, label: string): Promise<void> {
  const violations = await seriousA11yViolations(target);
  expect({ page: label, violations }).toEqual({ page: label, violations: [] });
}

describe('a server whose discovery failed', () => {
  it(
    'shows why on its page: the reason word, its sentence, the class and when, never the upstream’s words',
    async () => {
      await open(page, `/servers/${workspaceId}/server/legacy?view=principal`);
      const panel = page.locator('#server-catalog');
      await panel.getByText('Discovery failed').first().waitFor();
      const why = panel.getByRole('listitem').filter({ hasText: 'Why:' });
      await expect(why.innerText()).resolves.toContain(`Why: ${WHY} (class protocol, reported`);
      await expect(why.locator('time').getAttribute('datetime')).resolves.toMatch(/^\d{4}-\d\d-\d\dT/);
      await expect(page.locator('body').innerText()).resolves.not.toContain(UPSTREAM_WORDS);
      await expectAccessible(page, 'server page with a discovery failure');
      await screenshot(page, 'server-discovery-failed');

      await open(mobile, `/servers/${workspaceId}/server/legacy?view=principal`);
      await mobile.locator('#server-catalog').getByText('Discovery failed').first().waitFor();
      await expectNoHorizontalOverflow(mobile, 'server page with a discovery failure at 390 px');
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'is marked on the servers list and named with its reason on the overview',
    async () => {
      await open(page, `/servers/${workspaceId}`);
      await page
        .getByRole('row')
        .filter({ hasText: 'legacy' })
        .first()
        .getByText('Discovery failed')
        .waitFor();

      await open(page, '/overview');
      const attention = page.locator('#needs-attention');
      await attention.getByText('legacy in refusing-space: discovery failed').waitFor();
      await attention.getByText(`Why: ${WHY}.`).waitFor();
      await expect(page.locator('body').innerText()).resolves.not.toContain(UPSTREAM_WORDS);
      await expectAccessible(page, 'overview with a discovery failure');
    },
    FLOW_TIMEOUT_MS,
  );
});
