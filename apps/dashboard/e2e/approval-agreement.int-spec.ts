import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiSession, approveOpenRequest, openRequests } from './api-steps.harness';
import {
  launchBrowser,
  newTestContext,
  screenshot,
  seriousA11yViolations,
  signInInBrowser,
} from './browser.harness';
import { startDashboardStack, type DashboardStack } from './dashboard-stack.harness';

// Approval statuses (docs/architecture/approvals.md) in a real browser against the real API: statuses that
// agree (approved but not admissible, disabled with the approval beneath its overlay and the overlay's
// reason, no four-eyes banner while four-eyes is off), requests that name their cause and withdraw
// themselves, and reasons on decisions (a denial needs one, shown on the request and in the history; the way
// back after a denial is named for what it does). The scene is set through the API; every assertion is on
// what the dashboard shows.

const SETUP_TIMEOUT_MS = 300_000;
const FLOW_TIMEOUT_MS = 180_000;

let stack: DashboardStack;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let workspaceId = '';
let localToolRequestId = '';

/**
 * A trusted workspace: local-tool (stdio, approved, but the host policy allows no stdio command, so no pool may
 * run it), paused (approved, then disabled with a reason), repo and notes (each reads a variable nobody set).
 */
async function setTheScene(): Promise<void> {
  const api = await apiSession(stack, stack.owner);
  const created = await api.call('POST', '/v1/workspaces', { name: 'agreement' });
  expect(created.status).toBe(201);
  workspaceId = (created.body as { id: string }).id;
  expect((await api.call('PUT', `/v1/workspaces/${workspaceId}/trust`, { trusted: true })).status).toBe(200);
  const written = await api.call('PUT', '/v1/definition-sources', {
    tier: 'project',
    workspaceId,
    document: {
      mcpServers: {
        'local-tool': { type: 'stdio', command: 'npx', args: ['-y', '@acme/local-mcp'] },
        paused: { type: 'http', url: 'https://paused.acme.test/mcp' },
        repo: { type: 'stdio', command: 'npx', args: ['-y', '@acme/repo-mcp', '${REPO_DIR}'] },
        notes: { type: 'stdio', command: 'npx', args: ['-y', '@acme/notes-mcp', '${NOTES_DIR}'] },
      },
    },
  });
  expect(written.status).toBe(200);
  localToolRequestId = await approveOpenRequest(
    api,
    workspaceId,
    'local-tool',
    'Reviewed with the platform team.',
  );
  await approveOpenRequest(api, workspaceId, 'paused', 'Fine to run.');
  const disabled = await api.call('PUT', `/v1/workspaces/${workspaceId}/disabled-servers/paused`, {
    scope: 'workspace',
    reason: 'Paused for the security audit',
  });
  expect(disabled.status).toBe(200);
  // The owner's own variables: repo and notes now resolve for them alone (per-user requests).
  for (const name of ['REPO_DIR', 'NOTES_DIR']) {
    const set = await api.call('PUT', `/v1/definition-variables/${name}`, {
      scope: 'user',
      value: `/home/olivia/${name.toLowerCase()}`,
    });
    expect(set.status).toBe(200);
  }
  // notes: unset again, so its request's identity is gone and the request withdraws itself.
  const unset = await api.call('DELETE', `/v1/definition-variables/NOTES_DIR?scope=user`);
  expect(unset.status).toBe(200);
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

async function expectAccessible(label: string, within?: string): Promise<void> {
  const violations = await seriousA11yViolations(page, within);
  expect({ page: label, violations }).toEqual({ page: label, violations: [] });
}

function row(serverName: string) {
  return page.locator('tbody tr', { has: page.getByRole('link', { name: serverName, exact: true }) });
}

describe('statuses that agree, requests without duplicates, reasons on decisions', () => {
  it(
    'says which approved servers can never run, and shows a disabled server with its approval and reason',
    async () => {
      await open(`/servers/${workspaceId}`);
      const local = row('local-tool');
      await local.locator('[data-admissible="false"]').waitFor();
      await local
        .getByText('Approved but not admissible: its command is not in the host policy’s allowed commands')
        .waitFor();
      const paused = row('paused');
      await paused.getByText('Disabled', { exact: true }).waitFor();
      await paused.getByText('Approved', { exact: true }).waitFor();
      await paused.getByText('Why disabled: “Paused for the security audit”').waitFor();
      await expect(paused.getByText('Nothing exact to approve').count()).resolves.toBe(0);
      await expectAccessible('servers with statuses that agree');
      await screenshot(page, 'servers-statuses-agree');

      await open(`/servers/${workspaceId}/server/local-tool`);
      await page
        .getByText('Approved but not admissible: its command is not in the host policy’s allowed commands')
        .first()
        .waitFor();
      await expectAccessible('server page, not admissible');

      await open(`/approvals/${localToolRequestId}`);
      const callout = page.getByText(
        'Approved but not admissible: its command is not in the host policy’s allowed commands.',
      );
      await callout.waitFor();
      await page.getByText('Reviewed with the platform team.').waitFor();
      await expectAccessible('approval screen, not admissible');
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'names the personal variable that opened a request, shows no four-eyes banner while it is off, and a withdrawn request as withdrawn',
    async () => {
      await open('/approvals');
      const repo = page.locator('article[data-request-id]', {
        has: page.getByRole('heading', { level: 2, name: 'repo', exact: true }),
      });
      await repo.first().waitFor();
      // One request for repo (the owner's own), none for notes (its identity is gone).
      const notes = page.locator('article[data-request-id]', {
        has: page.getByRole('heading', { level: 2, name: 'notes', exact: true }),
      });
      await expect(notes.count()).resolves.toBe(0);
      await expect(repo.count()).resolves.toBe(1);
      await repo.getByText('Personal variable REPO_DIR set').first().waitFor();
      await expect(repo.textContent()).resolves.not.toContain('First review of this server');
      await expect(page.getByText('With four-eyes on, someone else must approve it.').count()).resolves.toBe(
        0,
      );

      await open('/approvals?show=closed');
      const closed = page.getByRole('table', { name: 'Closed requests' });
      const withdrawn = closed.locator('tbody tr', { hasText: 'notes' });
      await withdrawn.getByText('Withdrawn', { exact: true }).waitFor();
      await withdrawn.getByText('Personal variable NOTES_DIR set').waitFor();
      await withdrawn.getByRole('link', { name: 'notes' }).click();
      await page.getByText('What it was opened for no longer exists in its view').waitFor();
      await expect(page.getByRole('button', { name: 'Approve notes' }).count()).resolves.toBe(0);
      await expectAccessible('closed requests with a withdrawn one');
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'denies with a reason (keyboard only), shows it on the request and names the way back for what it does',
    async () => {
      const api = await apiSession(stack, stack.owner);
      const repo = (await openRequests(api, workspaceId)).find(
        (request) => request.identity.serverName === 'repo',
      );
      expect(repo).toBeDefined();
      await open(`/approvals/${repo?.id ?? ''}`);
      await page.getByText('Personal variable REPO_DIR set').first().waitFor();
      await page.getByRole('button', { name: 'Deny repo' }).focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('alertdialog');
      await dialog.waitFor();
      const reason = dialog.getByLabel('Why deny? (required)');
      // Focus starts on Cancel; Tab back to the reason field and type it.
      await reason.focus();
      await page.keyboard.type('The repo server may not read home directories.');
      await expectAccessible('deny dialog with a reason', '[role="alertdialog"]');
      await screenshot(page, 'deny-dialog-reason', { fullPage: false });
      await dialog.getByRole('button', { name: 'Deny repo' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/decided=1/);
      await page.getByText('The repo server may not read home directories.').waitFor();

      await open(`/servers/${workspaceId}?view=principal`);
      await row('repo')
        .getByRole('button', { name: 'Ask approvers to reconsider the denial for repo' })
        .waitFor();
      await expectAccessible('servers after a denial');
    },
    FLOW_TIMEOUT_MS,
  );
});
