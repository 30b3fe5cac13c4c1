import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { launchBrowser, newTestContext, screenshot, seriousA11yViolations } from './browser.harness';
import { startDashboardStack, type DashboardStack, type Person } from './dashboard-stack.harness';

// The dashboard in a real browser against the real API: sign-in, workspaces, tokens, the audit log, a member's
// limits, the API-down states, both themes, and axe-core on every page. The tests share one browser and run in
// order (each builds on what the previous one created), like a person working through the dashboard.

type Theme = 'light' | 'dark';
const THEMES: readonly Theme[] = ['light', 'dark'];
const SETUP_TIMEOUT_MS = 300_000;
// Generous: on a busy two-core machine a page with axe can take seconds; a hang still fails.
const FLOW_TIMEOUT_MS = 180_000;

let stack: DashboardStack;
let browser: Browser;
let owner: BrowserContext;
let ownerPage: Page;
let workspacePath = '';

beforeAll(async () => {
  stack = await startDashboardStack();
  browser = await launchBrowser();
  owner = await newTestContext(browser);
  await owner.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.dashboardUrl });
  ownerPage = await owner.newPage();
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
}, 60_000);

function url(path: string, base = stack.dashboardUrl): string {
  return `${base}${path}`;
}

/** Waits until React hydrated the page (sorting, filters and dialogs need it; see HydrationMarker). */
async function hydrated(page: Page): Promise<void> {
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
}

/** A full page load of `path`, ready for interaction. */
async function open(page: Page, path: string, base = stack.dashboardUrl): Promise<Response | null> {
  const response = await page.goto(url(path, base));
  await hydrated(page);
  return response;
}

/** Axe on the page as it is, failing with the page's name and the findings. */
async function expectAccessible(page: Page, label: string, within?: string): Promise<void> {
  const violations = await seriousA11yViolations(page, within);
  expect({ page: label, violations }).toEqual({ page: label, violations: [] });
}

/** Emulates the system colour scheme and waits until the colours stopped transitioning. */
async function switchTheme(page: Page, theme: Theme): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
}

/**
 * Opens `path`, waits for the page's heading, then in each theme (the operating system's preference, switched
 * live; no theme cookie is set) checks accessibility and writes a screenshot.
 */
