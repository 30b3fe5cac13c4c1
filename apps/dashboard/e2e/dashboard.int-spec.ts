import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { launchBrowser, newTestContext, screenshot, seriousA11yViolations } from './browser.harness';
import { startDashboardStack, type DashboardStack, type Person } from './dashboard-stack.harness';

// The dashboard in a real browser against the real API: sign-in, workspaces, tokens, the audit log, servers,
// the approval workflow (an approver, stale after an edit, four-eyes, revoke), the host policy, a member's
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

/** A row of a workspace's effective servers table, by the server's name. */
function serverRow(page: Page, name: string) {
  return page
    .getByRole('table', { name: /Effective servers/ })
    .locator('tbody tr', { has: page.getByRole('link', { name, exact: true }) });
}

/** A request of the approval queue, by the server's name. */
function requestCard(page: Page, serverName: string) {
  return page.locator('article[data-request-id]', {
    has: page.getByRole('heading', { level: 2, name: serverName, exact: true }),
  });
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
      await expect(page.getByRole('link', { name: 'Project' }).getAttribute('aria-current')).resolves.toBe(
        'true',
      );
      // The editor opens entry by entry; the whole document is one click away.
      await page.getByRole('button', { name: 'As JSON' }).click();
      const editor = page.getByLabel('Document (JSON)');
      await editor.fill('{ "mcpServers": [] }');
      // Every save is previewed first: the preview is refused with the API's error at its path.
      await page.getByRole('button', { name: 'Preview changes' }).click();
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
      await page.getByRole('button', { name: 'Preview changes' }).click();
      await page.locator('#save-preview').waitFor();
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
      await variables
        .locator('tbody tr', { hasText: 'DEPLOY_TOKEN' })
        .getByText('Set', { exact: true })
        .waitFor();
      await expect(page.getByLabel('Value', { exact: true }).inputValue()).resolves.toBe('');
      await capture(page, `${servers}/variables`, 'server-variables');
      expect(await page.content()).not.toContain(variableCanary);

      // Disable for the workspace with a reason, see it disabled, enable it again.
      await open(page, `${servers}/server/docs`);
      await page.getByLabel('Disable for').selectOption('workspace');
      await page.getByLabel('Reason (optional)').fill('Rotating the docs credentials');
      await page.getByRole('button', { name: 'Disable server' }).click();
      await page
        .getByText('docs is disabled for everyone in this workspace: Rotating the docs credentials')
        .waitFor();
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

  describe('the approval workflow', () => {
    let approverContext: BrowserContext;
    let approverPage: Page;
    const workspaceId = () => workspacePath.split('/').pop() ?? '';
    const servers = () => `/servers/${workspaceId()}`;
    const rotatedSecret = `cnry${Date.now().toString(36)}RotatedKey5`;

    beforeAll(async () => {
      approverContext = await newTestContext(browser);
      approverPage = await approverContext.newPage();
    });

    afterAll(async () => {
      await approverContext?.close();
    });

    /**
     * Saves the project source again in the editor with the docs server at `url`. The editor sends the whole
     * document: `[REDACTED]` keeps deploy-tools' stored secret; docs' secret is entered again, as the API
     * requires when a URL changes. Only the docs URL changes in what an approver sees (header keys only).
     */
    async function editDocsUrl(url: string, version: number): Promise<void> {
      const page = ownerPage;
      await open(page, `${servers()}/sources`);
      const document = {
        mcpServers: {
          'deploy-tools': {
            type: 'stdio',
            command: 'npx',
            args: ['-y', '@acme/deploy-mcp', '--region', 'eu-west-1'],
            env: { API_KEY: '[REDACTED]', DEPLOY_TOKEN: '${DEPLOY_TOKEN:-none}', LOG_LEVEL: 'info' },
          },
          docs: { type: 'http', url, headers: { Authorization: `Bearer ${rotatedSecret}` } },
        },
      };
      await page.getByRole('button', { name: 'As JSON' }).click();
      await page.getByLabel('Document (JSON)').fill(JSON.stringify(document, null, 2));
      await page.getByRole('button', { name: 'Preview changes' }).click();
      const refused = page.locator('[data-problem-code]');
      await page.locator('#save-preview').or(refused).first().waitFor();
      expect({ refused: await refused.allTextContents() }).toEqual({ refused: [] });
      await page.getByRole('button', { name: 'Save source' }).click();
      const saved = page.getByText(new RegExp(`as version ${version}: 2 servers\\.`));
      await saved.or(refused).first().waitFor();
      expect({ refused: await refused.allTextContents() }).toEqual({ refused: [] });
    }

    it(
      'queues each written server for review, and an approver approves one: the Servers page shows it approved',
      async () => {
        // Writing the source opened the requests (the event path): the owner sees docs pending, with its request.
        await open(ownerPage, servers());
        const ownerDocs = serverRow(ownerPage, 'docs');
        await ownerDocs
          .locator('[data-activation="pending"]')
          .getByText('Pending', { exact: true })
          .waitFor();
        await ownerDocs.getByText('Nobody has approved or denied it yet').waitFor();
        await ownerDocs.getByRole('link', { name: 'Review the open request for docs' }).waitFor();

        await signIn(approverPage, stack.approver);
        await approverPage
          .locator('#needs-attention')
          .getByText('2 approval requests wait for review')
          .waitFor();
        await mainNav(approverPage).getByRole('link', { name: 'Approvals' }).click();
        await approverPage.waitForURL(/\/approvals$/);
        const card = requestCard(approverPage, 'docs');
        await card.waitFor();
        const text = await card.textContent();
        for (const expected of [
          'platform-core',
          'A source was written',
          'Olivia Owner',
          'First review of this server',
        ]) {
          expect(text).toContain(expected);
        }
        await card.getByText('Reviewed definition').click();
        await expect(card.locator('[data-projection="reviewed"]').textContent()).resolves.toContain(
          'https://docs.acme.test/mcp',
        );
        expect(await approverPage.content()).not.toMatch(/cnry[0-9a-z]+LiteralKey9/);
        await capture(approverPage, '/approvals', 'approvals-queue');

        await requestCard(approverPage, 'docs').getByRole('button', { name: 'Approve docs' }).click();
        const dialog = approverPage.getByRole('alertdialog');
        await expect(dialog.textContent()).resolves.toContain('exactly as you reviewed it');
        for (const theme of THEMES) {
          await switchTheme(approverPage, theme);
          await expectAccessible(approverPage, `approve dialog (${theme})`, '[role="alertdialog"]');
          await screenshot(approverPage, `approval-approve-dialog-${theme}`, { fullPage: false });
        }
        await approverPage.emulateMedia({ colorScheme: 'light' });
        await dialog.getByRole('button', { name: 'Approve docs' }).click();
        await approverPage.waitForURL(/\/approvals\?decided=/);
        await approverPage.getByText('docs in platform-core is approved.').waitFor();
        await expect(requestCard(approverPage, 'docs').count()).resolves.toBe(0);

        // Approved for everyone who looks, with the decision in the history; an approver cannot revoke.
        for (const page of [approverPage, ownerPage]) {
          await open(page, servers());
          await serverRow(page, 'docs')
            .locator('[data-activation="approved"]')
            .getByText('Approved', { exact: true })
            .waitFor();
        }
        await capture(ownerPage, servers(), 'servers-approved');
        await open(approverPage, '/approvals?show=decisions');
        const decision = approverPage
          .getByRole('table', { name: 'Decisions' })
          .locator('tbody tr', { hasText: 'docs' });
        await expect(decision.textContent()).resolves.toMatch(/Approved.*In force.*Ada Approver/);
        await expect(approverPage.getByRole('button', { name: 'Revoke' }).count()).resolves.toBe(0);
      },
      FLOW_TIMEOUT_MS,
    );

    it(
      'shows the server stale once its definition is edited, with the changed field in the new request',
      async () => {
        await editDocsUrl('https://docs-v2.acme.test/mcp', 2);
        await open(ownerPage, servers());
        const docs = serverRow(ownerPage, 'docs');
        await docs.locator('[data-activation="stale"]').getByText('Stale', { exact: true }).waitFor();
        await docs.getByText(/^Changed since approval: .*the definition/).waitFor();
        await capture(ownerPage, servers(), 'servers-stale');

        await open(ownerPage, `${servers()}/server/docs`);
        const panel = ownerPage.locator('#server-approval');
        await panel.getByText('It changed since it was approved').waitFor();
        await panel.getByText('Changed since approval').waitFor();
        await capture(ownerPage, `${servers()}/server/docs`, 'server-detail-stale');
        await panel.getByRole('link', { name: 'Review the open request' }).click();
        await ownerPage.waitForURL(/\/approvals\/[0-9a-f-]{36}$/);
        const requestPath = new URL(ownerPage.url()).pathname;

        // The diff: the field that changed, before and after (the values the API projected).
        const urlChange = ownerPage.locator('[data-diff="changes"] tbody tr', { hasText: 'transport.url' });
        await urlChange.waitFor();
        await expect(urlChange.locator('del').textContent()).resolves.toBe('"https://docs.acme.test/mcp"');
        await expect(urlChange.locator('ins').textContent()).resolves.toBe('"https://docs-v2.acme.test/mcp"');
        expect(await ownerPage.content()).not.toContain(rotatedSecret);
        await capture(ownerPage, requestPath, 'approval-request-stale');

        // The approver reviews that request, but the server changes again before they confirm: the decision
        // on what they saw is refused in the dialog, and the newer request diffs against the last approval.
        await open(approverPage, requestPath);
        await approverPage.getByRole('button', { name: 'Approve docs' }).click();
        const dialog = approverPage.getByRole('alertdialog');
        await dialog.waitFor();
        await editDocsUrl('https://docs-v3.acme.test/mcp', 3);
        await dialog.getByRole('button', { name: 'Approve docs' }).click();
        const refusal = dialog.locator('[data-problem-code="request_not_open"]');
        await refusal.waitFor();
        await expect(refusal.textContent()).resolves.toContain('This request is no longer open');
        await expectAccessible(approverPage, 'refused decision', '[role="alertdialog"]');
        await screenshot(approverPage, 'approval-refused-dialog-light', { fullPage: false });
        await approverPage.keyboard.press('Escape');

        await open(approverPage, '/approvals');
        const card = requestCard(approverPage, 'docs');
        const change = card.locator('[data-diff="changes"] tbody tr', { hasText: 'transport.url' });
        await expect(change.locator('del').textContent()).resolves.toBe('"https://docs.acme.test/mcp"');
        await expect(change.locator('ins').textContent()).resolves.toBe('"https://docs-v3.acme.test/mcp"');
        await card.getByRole('button', { name: 'Approve docs' }).click();
        await approverPage.getByRole('alertdialog').getByRole('button', { name: 'Approve docs' }).click();
        await approverPage.getByText('docs in platform-core is approved.').waitFor();
        await open(ownerPage, servers());
        await serverRow(ownerPage, 'docs').locator('[data-activation="approved"]').waitFor();

        // The replaced request is history: superseded, next to the decided one.
        await open(ownerPage, '/approvals?show=closed');
        const closed = ownerPage.getByRole('table', { name: 'Closed requests' });
        await closed
          .locator('tbody tr', { hasText: 'Superseded' })
          .filter({ hasText: 'docs' })
          .first()
          .waitFor();
        await expect(
          closed.locator('tbody tr', { hasText: 'Decided' }).filter({ hasText: 'docs' }).count(),
        ).resolves.toBe(2);
      },
      FLOW_TIMEOUT_MS,
    );

    it(
      'edits the host policy beside the operator ceiling, naming refused lines, and turns four-eyes on',
      async () => {
        const page = ownerPage;
        await mainNav(page).getByRole('link', { name: 'Host policy' }).click();
        await page.waitForURL(/\/settings\/host-policy$/);
        const ceiling = page.locator('#host-policy-ceiling');
        await ceiling
          .getByRole('list', { name: 'Command ceiling of default' })
          .getByText('["npx", "-y"]')
          .waitFor();
        await ceiling.getByText('10.20.0.0/16').waitFor();
        await capture(page, '/settings/host-policy', 'host-policy-empty');

        // Space-separated words are not the format: the dashboard names the line before any call.
        const stdio = page.getByLabel('Stdio commands', { exact: true });
        await stdio.fill('npx -y @acme/deploy-mcp');
        await page.getByRole('button', { name: 'Save host policy' }).click();
        const stdioErrors = page.locator('[data-field-error="stdioCommands"]');
        await expect(stdioErrors.textContent()).resolves.toContain(
          'Line 1: write it as a JSON array of strings',
        );

        // Outside the ceiling: the API refuses it, and the refusal names the line.
        await stdio.fill('["npx", "-y", "@acme/deploy-mcp"]\n\n["bash", "-c", "curl https://evil.test"]');
        await page.getByRole('button', { name: 'Save host policy' }).click();
        await page.locator('[data-problem-code="outside_operator_ceiling"]').waitFor();
        await expect(stdioErrors.textContent()).resolves.toBe(
          'Line 3 is outside the ceiling of every worker pool open to this tenant.',
        );
        await expect(stdio.getAttribute('aria-invalid')).resolves.toBe('true');
        await expectAccessible(page, 'host policy with a refused line');
        await screenshot(page, 'host-policy-error-light');

        await stdio.fill('["npx", "-y", "@acme/deploy-mcp"]');
        await page.getByLabel('Private ranges', { exact: true }).fill('10.20.5.0/24');
        await page.getByLabel('Four-eyes approvals').check();
        await page.getByRole('button', { name: 'Save host policy' }).click();
        await page.getByText('Host policy saved: 1 stdio command, four-eyes on.').waitFor();
        await page
          .getByRole('list', { name: 'Saved stdio commands' })
          .getByText('allowed on default')
          .waitFor();
        await capture(page, '/settings/host-policy', 'host-policy');
      },
      FLOW_TIMEOUT_MS,
    );

    it(
      'with four-eyes on, refuses the author’s own approval and takes another approver’s',
      async () => {
        await editDocsUrl('https://docs-v4.acme.test/mcp', 4);
        await open(ownerPage, '/approvals');
        const card = requestCard(ownerPage, 'docs');
        await card.getByText('You made this change.').waitFor();
        await card.getByRole('button', { name: 'Approve docs' }).click();
        const dialog = ownerPage.getByRole('alertdialog');
        await dialog.getByRole('button', { name: 'Approve docs' }).click();
        const refusal = dialog.locator('[data-problem-code="four_eyes_author"]');
        await refusal.waitFor();
        await expect(refusal.textContent()).resolves.toContain('You authored this change');
        await ownerPage.keyboard.press('Escape');

        await open(approverPage, '/approvals');
        await requestCard(approverPage, 'docs').getByRole('button', { name: 'Approve docs' }).click();
        const approve = approverPage.getByRole('alertdialog');
        await approve.getByLabel('Approval holds').selectOption('30');
        await approve.getByRole('button', { name: 'Approve docs' }).click();
        await approverPage.getByText('docs in platform-core is approved.').waitFor();
        await open(ownerPage, `${servers()}/server/docs`);
        const panel = ownerPage.locator('#server-approval');
        await panel.locator('[data-activation="approved"]').waitFor();
        await expect(panel.textContent()).resolves.toMatch(/Expires\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
      },
      FLOW_TIMEOUT_MS,
    );

    it(
      'lets an owner revoke a decision with a reason: the server shows revoked, with a way to ask again',
      async () => {
        await open(ownerPage, '/approvals?show=decisions');
        const decisions = ownerPage.getByRole('table', { name: 'Decisions' });
        const newest = decisions.locator('tbody tr', { hasText: 'docs' }).first();
        await newest.getByRole('button', { name: 'Revoke' }).click();
        const dialog = ownerPage.getByRole('alertdialog');
        await expect(dialog.textContent()).resolves.toContain('no longer holds for docs in platform-core');
        // A revocation says why (decision 0088): without a reason the form does not submit.
        await dialog.getByRole('button', { name: 'Revoke' }).click();
        await expect(
          dialog
            .getByLabel('Why revoke it? (required)')
            .evaluate((field) => (field as HTMLTextAreaElement).validity.valueMissing),
        ).resolves.toBe(true);
        await dialog.getByLabel('Why revoke it? (required)').fill('The docs vendor contract ended.');
        await expectAccessible(ownerPage, 'revoke dialog with a reason', '[role="alertdialog"]');
        await dialog.getByRole('button', { name: 'Revoke' }).click();
        await dialog.waitFor({ state: 'hidden' });
        const revokedRow = decisions.locator('tbody tr', { hasText: 'docs' }).first();
        await revokedRow.getByText('Revoked', { exact: true }).first().waitFor();
        await revokedRow.getByText('The docs vendor contract ended.').waitFor();
        await capture(ownerPage, '/approvals?show=decisions', 'approvals-decisions');

        await open(ownerPage, servers());
        const docs = serverRow(ownerPage, 'docs');
        await docs.locator('[data-activation="revoked"]').getByText('Its approval was revoked').waitFor();
        // Named for what it does after a revocation.
        await docs.getByRole('button', { name: 'Ask approvers to approve it again for docs' }).waitFor();
      },
      FLOW_TIMEOUT_MS,
    );
  });

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
    { name: 'approvals-closed', path: () => '/approvals?show=closed' },
    { name: 'connections', path: () => '/connections' },
    { name: 'gateway', path: () => '/gateway' },
    { name: 'catalog', path: () => '/catalog' },
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

      // A deep link leads to sign-in, which returns to it afterwards (workflows.int-spec.ts signs in that way).
      await open(page, '/tokens');
      await page.waitForURL(/\/sign-in\?next=%2Ftokens$/);
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
        await expect(nav.getByRole('link', { name: 'Approvals' }).count()).resolves.toBe(0);
        await expect(nav.getByRole('link', { name: 'Host policy' }).count()).resolves.toBe(0);
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
      'sees approval state on the Servers page and asks for review of a revoked server',
      async () => {
        const servers = `/servers/${workspacePath.split('/').pop() ?? ''}`;
        await open(page, servers);
        const docs = serverRow(page, 'docs');
        await docs.locator('[data-activation="revoked"]').getByText('Revoked', { exact: true }).waitFor();
        await docs.getByRole('button', { name: 'Ask approvers to approve it again for docs' }).click();
        await docs.getByText('Review requested for docs: approvers see it in their queue.').waitFor();
        // A member cannot open the queue: the row says a request is open, without a link to it.
        await docs.getByText('A request is open: an approver will review it.').waitFor();
        await expect(docs.getByRole('link', { name: /Review the open request/ }).count()).resolves.toBe(0);
        await capture(page, servers, 'member-servers');
      },
      FLOW_TIMEOUT_MS,
    );

    it(
      'cannot reach admin pages by URL: a clear "not allowed" page',
      async () => {
        for (const path of ['/workspaces/new', '/members', '/audit', '/approvals', '/settings/host-policy']) {
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
          '/approvals',
          '/settings/host-policy',
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
        await page.waitForURL(/\/sign-in\?reason=expired&next=%2Fworkspaces$/);
        await page.getByText('Your session ended. Sign in again to continue.').waitFor();
        await expect(context.cookies()).resolves.toEqual([]);
      },
      FLOW_TIMEOUT_MS,
    );
  });
});
