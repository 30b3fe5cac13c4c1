import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiSession, approveOpenRequest, type ApiSession } from './api-steps.harness';
import {
  launchBrowser,
  newTestContext,
  screenshot,
  seriousA11yViolations,
  signInInBrowser,
} from './browser.harness';
import { startDashboardStack, type DashboardStack } from './dashboard-stack.harness';

// The source editor (docs/architecture/definitions.md), in a real browser against the real API: the stored
// document opened with secrets as placeholders that keep their values, a server added with the keyboard alone
// in the entry form (with the "variable not set" warning), a preview of every save (entries, approvals going
// stale, requests opening), a refused entry named at its field, a saved identical document that changes
// nothing, an imported .mcp.json file, a version conflict showing both versions, the history with a diff, and
// the 390 px layout.

const SETUP_TIMEOUT_MS = 300_000;
const FLOW_TIMEOUT_MS = 180_000;
const PHONE = { width: 390, height: 844 };

let stack: DashboardStack;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let api: ApiSession;
let workspaceId = '';
const secret = `cnry${Date.now().toString(36)}EditorKey3`;

const deployTools = {
  type: 'stdio',
  command: 'npx',
  args: ['-y', '@acme/deploy-mcp'],
  env: { API_KEY: secret, REGION: '${REGION}' },
};
const docs = {
  type: 'http',
  url: 'https://docs.acme.test/mcp',
  headers: { Authorization: `Bearer ${secret}` },
};
const notes = {
  type: 'stdio',
  command: 'node',
  args: ['/opt/notes/index.js'],
  env: { NOTES_TOKEN: '${NOTES_TOKEN}' },
};

/** A trusted workspace with a project source of two servers; docs approved. */
async function setTheScene(): Promise<void> {
  api = await apiSession(stack, stack.owner);
  const created = await api.call('POST', '/v1/workspaces', {
    name: 'editor-space',
    repositoryIdentity: 'github.com/acme/editor',
  });
  expect(created.status).toBe(201);
  workspaceId = (created.body as { id: string }).id;
  expect((await api.call('PUT', `/v1/workspaces/${workspaceId}/trust`, { trusted: true })).status).toBe(200);
  const first = await api.call('PUT', '/v1/definition-sources', {
    tier: 'project',
    workspaceId,
    document: { mcpServers: { 'deploy-tools': deployTools, docs } },
  });
  expect(first.status).toBe(200);
  await approveOpenRequest(api, workspaceId, 'docs');
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

const sources = () => `/servers/${workspaceId}/sources`;

async function open(target: Page, path: string): Promise<void> {
  await target.goto(`${stack.dashboardUrl}${path}`);
  await target.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
}

async function expectAccessible(target: Page, label: string): Promise<void> {
  const violations = await seriousA11yViolations(target);
  expect({ page: label, violations }).toEqual({ page: label, violations: [] });
}

/** The accessible name of what has focus (its aria-label, its label, or its text). */
function focusedName(target: Page): Promise<string> {
  return target.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (element === null) return '';
    const byId = element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : null;
    const name =
      element.getAttribute('aria-label') ??
      byId ??
      element.closest('label')?.textContent ??
      element.textContent;
    return (name ?? '').replace(/\s+/g, ' ').trim();
  });
}

/** Presses Tab until the control named `name` has focus: the keyboard's way to it, never a click. */
async function tabTo(target: Page, name: string | RegExp): Promise<void> {
  const seen: string[] = [];
  for (let step = 0; step < 120; step += 1) {
    await target.keyboard.press('Tab');
    const focused = await focusedName(target);
    seen.push(focused);
    if (typeof name === 'string' ? focused === name : name.test(focused)) return;
  }
  throw new Error(`Tab never reached ${String(name)}; passed ${seen.slice(-20).join(' | ')}`);
}

async function horizontalOverflow(target: Page): Promise<number> {
  return target.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));
}

async function versionsOf(): Promise<number[]> {
  const list = await api.call('GET', `/v1/definition-sources?workspaceId=${workspaceId}`);
  const source = (list.body as { items: { id: string; origin: string }[] }).items.find(
    (item) => item.origin === `project:${workspaceId}`,
  );
  const versions = await api.call('GET', `/v1/definition-sources/${source?.id ?? ''}/versions`);
  return (versions.body as { items: { version: number }[] }).items.map((item) => item.version);
}

