import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newTestContext, screenshot, seriousA11yViolations } from './browser.harness';
import { apiSession, approveOpenRequest, openRequests } from './api-steps.harness';
import { startDashboardStack, type DashboardStack } from './dashboard-stack.harness';

// The workflows a platform team expects (docs/architecture/approvals.md), in a real browser against the real
// API: navigation that leads to Servers and Approvals (with the open-request count), a workspace page that
// leads to everything in it and shows its activity, sign-in that returns to the deep link; errors in people's
// words; the 390 px layout with no horizontal page scroll on any page; and a review that reads as what runs,
// decided with the keyboard alone. The workspace, its source and one approval are set up through the API (the
// dashboard's own editor has its tests in dashboard.int-spec.ts).

const SETUP_TIMEOUT_MS = 300_000;
const FLOW_TIMEOUT_MS = 180_000;
const PHONE = { width: 390, height: 844 };

let stack: DashboardStack;
let browser: Browser;
let owner: BrowserContext;
let page: Page;
let workspaceId = '';
/** The open request of deploy-tools after its second write: a diff against its approval. */
let changedRequestId = '';
const secret = `cnry${Date.now().toString(36)}LiteralKey9`;
const rotated = `cnry${Date.now().toString(36)}RotatedKey5`;

function documentWith(deployTools: Record<string, unknown>) {
  return {
    mcpServers: {
      'deploy-tools': { type: 'stdio', command: 'npx', ...deployTools },
      docs: {
        type: 'http',
        url: 'https://docs.acme.test/mcp',
        headers: { Authorization: `Bearer ${secret}` },
      },
    },
  };
}

/** A workspace, trusted, with a project source of two servers; deploy-tools approved, then changed. */
async function setTheScene(): Promise<void> {
  const api = await apiSession(stack, stack.owner);
  const created = await api.call('POST', '/v1/workspaces', {
    name: 'platform-core',
    repositoryIdentity: 'github.com/acme/platform',
  });
  expect(created.status).toBe(201);
  workspaceId = (created.body as { id: string }).id;
  expect((await api.call('PUT', `/v1/workspaces/${workspaceId}/trust`, { trusted: true })).status).toBe(200);
  const first = await api.call('PUT', '/v1/definition-sources', {
    tier: 'project',
    workspaceId,
    document: documentWith({
      args: ['-y', '@acme/deploy-mcp'],
      env: { API_KEY: secret, DEPLOY_TOKEN: '${DEPLOY_TOKEN:-none}', LOG_LEVEL: 'info' },
    }),
  });
  expect(first.status).toBe(200);
  await approveOpenRequest(api, workspaceId, 'deploy-tools');
  // The second write: another argument, LOG_LEVEL's value changed, DEPLOY_TOKEN gone, REGION new, a timeout;
  // API_KEY's secret rotated, which is no change to review (the fingerprint sees where a secret points).
  const second = await api.call('PUT', '/v1/definition-sources', {
    tier: 'project',
    workspaceId,
    expectedVersion: 1,
    document: documentWith({
      args: ['-y', '@acme/deploy-mcp', '--region', 'eu-west-2'],
      env: { API_KEY: rotated, LOG_LEVEL: 'debug', REGION: 'eu-west-2' },
      startupTimeoutMs: 20000,
    }),
  });
  expect(second.status).toBe(200);
  const changed = (await openRequests(api, workspaceId)).find(
    (request) => request.identity.serverName === 'deploy-tools',
  );
  expect(changed).toBeDefined();
  changedRequestId = changed?.id ?? '';
}

beforeAll(async () => {
  stack = await startDashboardStack();
  await setTheScene();
  browser = await launchBrowser();
  owner = await newTestContext(browser);
  await owner.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.dashboardUrl });
  page = await owner.newPage();
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
}, 60_000);

async function open(target: Page, path: string): Promise<void> {
  await target.goto(`${stack.dashboardUrl}${path}`);
  await target.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
}