async function capture(page: Page, path: string, name: string, base = stack.dashboardUrl): Promise<void> {
  const response = await open(page, path, base);
  expect(response?.status()).toBeLessThan(500);
  await page.locator('h1').first().waitFor();
  for (const theme of THEMES) {
    await switchTheme(page, theme);
    await expectAccessible(page, `${name} (${theme})`);
    await screenshot(page, `${name}-${theme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function signIn(page: Page, person: Person, base = stack.dashboardUrl): Promise<void> {
  await open(page, '/sign-in', base);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/overview$/);
}

function mainNav(page: Page) {
  return page.getByRole('navigation', { name: 'Main' });
}

async function apiStatus(path: string, headers: Record<string, string>): Promise<number> {
  return (await fetch(`${stack.apiUrl}${path}`, { headers })).status;
}

describe('dashboard in a browser', () => {
  it(
    'sends a signed-out visitor to sign-in and signs the owner in, keeping every secret out of page scripts',
    async () => {
      const page = ownerPage;
      await open(page, '/overview');
      await page.waitForURL(/\/sign-in$/);
      await capture(page, '/sign-in', 'sign-in');

      // A field the form checks itself, shown where it happened.
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.locator('[data-problem-code="validation_failed"]').textContent()).resolves.toContain(
        'Enter your email address.',
      );

      await signIn(page, stack.owner);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'Welcome, Olivia Owner',
      );

      // The browser holds only the dashboard's httpOnly cookies: no API cookie, nothing readable by scripts.
      const cookies = await owner.cookies();
      expect(cookies.map((cookie) => cookie.name).sort()).toEqual(['gh_dash_csrf', 'gh_dash_session']);
      expect(cookies.every((cookie) => cookie.httpOnly && cookie.sameSite === 'Lax')).toBe(true);
      await expect(page.evaluate(() => document.cookie)).resolves.toBe('');
      const html = await page.content();
      for (const cookie of cookies) expect(html).not.toContain(cookie.value);
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'creates a workspace, shows its audit event, and shows a refusal with the API code where it happened',
    async () => {
      const page = ownerPage;
      await mainNav(page).getByRole('link', { name: 'Workspaces' }).click();
      await page.getByRole('heading', { name: 'No workspaces yet' }).waitFor();
      await capture(page, '/workspaces', 'workspaces-empty');

      await page.getByRole('link', { name: 'New workspace' }).first().click();
      await page.waitForURL(/\/workspaces\/new$/);
      await page.getByLabel('Name', { exact: true }).fill('platform');
      await page.getByLabel('Repository (optional)').fill('github.com/acme/platform');
      await page.getByRole('button', { name: 'Create workspace' }).click();
      await page.waitForURL(/\/workspaces\/[0-9a-f-]{36}\?created=1$/);
      workspacePath = new URL(page.url()).pathname;
      await page.getByText('Workspace created').waitFor();

      const activity = page.locator('#workspace-activity');
      await activity.getByText('Created a workspace').waitFor();
      await expect(activity.textContent()).resolves.toContain('Olivia Owner');

      await open(page, '/audit?action=workspaces.create');
      await page.getByRole('table', { name: 'Audit events' }).getByText('workspaces.create').waitFor();
      await expect(
        page.getByRole('table', { name: 'Audit events' }).locator('tbody tr').count(),
      ).resolves.toBe(1);

      // The same name again: the API's 409 `conflict`, shown in the form that caused it.
      await open(page, '/workspaces/new');
      await page.getByLabel('Name', { exact: true }).fill('platform');
      await page.getByRole('button', { name: 'Create workspace' }).click();
      const problem = page.locator('[data-problem-code="conflict"]');
      await problem.waitFor();
      await expect(problem.textContent()).resolves.toContain('conflict');
      // What was typed stays, so it can be corrected rather than retyped.
      await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('platform');
      await expectAccessible(page, 'new workspace with an error');
      await screenshot(page, 'workspace-new-error-light');
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'renames the workspace, marks it trusted and starts a new generation through confirmations',
    async () => {
      const page = ownerPage;
      await open(page, workspacePath);
      await page.getByLabel('Name', { exact: true }).fill('platform-core');
      await page.getByRole('button', { name: 'Rename' }).click();
      await page.getByText('Renamed to platform-core.').waitFor();
      await page.getByRole('heading', { level: 1, name: 'platform-core' }).waitFor();

      await page.getByRole('button', { name: 'Mark as trusted' }).click();
      const trustDialog = page.getByRole('alertdialog');
      await trustDialog.waitFor();
      await expect(trustDialog.textContent()).resolves.toContain('does not approve any of them');
      for (const theme of THEMES) {
        await switchTheme(page, theme);
        await expectAccessible(page, `trust confirmation (${theme})`, '[role="alertdialog"]');
        await screenshot(page, `workspace-trust-dialog-${theme}`, { fullPage: false });
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await trustDialog.getByRole('button', { name: 'Mark as trusted' }).click();
      await trustDialog.waitFor({ state: 'hidden' });
      await page.getByText('The workspace is now trusted.').waitFor();
      await page.getByRole('button', { name: 'Mark as untrusted' }).waitFor();

      await page.getByRole('button', { name: 'Start a new generation' }).click();
      const bumpDialog = page.getByRole('alertdialog');
      await expect(bumpDialog.textContent()).resolves.toContain('becomes stale');
      await bumpDialog.getByRole('button', { name: 'Start generation 2' }).click();
      await bumpDialog.waitFor({ state: 'hidden' });
      await page.getByText('Generation 2', { exact: true }).waitFor();

      // Maintainers: a member of the tenant, picked from a list.
      await page
        .getByLabel('Member', { exact: true })
        .selectOption({ label: `Max Member (${stack.member.email})` });
      await page.getByRole('button', { name: 'Add maintainer' }).click();
      await page.getByText('Max Member now maintains this workspace.').waitFor();

      // Escape cancels a confirmation without doing anything.
      await page.getByRole('button', { name: 'Start a new generation' }).click();
      await page.getByRole('alertdialog').waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('alertdialog').waitFor({ state: 'hidden' });
      await page.getByText('Generation 2', { exact: true }).waitFor();
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'creates API tokens, shows the secret once with a copy button, and revokes one',
    async () => {
      const page = ownerPage;
      await mainNav(page).getByRole('link', { name: 'API tokens' }).click();
      await page.getByRole('heading', { name: 'No API tokens yet' }).waitFor();
      await page.getByRole('link', { name: 'New token' }).first().click();
      await page.waitForURL(/\/tokens\/new$/);

      await page.getByLabel('Name', { exact: true }).fill('ci-deploy');
      await page.getByLabel('workspaces:read').check();
      await page.getByLabel('tokens:read').check();
      await page.getByRole('button', { name: 'Create token' }).click();
      const secretField = page.getByLabel('Secret of ci-deploy');
      await secretField.waitFor();
      const secret = await secretField.inputValue();
      expect(secret).toMatch(/^ghu_[A-Za-z0-9]+$/);
      await expectAccessible(page, 'token secret');
      await screenshot(page, 'token-created-light');

      await page.getByRole('button', { name: 'Copy token' }).click();
      await page.getByText('Copied to the clipboard.').waitFor();
      await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(secret);
      // It is a real token of this tenant.
      await expect(apiStatus('/v1/workspaces', { authorization: `Bearer ${secret}` })).resolves.toBe(200);

      // An agent token: the kind changes which scopes are offered, and binds workspaces.
      await open(page, '/tokens/new');
      await page.getByLabel('Name', { exact: true }).fill('assistant');
      await page.getByRole('radio', { name: /^agent/ }).check();
      await expect(page.getByLabel('tokens:read').count()).resolves.toBe(0);
      await page.getByLabel('catalog:read').check();
      await page.getByLabel('gateway:use').check();
      await page.getByLabel('platform-core').check();
      await page.getByRole('button', { name: 'Create token' }).click();
      await expect(page.getByLabel('Secret of assistant').inputValue()).resolves.toMatch(/^gha_/);

      // Once gone from the screen, the secret is nowhere: the list shows prefixes only.
      await page.getByRole('link', { name: 'Done' }).click();
      await page.waitForURL(/\/tokens$/);
      const tokens = page.getByRole('table', { name: 'API tokens' });
      await tokens.getByText('ci-deploy').waitFor();
      expect(await page.content()).not.toContain(secret);

      const row = tokens.locator('tbody tr', { hasText: 'ci-deploy' });
      await row.getByRole('button', { name: 'Revoke' }).click();
      const dialog = page.getByRole('alertdialog');
      await expect(dialog.textContent()).resolves.toContain('refused from now on');
      await dialog.getByRole('button', { name: 'Revoke token' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await tokens.locator('tbody tr', { hasText: 'ci-deploy' }).waitFor({ state: 'detached' });
      await expect(apiStatus('/v1/workspaces', { authorization: `Bearer ${secret}` })).resolves.toBe(401);

      await page.getByRole('link', { name: 'Show revoked tokens' }).click();
      await page.waitForURL(/\/tokens\?revoked=1$/);
      await tokens
        .locator('tbody tr', { hasText: 'ci-deploy' })
        .getByText('Revoked', { exact: true })
        .waitFor();
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'filters, sorts and pages the audit log, and shows the verified chain',
    async () => {
      const page = ownerPage;
      await open(page, '/audit?limit=10');
      await page.getByText('Chain intact').waitFor();
      const table = page.getByRole('table', { name: 'Audit events' });
      const rows = table.locator('tbody tr');
      await expect(rows.count()).resolves.toBe(10);
      const firstSeq = Number(await rows.first().locator('td').first().textContent());

      await page.getByRole('link', { name: 'Next page' }).click();
      await page.waitForURL(/cursor=/);
      const nextSeq = Number(await rows.first().locator('td').first().textContent());
      expect(nextSeq).toBe(firstSeq - 10);
      await page.getByRole('link', { name: 'Previous' }).click();
      await page.waitForURL((address) => !address.search.includes('cursor='));
      await expect(rows.first().locator('td').first().textContent()).resolves.toBe(String(firstSeq));

      // Sorting and the page filter work in the browser on the rows of the page.
      const actorHeader = table.getByRole('columnheader', { name: /Actor/ });
      await actorHeader.getByRole('button').click();
      await expect(actorHeader.getAttribute('aria-sort')).resolves.toBe('ascending');
      await actorHeader.getByRole('button').click();
      await expect(actorHeader.getAttribute('aria-sort')).resolves.toBe('descending');
      await page.getByLabel('Filter this page').fill('tokens.create');
      await expect(rows.count()).resolves.toBe(2);

      // The API's filters: a GET form, so the filtered view is a link.
      await page.getByLabel('Action', { exact: true }).fill('tokens.revoke');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL(/action=tokens\.revoke/);
      await expect(rows.count()).resolves.toBe(1);
      await page.getByLabel('Target type').selectOption('workspace');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByRole('heading', { name: 'No events match these filters' }).waitFor();
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'writes a project source in the editor, resolves its servers, keeps secrets off the page, and disables one',
    async () => {
      const page = ownerPage;
      const canary = `cnry${Date.now().toString(36)}LiteralKey9`;
      const variableCanary = `cnry${Date.now().toString(36)}VariableTok7`;
      const workspaceId = workspacePath.split('/').pop() ?? '';
      const servers = `/servers/${workspaceId}`;

      await mainNav(page).getByRole('link', { name: 'Servers' }).click();
      await page.waitForURL(/\/servers$/);
      await page.getByRole('link', { name: 'platform-core' }).click();
      await page.waitForURL(new RegExp(`${servers}$`));
      await page.getByRole('heading', { name: 'No servers yet' }).waitFor();
      await capture(page, servers, 'servers-empty');

      // A document whose mcpServers is not an object: the API's error, at the path it names, under the editor.
      await open(page, `${servers}/sources`);
      await expect(page.getByRole('link', { name: 'Project' }).getAttribute('aria-current')).resolves.toBe('true');
      const editor = page.getByLabel('Document (JSON)');
      await editor.fill('{ "mcpServers": [] }');
      await page.getByRole('button', { name: 'Save source' }).click();
      const fieldError = page.locator('[data-field-error="document"]');
      await fieldError.waitFor();
      await expect(fieldError.textContent()).resolves.toContain('mcpServers');
      await expect(page.locator('[data-problem-code="validation_failed"]').count()).resolves.toBe(1);
      await expect(editor.getAttribute('aria-invalid')).resolves.toBe('true');
      // What was typed stays for correcting.
      await expect(editor.inputValue()).resolves.toBe('{ "mcpServers": [] }');
      await expectAccessible(page, 'source editor with a field error');
      await screenshot(page, 'server-sources-error-light');

      await editor.fill(
        JSON.stringify(
          {
            mcpServers: {
              'deploy-tools': {
                type: 'stdio',
                command: 'npx',
                args: ['-y', '@acme/deploy-mcp', '--region', 'eu-west-1'],
                env: { API_KEY: canary, DEPLOY_TOKEN: '${DEPLOY_TOKEN:-none}', LOG_LEVEL: 'info' },
              },
              docs: {
                type: 'http',
                url: 'https://docs.acme.test/mcp',
                headers: { Authorization: `Bearer ${canary}` },
              },
            },
          },
          null,
          2,
        ),
      );
      await page.getByRole('button', { name: 'Save source' }).click();
      await page.getByText(/Saved project:[0-9a-f-]+ as version 1: 2 servers\./).waitFor();
      await capture(page, `${servers}/sources`, 'server-sources');

      // Both resolved, in the workspace view and as me.
      await open(page, servers);
      const table = page.getByRole('table', { name: /Effective servers/ });
      for (const name of ['deploy-tools', 'docs']) {
        await table.locator('tbody tr', { hasText: name }).getByText('Resolved', { exact: true }).waitFor();
      }
      await capture(page, servers, 'servers-effective');
      await page.getByRole('link', { name: 'As me' }).click();
      await page.waitForURL(/view=principal/);
      await table.locator('tbody tr', { hasText: 'docs' }).getByText('Resolved', { exact: true }).waitFor();

      // The detail page: command line, env KEYS only; the secret literal is nowhere on the page.
      await open(page, `${servers}/server/deploy-tools`);
      await page.getByRole('heading', { level: 1, name: 'deploy-tools' }).waitFor();
      await page.getByRole('list', { name: 'Environment variable keys' }).getByText('API_KEY').waitFor();
      await expect(page.locator('#server-identity').textContent()).resolves.toMatch(/sid:/);
      expect(await page.content()).not.toContain(canary);
      await capture(page, `${servers}/server/deploy-tools`, 'server-detail');
      await open(page, `${servers}/server/docs`);
      await page.getByRole('list', { name: 'Header keys' }).getByText('Authorization').waitFor();
      expect(await page.content()).not.toContain(canary);

      // A variable: set, then listed as "Set" only; its value never comes back.
      await open(page, `${servers}/variables`);
      await page.getByLabel('Name', { exact: true }).fill('DEPLOY_TOKEN');
      await page.getByLabel('Value', { exact: true }).fill(variableCanary);
      await page.getByRole('button', { name: 'Set variable' }).click();
      await page.getByText('DEPLOY_TOKEN is set.', { exact: false }).waitFor();
      const variables = page.getByRole('table', { name: /variables/ });
      await variables.locator('tbody tr', { hasText: 'DEPLOY_TOKEN' }).getByText('Set', { exact: true }).waitFor();
      await expect(page.getByLabel('Value', { exact: true }).inputValue()).resolves.toBe('');
      await capture(page, `${servers}/variables`, 'server-variables');
      expect(await page.content()).not.toContain(variableCanary);

      // Disable for the workspace with a reason, see it disabled, enable it again.
      await open(page, `${servers}/server/docs`);
      await page.getByLabel('Disable for').selectOption('workspace');
      await page.getByLabel('Reason (optional)').fill('Rotating the docs credentials');
      await page.getByRole('button', { name: 'Disable server' }).click();
      await page.getByText('docs is disabled for everyone in this workspace: Rotating the docs credentials').waitFor();
      await page.getByRole('button', { name: 'Enable server' }).waitFor();
      await page.getByText('Disabled for everyone in this workspace').first().waitFor();
      await open(page, servers);
      const docsRow = table.locator('tbody tr', { hasText: 'docs' });
      await docsRow.getByText('Disabled', { exact: true }).waitFor();
      await docsRow.getByText('Disabled for everyone in this workspace').waitFor();
      await capture(page, servers, 'servers-disabled');
      await open(page, `${servers}/server/docs`);
      await page.getByRole('button', { name: 'Enable server' }).click();
      await page.getByText('docs is enabled again.').waitFor();
      await open(page, servers);
      await docsRow.getByText('Resolved', { exact: true }).waitFor();
      expect(await page.content()).not.toContain(canary);
      expect(await page.content()).not.toContain(variableCanary);
    },
    FLOW_TIMEOUT_MS,
  );

  // Every page of the owner, in both themes, with axe-core (the member's and the API-down pages follow below).
  const PAGES: readonly { name: string; path: () => string }[] = [
    { name: 'overview', path: () => '/overview' },
    { name: 'workspaces', path: () => '/workspaces' },
    { name: 'workspace', path: () => workspacePath },
    { name: 'workspace-new', path: () => '/workspaces/new' },
    { name: 'members', path: () => '/members' },
    { name: 'tokens', path: () => '/tokens' },
    { name: 'token-new', path: () => '/tokens/new' },
    { name: 'audit', path: () => '/audit' },
    { name: 'servers', path: () => '/servers' },
    { name: 'coming-soon-approvals', path: () => '/approvals' },
    { name: 'not-found', path: () => '/no-such-page' },
  ];

  it.each(PAGES)(
    'renders $name in light and dark with no serious accessibility violations',
    async ({ name, path }) => {
      await capture(ownerPage, path(), name);
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'remembers a theme chosen with the switch, over the system preference',
    async () => {
      const page = ownerPage;
      await page.emulateMedia({ colorScheme: 'light' });
      await open(page, '/overview');
      await page.getByRole('button', { name: 'Dark' }).click();
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      await page.reload();
      await hydrated(page);
      await expect(page.evaluate(() => document.documentElement.dataset.theme)).resolves.toBe('dark');
      await expect(page.getByRole('button', { name: 'Dark' }).getAttribute('aria-pressed')).resolves.toBe(
        'true',
      );
      await expectAccessible(page, 'overview with the dark theme chosen');
      await page.getByRole('button', { name: 'System' }).click();
      await page.waitForFunction(() => document.documentElement.dataset.theme === undefined);
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'signs out, ending the API session too',
    async () => {
      const page = ownerPage;
      const session = (await owner.cookies()).find((cookie) => cookie.name === 'gh_dash_session');
      expect(session).toBeDefined();
      await expect(apiStatus('/v1/auth/session', { cookie: `gh_session=${session?.value}` })).resolves.toBe(
        200,
      );

      await open(page, '/overview');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(/\/sign-in\?reason=signed-out$/);
      await page.getByText('You are signed out.').waitFor();
      await expect(owner.cookies()).resolves.toEqual([]);
      await expect(apiStatus('/v1/auth/session', { cookie: `gh_session=${session?.value}` })).resolves.toBe(
        401,
      );

      await open(page, '/tokens');
      await page.waitForURL(/\/sign-in$/);
    },
    FLOW_TIMEOUT_MS,
  );

  describe('a member without admin rights', () => {
    let context: BrowserContext;
    let page: Page;

    beforeAll(async () => {
      context = await newTestContext(browser);
      page = await context.newPage();
    });

    afterAll(async () => {
      await context?.close();
    });

    it(
      'does not see admin actions',
      async () => {
        await signIn(page, stack.member);
        const nav = mainNav(page);
        await nav.getByRole('link', { name: 'Workspaces' }).waitFor();
        await expect(nav.getByRole('link', { name: 'API tokens' }).count()).resolves.toBe(1);
        await expect(nav.getByRole('link', { name: 'Members' }).count()).resolves.toBe(0);
        await expect(nav.getByRole('link', { name: 'Audit log' }).count()).resolves.toBe(0);
        await capture(page, '/overview', 'member-overview');

        await open(page, '/workspaces');
        await page.getByRole('link', { name: 'platform-core' }).waitFor();
        await expect(page.getByRole('link', { name: 'New workspace' }).count()).resolves.toBe(0);

        await open(page, workspacePath);
        await page.getByRole('heading', { level: 1, name: 'platform-core' }).waitFor();
        await page.locator('#workspace-maintainers').getByText('Max Member').waitFor();
        for (const action of [
          'Rename',
          'Mark as untrusted',
          'Start a new generation',
          'Add maintainer',
          'Remove',
        ]) {
          await expect(page.getByRole('button', { name: action }).count()).resolves.toBe(0);
        }
        await capture(page, workspacePath, 'member-workspace');

        // Members mint user tokens for themselves only: no agent or worker kinds, and only their own scopes.
        await open(page, '/tokens');
        await page.getByRole('heading', { name: 'No API tokens yet' }).waitFor();
        await capture(page, '/tokens', 'member-tokens');
        await page.getByRole('link', { name: 'New token' }).first().click();
        await page.waitForURL(/\/tokens\/new$/);
        await expect(page.getByRole('radio').count()).resolves.toBe(1);
        await expect(page.getByRole('radio', { name: /^agent/ }).count()).resolves.toBe(0);
        await expect(page.getByLabel('members:write').count()).resolves.toBe(0);
        await page.getByLabel('workspaces:read').waitFor();
        await capture(page, '/tokens/new', 'member-token-new');
      },
      FLOW_TIMEOUT_MS,
    );

    it(
      'cannot reach admin pages by URL: a clear "not allowed" page',
      async () => {
        for (const path of ['/workspaces/new', '/members', '/audit']) {
          await open(page, path);
          await page.getByRole('heading', { level: 1, name: 'Not allowed' }).waitFor();
          await expect(page.locator('[data-problem-code="forbidden_scope"]').count()).resolves.toBe(1);
          await expect(page.getByRole('button', { name: 'Create workspace' }).count()).resolves.toBe(0);
          await expect(page.getByRole('table').count()).resolves.toBe(0);
        }
        await capture(page, '/members', 'member-not-allowed');
      },
      FLOW_TIMEOUT_MS,
    );

    it(
      'sees a clear error state on every page while the API is down, never a crash',
      async () => {
        // The same browser session (cookies are per host, not per port) on a dashboard whose API is gone.
        const down = stack.apiDownDashboardUrl;
        for (const path of [
          '/overview',
          '/workspaces',
          workspacePath,
          '/tokens',
          '/members',
          '/audit',
          '/servers',
        ]) {
          const response = await open(page, path, down);
          expect(response?.status()).toBe(200);
          const problem = page.locator('[data-problem-code="api_unreachable"]');
          await problem.waitFor();
          await expect(problem.textContent()).resolves.toContain('The Gatehouse API is unreachable');
        }
        await capture(page, '/overview', 'api-down-overview', down);
        await capture(page, '/workspaces', 'api-down-workspaces', down);

        // Signing in says the same, in the form.
        const fresh = await newTestContext(browser);
        const signInPage = await fresh.newPage();
        try {
          await open(signInPage, '/sign-in', down);
          await signInPage.getByLabel('Email').fill(stack.member.email);
          await signInPage.getByLabel('Password').fill(stack.member.password);
          await signInPage.getByRole('button', { name: 'Sign in' }).click();
          await signInPage.locator('[data-problem-code="api_unreachable"]').waitFor();
          await expectAccessible(signInPage, 'sign-in with the API down');
          await screenshot(signInPage, 'api-down-sign-in-light');
        } finally {
          await fresh.close();
        }
      },
      FLOW_TIMEOUT_MS,
    );

    it(
      'is sent to sign-in with a notice when the API ends the session elsewhere',
      async () => {
        const cookies = await context.cookies();
        const value = (name: string) => cookies.find((cookie) => cookie.name === name)?.value ?? '';
        const logout = await fetch(`${stack.apiUrl}/v1/auth/logout`, {
          method: 'POST',
          headers: {
            cookie: `gh_session=${value('gh_dash_session')}`,
            'x-csrf-token': value('gh_dash_csrf'),
            'content-type': 'application/json',
          },
          body: '{}',
        });
        expect(logout.status).toBe(204);

        await open(page, '/workspaces');
        await page.waitForURL(/\/sign-in\?reason=expired$/);
        await page.getByText('Your session ended. Sign in again to continue.').waitFor();
        await expect(context.cookies()).resolves.toEqual([]);
      },
      FLOW_TIMEOUT_MS,
    );
  });
});
