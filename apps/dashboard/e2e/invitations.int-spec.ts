import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newTestContext, screenshot, seriousA11yViolations } from './browser.harness';
import { startDashboardStack, type DashboardStack } from './dashboard-stack.harness';

// Invitations in a real browser against the real API (decision 0030): an owner invites an address from the
// Members page and gets the link once; the invited person, not signed in and without an account, opens the
// link, creates their account through it and lands signed in to the tenant; a revoked invitation's link says
// it cannot be used.

const SETUP_TIMEOUT_MS = 300_000;
const FLOW_TIMEOUT_MS = 180_000;

let stack: DashboardStack;
let browser: Browser;

beforeAll(async () => {
  stack = await startDashboardStack();
  browser = await launchBrowser();
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
}, 60_000);

async function open(page: Page, path: string): Promise<void> {
  await page.goto(`${stack.dashboardUrl}${path}`);
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
}

async function expectAccessible(page: Page, label: string): Promise<void> {
  const violations = await seriousA11yViolations(page);
  expect({ page: label, violations }).toEqual({ page: label, violations: [] });
}

async function signInAsOwner(page: Page): Promise<void> {
  await open(page, '/sign-in');
  await page.getByLabel('Email').fill(stack.owner.email);
  await page.getByLabel('Password').fill(stack.owner.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/overview$/);
}

/** Invites `email` from the Members page; the link the page shows once. */
async function invite(page: Page, email: string, role: string): Promise<string> {
  await open(page, '/members');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Role').first().selectOption(role);
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  await page.locator('[data-invitation-created]').waitFor();
  return page.locator('#invitation-link').inputValue();
}

function pendingRow(page: Page, email: string) {
  return page.getByRole('table', { name: /Pending invitations/ }).locator('tbody tr', { hasText: email });
}

describe('invitations in a browser', () => {
  it(
    'an owner invites; the person creates their account through the link and is signed in to the tenant',
    async () => {
      const ownerContext = await newTestContext(browser);
      const ownerPage = await ownerContext.newPage();
      await signInAsOwner(ownerPage);
      const email = `invitee-${Date.now()}@example.test`;
      const link = await invite(ownerPage, email, 'approver');
      expect(link).toMatch(/\/invitation#ghi_[0-9A-Za-z]{43}$/);
      await open(ownerPage, '/members');
      await expect(pendingRow(ownerPage, email).count()).resolves.toBe(1);
      await expectAccessible(ownerPage, 'members with a pending invitation');
      await screenshot(ownerPage, 'members-invitations');

      const inviteeContext = await newTestContext(browser);
      const inviteePage = await inviteeContext.newPage();
      await inviteePage.goto(link);
      await inviteePage.locator('[data-invitation-preview]').waitFor();
      await expect(inviteePage.locator('main').innerText()).resolves.toContain(stack.tenant.name);
      await expectAccessible(inviteePage, 'invitation');
      await screenshot(inviteePage, 'invitation-accept');
      await inviteePage.getByLabel('Display name (only to create the account)').fill('Invited Person');
      await inviteePage.getByLabel('Password').fill('a long enough password for the test');
      await inviteePage.getByRole('button', { name: 'Accept and sign in' }).click();
      await inviteePage.waitForURL(/\/overview$/);

      // The invitation is spent: gone from the pending list, and its link cannot be used again.
      await open(ownerPage, '/members');
      await expect(pendingRow(ownerPage, email).count()).resolves.toBe(0);
      await expect(ownerPage.getByRole('table', { name: 'Members' }).innerText()).resolves.toContain(email);
      const again = await (await newTestContext(browser)).newPage();
      await again.goto(link);
      await again.getByText('This invitation cannot be used').waitFor();
      await ownerContext.close();
      await inviteeContext.close();
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'a revoked invitation leaves the pending list and its link stops working',
    async () => {
      const ownerContext = await newTestContext(browser);
      const ownerPage = await ownerContext.newPage();
      await signInAsOwner(ownerPage);
      const email = `revoked-${Date.now()}@example.test`;
      const link = await invite(ownerPage, email, 'member');
      await open(ownerPage, '/members');
      await pendingRow(ownerPage, email).getByRole('button', { name: 'Revoke' }).click();
      await ownerPage.getByRole('alertdialog').getByRole('button', { name: 'Revoke invitation' }).click();
      // The row goes with the refresh that follows the revocation (and its confirmation with it).
      await pendingRow(ownerPage, email).waitFor({ state: 'detached' });
      await open(ownerPage, '/members');
      await expect(pendingRow(ownerPage, email).count()).resolves.toBe(0);

      const visitor = await (await newTestContext(browser)).newPage();
      await visitor.goto(link);
      await visitor.getByText('This invitation cannot be used').waitFor();
      await ownerContext.close();
    },
    FLOW_TIMEOUT_MS,
  );
});
