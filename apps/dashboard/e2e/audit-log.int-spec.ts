import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiSession, approveOpenRequest } from './api-steps.harness';
import {
  expectNoHorizontalOverflow,
  launchBrowser,
  newTestContext,
  screenshot,
  seriousA11yViolations,
  signInInBrowser,
} from './browser.harness';
import { startDashboardStack, type DashboardStack } from './dashboard-stack.harness';

// The audit log (decision 0092) in a real browser against the real API: every row has a readable label and
// names its target (the server, the decision, the expiry), opens with the keyboard to its detail (the
// decision reason included), filters by action family and target kind in the URL, shows a failed sign-in,
// exports the filtered log as CSV and JSON lines through the dashboard, and fits a 390 px screen. The scene
// is set through the API; every assertion is on what the dashboard shows or serves.

const SETUP_TIMEOUT_MS = 300_000;
const FLOW_TIMEOUT_MS = 180_000;
const REVOKE_REASON = 'Superseded by the vendor’s hosted server';

let stack: DashboardStack;
let browser: Browser;
let context: BrowserContext;
let page: Page;

/** A workspace with one server, approved and then revoked with a reason, a variable set, a failed sign-in. */
async function setTheScene(): Promise<void> {
  const api = await apiSession(stack, stack.owner);
  const created = await api.call('POST', '/v1/workspaces', { name: 'audited' });
  expect(created.status).toBe(201);
  const workspaceId = (created.body as { id: string }).id;
  expect((await api.call('PUT', `/v1/workspaces/${workspaceId}/trust`, { trusted: true })).status).toBe(200);
  const written = await api.call('PUT', '/v1/definition-sources', {
    tier: 'project',
    workspaceId,
    document: { mcpServers: { tickets: { type: 'http', url: 'https://tickets.acme.test/mcp' } } },
  });
  expect(written.status).toBe(200);
  await approveOpenRequest(api, workspaceId, 'tickets', 'Reviewed with the platform team.');
  const approvals = await api.call('GET', `/v1/approvals?workspaceId=${workspaceId}`);
  const approval = (approvals.body as { items: { id: string }[] }).items[0];
  if (approval === undefined) throw new Error('no approval for tickets');
  const revoked = await api.call('POST', `/v1/approvals/${approval.id}/revoke`, { reason: REVOKE_REASON });
  expect(revoked.status).toBe(200);
  const failed = await fetch(`${stack.apiUrl}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: stack.member.email, password: 'not-the-password' }),
  });
  expect(failed.status).toBe(401);
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

async function expectAccessible(label: string): Promise<void> {
  const violations = await seriousA11yViolations(page);
  expect({ page: label, violations }).toEqual({ page: label, violations: [] });
}

// A refused row's label is followed by its outcome badge in the same line, so the label is matched as a start.
const auditRow = (label: string) =>
  page.locator('tbody tr', { has: page.getByText(new RegExp(`^${label}( |$)`)) });

describe('an audit log worth reading', () => {
  it(
    'labels rows, names their target and opens a row to its detail with the keyboard, the reason in it',
    async () => {
      await open('/audit?targetKind=approval');
      const revoked = auditRow('Revoked an approval');
      await revoked.waitFor();
      await revoked.getByText(/approval tickets/).waitFor();
      const decided = auditRow('Decided an approval request');
      await decided.getByText(/approval request tickets · approved · fingerprint /).waitFor();
      await expect(page.getByText('Invited someone').count()).resolves.toBe(0);

      const summary = revoked.getByText('Details', { exact: false });
      await summary.focus();
      await page.keyboard.press('Enter');
      await revoked.getByText(REVOKE_REASON).waitFor();
      await expectAccessible('audit log, a row opened');
      await screenshot(page, 'audit-detail');
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'filters by action family through the form, in the URL, and shows a failed sign-in',
    async () => {
      await open('/audit');
      await page.getByLabel('Action', { exact: true }).fill('definitions');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL((address) => address.searchParams.get('action') === 'definitions');
      await auditRow('Saved a definition source').waitFor();
      const codes = await page.locator('tbody tr code.muted').allTextContents();
      expect(codes.length).toBeGreaterThan(0);
      expect(codes.filter((code) => code.startsWith('definitions.'))).toEqual(codes.filter(Boolean));

      await open('/audit?action=auth');
      const failed = auditRow('Failed to sign in');
      await failed.waitFor();
      await failed.getByText('denied').first().waitFor();
      await expectAccessible('audit log filtered to sign-ins');
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'exports the filtered log as CSV and JSON lines through the dashboard',
    async () => {
      await open('/audit?targetKind=approval');
      const csvHref = await page.getByRole('link', { name: 'CSV' }).getAttribute('href');
      expect(csvHref).toBe('/audit/export?format=csv&targetKind=approval');
      const csv = await context.request.get(`${stack.dashboardUrl}${csvHref}`);
      expect(csv.status()).toBe(200);
      expect(csv.headers()['content-type']).toContain('text/csv');
      const lines = (await csv.text()).split('\r\n').filter((line) => line !== '');
      expect(lines[0]).toMatch(/^"seq","occurredAt",/);
      expect(lines.some((line) => line.includes('"Revoked an approval"'))).toBe(true);
      expect(lines.slice(1).every((line) => line.includes('"approvals.'))).toBe(true);

      const jsonl = await context.request.get(
        `${stack.dashboardUrl}/audit/export?format=jsonl&action=approvals.revoked`,
      );
      expect(jsonl.status()).toBe(200);
      const rows = (await jsonl.text())
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { action: string; label: string; data: { reason?: string } });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ action: 'approvals.revoked', label: 'Revoked an approval' });
      expect(rows[0]?.data.reason).toBe(REVOKE_REASON);
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'fits a 390 px screen with a row opened',
    async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await open('/audit');
      await auditRow('Revoked an approval').waitFor();
      const summary = auditRow('Revoked an approval').getByText('Details', { exact: false });
      await summary.click();
      await auditRow('Revoked an approval').getByText(REVOKE_REASON).waitFor();
      await expectNoHorizontalOverflow(page, 'audit log at 390 px');
      await expectAccessible('audit log at 390 px');
      await screenshot(page, 'audit-mobile');
    },
    FLOW_TIMEOUT_MS,
  );
});
