import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiSession, approveOpenRequest, openRequests, type ApiSession } from './api-steps.harness';
import { launchBrowser, newTestContext, screenshot, signInInBrowser } from './browser.harness';
import { startDashboardStack, type DashboardStack } from './dashboard-stack.harness';

// Keys are never hidden, only values, in a real browser against the real API: an env key that looks like a
// credential (`npm_config_node_options`, which runs code through npm; a `ghp_`-shaped name) is named in the
// approval review with its change mark and in the source editor's form, and a save from the editor keeps the
// stored values under those keys. No value ever reaches the page.

const SETUP_TIMEOUT_MS = 300_000;
const FLOW_TIMEOUT_MS = 180_000;

const NPM_KEY = 'npm_config_node_options';
const TOKEN_KEY = 'ghp_0123456789abcdefABCDEF0123456789abcd';
const canary = `cnry${Date.now().toString(36)}KeysShown`;
const importValue = `--import=data:text/javascript,${canary}`;

const runner = (env: Record<string, string>) => ({
  type: 'stdio',
  command: 'npx',
  args: ['-y', '@acme/runner-mcp'],
  env,
});
const changedEnv = { LOG_LEVEL: 'info', [NPM_KEY]: importValue, [TOKEN_KEY]: `${canary}-token` };

let stack: DashboardStack;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let api: ApiSession;
let workspaceId = '';
let requestId = '';

/** A trusted workspace whose approved runner gains npm_config_node_options and a ghp_-shaped key. */
async function setTheScene(): Promise<void> {
  api = await apiSession(stack, stack.owner);
  const created = await api.call('POST', '/v1/workspaces', { name: 'keys-shown' });
  expect(created.status).toBe(201);
  workspaceId = (created.body as { id: string }).id;
  expect((await api.call('PUT', `/v1/workspaces/${workspaceId}/trust`, { trusted: true })).status).toBe(200);
  const first = await api.call('PUT', '/v1/definition-sources', {
    tier: 'project',
    workspaceId,
    document: { mcpServers: { runner: runner({ LOG_LEVEL: 'info' }) } },
  });
  expect(first.status).toBe(200);
  await approveOpenRequest(api, workspaceId, 'runner');
  const second = await api.call('PUT', '/v1/definition-sources', {
    tier: 'project',
    workspaceId,
    expectedVersion: 1,
    document: { mcpServers: { runner: runner(changedEnv) } },
  });
  expect(second.status).toBe(200);
  const request = (await openRequests(api, workspaceId)).find(
    (item) => item.identity.serverName === 'runner',
  );
  requestId = request?.id ?? '';
  expect(requestId).not.toBe('');
}

beforeAll(async () => {
  stack = await startDashboardStack();
  await setTheScene();
  browser = await launchBrowser();
  context = await newTestContext(browser);
  page = await context.newPage();
  await signInInBrowser(page, stack.dashboardUrl, stack.owner);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
}, 60_000);

async function open(path: string): Promise<void> {
  await page.goto(`${stack.dashboardUrl}${path}`);
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
}

describe('env keys shown by name, values never', () => {
  it(
    'the approval review names npm_config_node_options and the token-shaped key, marked added',
    async () => {
      await open(`/approvals/${requestId}`);
      const review = page.locator('#request-projection [data-projection="reviewed"]');
      await review.waitFor();
      const marks = Object.fromEntries(
        await review
          .locator('[data-key-mark]')
          .evaluateAll((items) =>
            items.map((item) => [
              item.querySelector('code')?.textContent ?? '',
              item.getAttribute('data-key-mark'),
            ]),
          ),
      );
      expect(marks).toEqual({ LOG_LEVEL: 'same', [NPM_KEY]: 'added', [TOKEN_KEY]: 'added' });
      const content = await page.content();
      expect(content).not.toContain(canary);
      expect(content).not.toContain('[REDACTED');
      await screenshot(page, 'approval-review-keys-shown');
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'the source editor shows each key by name with its value as the placeholder, and a save keeps the values',
    async () => {
      await open(`/servers/${workspaceId}/sources`);
      await page.getByRole('button', { name: 'Edit runner' }).click();
      const keys = await Promise.all(
        [1, 2, 3].map((n) => page.getByLabel(`Variable ${n}`, { exact: true }).inputValue()),
      );
      expect(keys).toEqual(['LOG_LEVEL', NPM_KEY, TOKEN_KEY]);
      await expect(page.getByLabel(`Value of ${NPM_KEY}`).inputValue()).resolves.toBe('[REDACTED]');
      await expect(page.getByLabel(`Value of ${TOKEN_KEY}`).inputValue()).resolves.toBe('[REDACTED]');
      expect(await page.content()).not.toContain(canary);
      await screenshot(page, 'source-editor-keys-shown');

      await page.getByLabel('Value of LOG_LEVEL').fill('debug');
      await page.getByRole('button', { name: 'Apply to document' }).click();
      await page.getByRole('button', { name: 'Preview changes' }).click();
      await page.locator('#save-preview').waitFor();
      await page.getByRole('button', { name: 'Save source' }).click();
      await page.getByText(/as version 3: 1 server\./).waitFor();

      // The stored values were kept under their keys: the document with them as written is what is stored now.
      const same = await api.call('POST', '/v1/definition-sources/preview', {
        tier: 'project',
        workspaceId,
        expectedVersion: 3,
        document: { mcpServers: { runner: runner({ ...changedEnv, LOG_LEVEL: 'debug' }) } },
      });
      expect(same).toMatchObject({ status: 200, body: { nextVersion: null } });
    },
    FLOW_TIMEOUT_MS,
  );
});