describe('the source editor', () => {
  it(
    'opens the stored document with secrets as placeholders, adds a server with the keyboard alone, previews and saves',
    async () => {
      await open(page, sources());
      const list = page.getByRole('list', { name: 'Servers in this source' });
      await list.locator('[data-entry="deploy-tools"]').waitFor();
      await list.locator('[data-entry="docs"]').waitFor();
      expect(await page.content()).not.toContain(secret);
      await expectAccessible(page, 'source editor');
      await screenshot(page, 'source-editor');

      await page.locator('body').focus();
      await tabTo(page, 'Add a server');
      await page.keyboard.press('Enter');
      await page.locator('#entry-name').waitFor();
      await expect(focusedName(page)).resolves.toBe('Name');
      await page.keyboard.type('notes');
      await tabTo(page, 'Command');
      await page.keyboard.type('node');
      await tabTo(page, 'Arguments');
      await page.keyboard.type('/opt/notes/index.js');
      await tabTo(page, 'Add variable');
      await page.keyboard.press('Enter');
      await tabTo(page, 'Variable 1');
      await page.keyboard.type('NOTES_TOKEN');
      await page.keyboard.press('Tab');
      await page.keyboard.type('${NOTES_TOKEN}');
      // Bound to a variable nobody set: said at the entry, with where to set it.
      await page.locator('[data-unset-variable="NOTES_TOKEN"]').waitFor();
      await expectAccessible(page, 'entry form');
      await screenshot(page, 'source-editor-entry-form');
      await tabTo(page, 'Add to document');
      await page.keyboard.press('Enter');
      await list.locator('[data-entry="notes"]').waitFor();

      await tabTo(page, 'Preview changes');
      await page.keyboard.press('Enter');
      const preview = page.locator('#save-preview');
      await preview.waitFor();
      await expect(preview.locator('[data-preview-entry="notes"]').textContent()).resolves.toContain('added');
      await expect(preview.textContent()).resolves.toContain('Replaces version 1');
      await tabTo(page, 'Save source');
      await page.keyboard.press('Enter');
      await page.getByText(/Saved project:[0-9a-f-]+ as version 2: 3 servers\./).waitFor();

      // The stored secrets were kept: the whole document with them, as typed before, is what is stored now.
      const same = await api.call('POST', '/v1/definition-sources/preview', {
        tier: 'project',
        workspaceId,
        expectedVersion: 2,
        document: { mcpServers: { 'deploy-tools': deployTools, docs, notes } },
      });
      expect(same).toMatchObject({ status: 200, body: { nextVersion: null } });
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'saving an identical document changes nothing; an entry that does not decode is refused at its field',
    async () => {
      await open(page, sources());
      await page.getByRole('button', { name: 'Preview changes' }).click();
      await page.getByText('No changes', { exact: true }).waitFor();
      await expect(page.getByRole('button', { name: 'Save source' }).isDisabled()).resolves.toBe(true);
      expect(await versionsOf()).toEqual([2, 1]);

      await page.getByRole('button', { name: 'As JSON' }).click();
      const editor = page.getByLabel('Document (JSON)');
      const text = JSON.parse(await editor.inputValue()) as { mcpServers: Record<string, unknown> };
      text.mcpServers['broken'] = { type: 'stdio', command: 'x', args: 'not-a-list' };
      await editor.fill(JSON.stringify(text, null, 2));
      await page.getByRole('button', { name: 'Preview changes' }).click();
      await page.getByText('Fix these entries before saving').waitFor();
      await expect(page.getByRole('button', { name: 'Save source' }).isDisabled()).resolves.toBe(true);
      await page.getByRole('button', { name: 'Entry by entry' }).click();
      await page.getByRole('button', { name: 'Edit broken' }).click();
      await page.locator('[data-field-error="args"]').waitFor();
      await expect(page.locator('#entry-args').getAttribute('aria-invalid')).resolves.toBe('true');
      await expectAccessible(page, 'entry with a field error');
      await screenshot(page, 'source-editor-field-error');
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: 'Remove broken' }).click();
      await page.getByRole('button', { name: 'Preview changes' }).click();
      await page.getByText('No changes', { exact: true }).waitFor();
      expect(await versionsOf()).toEqual([2, 1]);
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'imports a .mcp.json file, and the preview names the approval going stale and the requests opening',
    async () => {
      await open(page, sources());
      await page.locator('#import-file').setInputFiles({
        name: 'team.mcp.json',
        mimeType: 'application/json',
        buffer: Buffer.from(
          JSON.stringify({ mcpServers: { search: { type: 'http', url: 'https://search.acme.test/mcp' } } }),
        ),
      });
      await page.getByText('Imported 1 servers from team.mcp.json; added search').waitFor();
      await page
        .getByRole('list', { name: 'Servers in this source' })
        .locator('[data-entry="search"]')
        .waitFor();

      // docs moves to another URL: its stored header secret cannot follow, so the header is bound to a variable.
      await page.getByRole('button', { name: 'Edit docs' }).click();
      await page.getByLabel('URL', { exact: true }).fill('https://docs.acme.test/v2/mcp');
      await page.getByLabel('Value of Authorization').fill('Bearer ${DOCS_TOKEN}');
      await page.getByRole('button', { name: 'Apply to document' }).click();
      await page.getByRole('button', { name: 'Preview changes' }).click();
      const preview = page.locator('#save-preview');
      await preview.waitFor();
      await expect(preview.locator('[data-preview-entry="search"]').textContent()).resolves.toContain(
        'added',
      );
      await expect(preview.locator('[data-preview-entry="docs"]').textContent()).resolves.toContain(
        'changed',
      );
      await preview.getByRole('list', { name: 'Approvals going stale' }).getByText('docs').waitFor();
      await preview.getByRole('list', { name: 'Approval requests' }).getByText('search').waitFor();
      await expectAccessible(page, 'save preview');
      await screenshot(page, 'source-editor-preview');
      await page.getByRole('button', { name: 'Save source' }).click();
      await page.getByText(/as version 3: 4 servers\./).waitFor();
      expect(await versionsOf()).toEqual([3, 2, 1]);
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'on a version conflict shows both versions, and keeps editing on top of the stored one',
    async () => {
      await open(page, sources());
      await page.getByRole('button', { name: 'Remove search' }).click();
      // Meanwhile someone else saves version 4.
      const list = await api.call('GET', `/v1/definition-sources?workspaceId=${workspaceId}`);
      const source = (list.body as { items: { id: string; origin: string }[] }).items.find(
        (item) => item.origin === `project:${workspaceId}`,
      );
      const stored = await api.call('GET', `/v1/definition-sources/${source?.id ?? ''}`);
      const editable = (stored.body as { editableDocument: { mcpServers: Record<string, unknown> } })
        .editableDocument;
      const theirs = await api.call('PUT', '/v1/definition-sources', {
        tier: 'project',
        workspaceId,
        expectedVersion: 3,
        document: {
          mcpServers: { ...editable.mcpServers, wiki: { type: 'http', url: 'https://wiki.acme.test/mcp' } },
        },
      });
      expect(theirs.status).toBe(200);

      await page.getByRole('button', { name: 'Preview changes' }).click();
      const conflict = page.locator('[data-conflict]');
      await conflict.getByRole('heading', { name: 'Someone saved version 4 while you edited' }).waitFor();
      await expect(conflict.getByLabel('Your version').textContent()).resolves.not.toContain('"search"');
      await expect(conflict.getByLabel('Stored version 4').textContent()).resolves.toContain('"wiki"');
      expect(await page.content()).not.toContain(secret);
      await expectAccessible(page, 'version conflict');
      await screenshot(page, 'source-editor-conflict');
      await conflict.getByRole('button', { name: 'Keep mine, on top of version 4' }).click();
      await page.getByRole('button', { name: 'Preview changes' }).click();
      const preview = page.locator('#save-preview');
      await expect(preview.textContent()).resolves.toContain('Replaces version 4');
      await expect(preview.locator('[data-preview-entry="search"]').textContent()).resolves.toContain(
        'removed',
      );
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'shows the history, and the diff of a version against the one before',
    async () => {
      await open(page, `${sources()}?tier=project&version=3`);
      const versions = page.getByRole('list', { name: 'Versions' });
      await versions.getByRole('link', { name: 'Version 4' }).waitFor();
      const table = page.getByRole('table', { name: 'Changes in version 3' });
      await table.locator('tr', { hasText: 'search' }).getByText('added').waitFor();
      await table.locator('tr', { hasText: 'docs' }).getByText('changed').waitFor();
      await table.locator('tr', { hasText: 'docs' }).getByText('https://docs.acme.test/v2/mcp').waitFor();
      expect(await page.content()).not.toContain(secret);
      await expectAccessible(page, 'source history');
      await screenshot(page, 'source-history');
      await versions.getByRole('link', { name: 'Version 2' }).click();
      await page
        .getByRole('table', { name: 'Changes in version 2' })
        .locator('tr', { hasText: 'notes' })
        .waitFor();
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'fits a 390 px screen with no horizontal page scroll, editing and previewing',
    async () => {
      const phone = await newTestContext(browser, PHONE);
      try {
        const mobile = await phone.newPage();
        await signInInBrowser(mobile, stack.dashboardUrl, stack.owner);
        await open(mobile, sources());
        await mobile.getByRole('list', { name: 'Servers in this source' }).waitFor();
        expect(await horizontalOverflow(mobile)).toBe(0);
        await mobile.getByRole('button', { name: 'Edit deploy-tools' }).click();
        await mobile.locator('#entry-name').waitFor();
        expect(await horizontalOverflow(mobile)).toBe(0);
        await expectAccessible(mobile, 'entry form at 390 px');
        await screenshot(mobile, 'source-editor-mobile');
        await mobile.getByRole('button', { name: 'Cancel' }).click();
        await mobile.getByRole('button', { name: 'Preview changes' }).click();
        await mobile.locator('#save-preview').waitFor();
        expect(await horizontalOverflow(mobile)).toBe(0);
        await open(mobile, `${sources()}?tier=project&version=3`);
        await mobile.getByRole('table', { name: 'Changes in version 3' }).waitFor();
        expect(await horizontalOverflow(mobile)).toBe(0);
        await screenshot(mobile, 'source-history-mobile');
      } finally {
        await phone.close();
      }
    },
    FLOW_TIMEOUT_MS,
  );
});