async function expectAccessible(target: Page, label: string, within?: string): Promise<void> {
  const violations = await seriousA11yViolations(target, within);
  expect({ page: label, violations }).toEqual({ page: label, violations: [] });
}

/** How far the page scrolls sideways, with the widest offenders when it does (for the failure message). */
async function horizontalOverflow(target: Page): Promise<{ overflow: number; widest: string[] }> {
  return target.evaluate(() => {
    const overflow = document.documentElement.scrollWidth - window.innerWidth;
    const widest =
      overflow <= 0
        ? []
        : [...document.querySelectorAll('body *')]
            .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
            .slice(-5)
            .map((element) => {
              const box = element.getBoundingClientRect();
              return `${element.tagName.toLowerCase()}.${String(element.className).slice(0, 40)} right=${Math.round(box.right)}`;
            });
    return { overflow: Math.max(0, overflow), widest };
  });
}

describe('the workflows a platform team expects', () => {
  it(
    'returns to the deep link after sign-in',
    async () => {
      const requestPath = `/approvals/${changedRequestId}`;
      await page.goto(`${stack.dashboardUrl}${requestPath}`);
      await page.waitForURL((address) => address.pathname === '/sign-in');
      expect(new URL(page.url()).searchParams.get('next')).toBe(requestPath);
      await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
      await page.getByLabel('Email').fill(stack.owner.email);
      await page.getByLabel('Password').fill(stack.owner.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((address) => address.pathname === requestPath);
      await page.getByRole('heading', { level: 1, name: 'deploy-tools' }).waitFor();
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'leads with Servers and Approvals, counting the open requests, and the workspace page leads to what is in it',
    async () => {
      await open(page, '/overview');
      const nav = page.getByRole('navigation', { name: 'Main' });
      const links = await nav.getByRole('link').allTextContents();
      expect(links[0]).toBe('Servers');
      expect(links[1]).toMatch(/^Approvals/);
      // Two open requests: docs (first review) and deploy-tools (changed since its approval).
      await expect(nav.locator('[data-pending-count]').getAttribute('data-pending-count')).resolves.toBe('2');
      await nav.getByRole('link', { name: /^Approvals\W*2 pending$/ }).waitFor();

      await open(page, `/workspaces/${workspaceId}`);
      const here = page.getByRole('navigation', { name: 'In this workspace' });
      const expected: [string, RegExp][] = [
        ['Servers', new RegExp(`/servers/${workspaceId}$`)],
        ['Sources', new RegExp(`/servers/${workspaceId}/sources$`)],
        ['Variables', new RegExp(`/servers/${workspaceId}/variables$`)],
        ['Approvals', new RegExp(`/approvals\\?workspaceId=${workspaceId}$`)],
      ];
      for (const [name, address] of expected) {
        await open(page, `/workspaces/${workspaceId}`);
        await here.getByRole('link', { name: new RegExp(`^${name}`) }).click();
        await page.waitForURL(address);
      }
      await open(page, `/workspaces/${workspaceId}`);
      await expect(here.getByRole('link', { name: /^Approvals/ }).textContent()).resolves.toContain('2 open');
      await here.getByRole('link', { name: /^Activity/ }).click();
      await page.waitForURL(/#workspace-activity$/);

      // Its activity names the writes to what lives in it, not only to the workspace row.
      const activity = page.locator('#workspace-activity');
      await expect(activity.getByText('No activity yet').count()).resolves.toBe(0);
      const text = await activity.textContent();
      for (const action of [
        'definitions.sources.put',
        'approvals.requests.opened',
        'approvals.requests.decided',
      ]) {
        expect(text).toContain(action);
      }
      await expectAccessible(page, 'workspace with its links');
      await screenshot(page, 'workspace-links-light');
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'says what went wrong in words, with what to do, never validator text, field keys or a bare status',
    async () => {
      // A token without scopes: the API's validator refuses it; the person reads which field and what to do.
      await open(page, '/tokens/new');
      await page.getByLabel('Name', { exact: true }).fill('no-scopes');
      await page.getByRole('button', { name: 'Create token' }).click();
      const problem = page.locator('[data-problem-code="validation_failed"]');
      await problem.waitFor();
      const words = (await problem.textContent()) ?? '';
      expect(words).toContain('Scopes');
      expect(words).toMatch(/at least one/);
      expect(words).not.toMatch(/Too small|expected array|>=/);
      await problem.locator('[data-problem-next-step]').waitFor();
      await expectAccessible(page, 'token form with a refusal in words');
      await screenshot(page, 'errors-in-words-token-light');

      // The host policy names its field by label, not as `stdioCommands`.
      await open(page, '/settings/host-policy');
      await page.getByLabel('Stdio commands', { exact: true }).fill('["bash", "-c", "id"]');
      await page.getByRole('button', { name: 'Save host policy' }).click();
      const refused = page.locator('[data-problem-code="outside_operator_ceiling"]');
      await refused.waitFor();
      await expect(refused.textContent()).resolves.not.toContain('stdioCommands');
      await expect(refused.textContent()).resolves.toContain('Stdio commands');
      await refused.locator('[data-problem-next-step]').waitFor();

      // A variable name the API's router would refuse (over 100 characters) cannot be typed.
      await open(page, `/servers/${workspaceId}/variables`);
      const name = page.getByLabel('Name', { exact: true });
      await expect(name.getAttribute('maxlength')).resolves.toBe('100');
      await name.fill('');
      await name.pressSequentially('A'.repeat(101));
      await expect(name.inputValue()).resolves.toHaveLength(100);
      await page.getByLabel('Value', { exact: true }).fill('x');
      await page.getByRole('button', { name: 'Set variable' }).click();
      await page.getByText(`${'A'.repeat(100)} is set.`, { exact: false }).waitFor();
      // The words a person reads, not the HTML: a build's server-action ids are hex and may hold "414".
      expect(await page.locator('body').innerText()).not.toMatch(/Unexpected answer|\b414\b/);
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'shows the review as what runs, with changed keys marked, names for ids, and JSON one click away',
    async () => {
      await open(page, `/approvals/${changedRequestId}`);
      const review = page.locator('#request-projection [data-projection="reviewed"]');
      await review.waitFor();
      const text = (await review.textContent()) ?? '';
      expect(text).toContain('npx -y @acme/deploy-mcp --region eu-west-2');
      expect(text).toContain('Working directory');
      expect(text).toContain('Where it may run');
      expect(text).toContain('platform-core');
      expect(text).toContain('20,000 ms');
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
      expect(marks).toEqual({
        API_KEY: 'same',
        LOG_LEVEL: 'value_changed',
        REGION: 'added',
        DEPLOY_TOKEN: 'removed',
      });
      await expect(review.locator('[data-changed="true"]').count()).resolves.toBeGreaterThanOrEqual(2);

      // The JSON is one click away, and was not on screen before.
      const json = review.locator('[data-projection="json"]');
      await expect(json.isVisible()).resolves.toBe(false);
      await review.getByText('Show as JSON').click();
      await json.waitFor({ state: 'visible' });
      await expect(json.textContent()).resolves.toContain('"commandLine"');

      // The identity's ids with their names: the workspace, not only project:<uuid>.
      const identity = page.locator('#request-identity');
      await expect(identity.textContent()).resolves.toContain('Project · Workspace platform-core');
      await identity.getByRole('link', { name: 'platform-core' }).waitFor();
      await identity.getByRole('button', { name: 'Copy fingerprint' }).click();
      await identity.getByText('Copied.').waitFor();
      const fingerprint = await identity.locator('[data-long-value] code').first().textContent();
      await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(fingerprint);

      const html = await page.content();
      expect(html).not.toContain(secret);
      expect(html).not.toContain(rotated);
      await expectAccessible(page, 'request review');
      await screenshot(page, 'approval-review-light');

      // The queue's card reads the same way.
      await open(page, '/approvals');
      const card = page.locator(`article[data-request-id="${changedRequestId}"]`);
      await card
        .locator('[data-projection="reviewed"]')
        .getByText('npx -y @acme/deploy-mcp --region eu-west-2', { exact: true })
        .waitFor();
      await expect(card.textContent()).resolves.toContain('Workspace platform-core');
      await screenshot(page, 'approvals-queue-review-light');
    },
    FLOW_TIMEOUT_MS,
  );

  describe('at 390 px', () => {
    let phone: BrowserContext;
    let mobile: Page;

    beforeAll(async () => {
      phone = await newTestContext(browser, PHONE);
      await phone.addCookies(await owner.cookies());
      mobile = await phone.newPage();
    });

    afterAll(async () => {
      await phone?.close();
    });

    it(
      'collapses the navigation behind a Menu button, content first',
      async () => {
        await open(mobile, '/overview');
        const nav = mobile.getByRole('navigation', { name: 'Main' });
        await expect(nav.isVisible()).resolves.toBe(false);
        const heading = await mobile.locator('main h1').first().boundingBox();
        expect(heading?.y ?? Infinity).toBeLessThan(PHONE.height / 3);
        const menu = mobile.getByRole('button', { name: 'Menu' });
        await expect(menu.getAttribute('aria-expanded')).resolves.toBe('false');
        // Keyboard only: the skip link, then the brand, then Menu.
        await menu.focus();
        await mobile.keyboard.press('Enter');
        await nav.waitFor({ state: 'visible' });
        await expect(menu.getAttribute('aria-expanded')).resolves.toBe('true');
        await expectAccessible(mobile, 'mobile navigation open');
        await screenshot(mobile, 'mobile-navigation-open', { fullPage: false });
        await nav.getByRole('link', { name: /^Approvals/ }).click();
        await mobile.waitForURL(/\/approvals$/);
        await nav.waitFor({ state: 'hidden' });
      },
      FLOW_TIMEOUT_MS,
    );

    const PAGES: readonly { name: string; path: () => string }[] = [
      { name: 'overview', path: () => '/overview' },
      { name: 'servers', path: () => '/servers' },
      { name: 'servers-workspace', path: () => `/servers/${workspaceId}` },
      { name: 'server-detail', path: () => `/servers/${workspaceId}/server/deploy-tools` },
      { name: 'server-sources', path: () => `/servers/${workspaceId}/sources` },
      { name: 'server-variables', path: () => `/servers/${workspaceId}/variables` },
      { name: 'approvals', path: () => '/approvals' },
      { name: 'approval-request', path: () => `/approvals/${changedRequestId}` },
      { name: 'approvals-decisions', path: () => '/approvals?show=decisions' },
      { name: 'approvals-closed', path: () => '/approvals?show=closed' },
      { name: 'workspaces', path: () => '/workspaces' },
      { name: 'workspace', path: () => `/workspaces/${workspaceId}` },
      { name: 'workspace-new', path: () => '/workspaces/new' },
      { name: 'members', path: () => '/members' },
      { name: 'tokens', path: () => '/tokens' },
      { name: 'token-new', path: () => '/tokens/new' },
      { name: 'audit', path: () => '/audit' },
      { name: 'host-policy', path: () => '/settings/host-policy' },
      { name: 'connections', path: () => '/connections' },
      { name: 'gateway', path: () => '/gateway' },
      { name: 'catalog', path: () => '/catalog' },
    ];

    it.each(PAGES)(
      'shows $name without horizontal page scroll, accessible',
      async ({ name, path }) => {
        await open(mobile, path());
        await mobile.locator('h1').first().waitFor();
        const measured = await horizontalOverflow(mobile);
        expect({ page: name, ...measured }).toEqual({ page: name, overflow: 0, widest: [] });
        await expect(
          mobile.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        ).resolves.toBe(true);
        await expectAccessible(mobile, `${name} at 390 px`);
        await screenshot(mobile, `mobile-${name}`);
      },
      FLOW_TIMEOUT_MS,
    );

    it(
      'shows tables as lists: each row a card of labelled values',
      async () => {
        await open(mobile, '/audit');
        const table = mobile.getByRole('table', { name: 'Audit events' });
        await table.waitFor();
        const cell = table.locator('tbody tr').first().locator('td').first();
        await expect(cell.evaluate((element) => getComputedStyle(element).display)).resolves.toBe('grid');
        await expect(
          cell.evaluate((element) => getComputedStyle(element, '::before').content),
        ).resolves.not.toBe('none');
        const header = await table.locator('thead').boundingBox();
        expect(header?.height ?? 0).toBeLessThanOrEqual(1);
      },
      FLOW_TIMEOUT_MS,
    );

    it(
      'decides a request with the keyboard alone, in a dialog that fits the screen',
      async () => {
        await open(mobile, '/approvals');
        const card = mobile.locator(`article[data-request-id="${changedRequestId}"]`);
        const approve = card.getByRole('button', { name: 'Approve deploy-tools' });
        await approve.focus();
        await mobile.keyboard.press('Enter');
        const dialog = mobile.getByRole('alertdialog');
        await dialog.waitFor();
        // Focus starts on Cancel; Escape closes and returns focus to the trigger. Radix moves focus in an effect
        // after the dialog mounts and again after it unmounts, so each move is awaited, not read at once.
        const focusedText = () =>
          mobile.evaluate(() => document.activeElement?.textContent?.replace(/\s+/g, ' ').trim());
        const focusMovesTo = (text: string) =>
          mobile.waitForFunction(
            (expected) => document.activeElement?.textContent?.replace(/\s+/g, ' ').trim() === expected,
            text,
          );
        await focusMovesTo('Cancel').catch(() => undefined);
        await expect(focusedText()).resolves.toBe('Cancel');
        await mobile.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
        await focusMovesTo('Approve deploy-tools').catch(() => undefined);
        await expect(focusedText()).resolves.toBe('Approve deploy-tools');

        await mobile.keyboard.press('Enter');
        await dialog.waitFor();
        const box = await dialog.boundingBox();
        expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? Infinity) <= PHONE.width).toBe(true);
        await expectAccessible(mobile, 'decision dialog at 390 px', '[role="alertdialog"]');
        await screenshot(mobile, 'mobile-decision-dialog', { fullPage: false });
        // Tab order inside the dialog: the expiry choice, Cancel, the decision. Focus stays trapped inside.
        const order: string[] = [];
        for (let step = 0; step < 4; step += 1) {
          await mobile.keyboard.press('Tab');
          order.push(
            await mobile.evaluate(
              () =>
                `${document.activeElement?.tagName.toLowerCase()}:${document.activeElement?.textContent?.replace(/\s+/g, ' ').trim().slice(0, 30)}`,
            ),
          );
          await expect(
            mobile.evaluate(() =>
              document.querySelector('[role="alertdialog"]')?.contains(document.activeElement),
            ),
          ).resolves.toBe(true);
        }
        // Pick "For 7 days" with the keyboard, then confirm with Enter on the decision button.
        await dialog.getByLabel('Approval holds').focus();
        await mobile.keyboard.press('ArrowDown');
        await mobile.keyboard.press('ArrowDown');
        await expect(dialog.getByLabel('Approval holds').inputValue()).resolves.toBe('7');
        await dialog.getByRole('button', { name: 'Approve deploy-tools' }).focus();
        await mobile.keyboard.press('Enter');
        await mobile.waitForURL(/\/approvals\?decided=/);
        await mobile.getByText('deploy-tools in platform-core is approved.').waitFor();
        expect(order.some((entry) => entry.startsWith('select:'))).toBe(true);
        expect(order.some((entry) => entry === 'button:Cancel')).toBe(true);
        await screenshot(mobile, 'mobile-decided');
      },
      FLOW_TIMEOUT_MS,
    );
  });
});
