import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoopbackDocuments, OidcProviderProcess } from '@gatehouse/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
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
import { REPOSITORY_ROOT, startDashboardStack, type DashboardStack } from './dashboard-stack.harness';
import { startWorker } from './worker-process.harness';

// The catalog, the Connections page and the Gateway panel (issues 14, 15 and 16, dashboard items), in a real
// browser against real processes: the built API and worker, Postgres, Redis, @modelcontextprotocol/server-everything
// discovered by the worker after an approval and again after "Refresh now", and an OAuth sign-in through a real
// authorization server (oidc-provider on loopback) in front of a protected-resource document. Every page is
// checked with axe and at 390 px for horizontal overflow, with screenshots.

const SETUP_TIMEOUT_MS = 300_000;
const FLOW_TIMEOUT_MS = 180_000;
const PHONE = { width: 390, height: 844 };
const EVERYTHING = join(REPOSITORY_ROOT, 'node_modules', '.bin', 'mcp-server-everything');
const POOL = 'catalog';
const GATEWAY_URL = 'http://127.0.0.1:4200';

let stack: DashboardStack;
let provider: OidcProviderProcess;
let resource: LoopbackDocuments;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let mobile: Page;
let api: ApiSession;
let workspaceId = '';
/** The discovery worker's token: the connections case leases and probes with it as that worker would. */
let workerSecret = '';
const roots = mkdtempSync(join(tmpdir(), 'gh-e2e-worker-'));

interface CatalogServer {
  name: string;
  state: string;
  fetchedAt: string | null;
}

/** Long-polls the owner's catalog (ETag + ?wait=) until `done` holds: the API answers early on any change. */
async function awaitCatalog(done: (servers: CatalogServer[]) => boolean): Promise<CatalogServer[]> {
  let etag: string | null = null;
  let servers: CatalogServer[] = [];
  for (let round = 0; round < 12; round += 1) {
    const answer = await api.call(
      'GET',
      `/v1/workspaces/${workspaceId}/catalog${etag === null ? '' : '?wait=20'}`,
      undefined,
      etag === null ? {} : { 'if-none-match': etag },
    );
    if (answer.status === 200) {
      servers = (answer.body as { servers: CatalogServer[] }).servers;
      etag = answer.etag;
      if (done(servers)) return servers;
    } else {
      expect(answer.status).toBe(304);
    }
  }
  throw new Error(`the catalog never got there: ${JSON.stringify(servers)}\n${stack.logs()}`);
}

const discovered = (name: string) => (servers: CatalogServer[]) =>
  servers.some((server) => server.name === name && server.state === 'discovered');

/**
 * A workspace with server-everything (stdio, run by the worker of a pool that allows exactly it), a server no
 * pool may run (approved, so it waits for discovery forever), and an OAuth-protected HTTP server whose resource
 * document names the authorization server.
 */
async function setTheScene(): Promise<void> {
  api = await apiSession(stack, stack.owner);
  const created = await expectStatus<{ id: string }>(
    api.call('POST', '/v1/workspaces', {
      name: 'catalog-space',
      repositoryIdentity: 'github.com/acme/catalog',
    }),
    201,
  );
  workspaceId = created.id;
  await allowOnlyStdioCommand(api, [EVERYTHING, 'stdio']);
  const serverUrl = `${resource.origin}/mcp`;
  resource.json('/.well-known/oauth-protected-resource/mcp', {
    resource: serverUrl,
    authorization_servers: [provider.issuer],
  });
  resource.json('/.well-known/oauth-protected-resource/shared', {
    resource: `${resource.origin}/shared`,
    authorization_servers: [provider.issuer],
  });
  await expectStatus(
    api.call('PUT', '/v1/definition-sources', {
      tier: 'managed',
      name: 'catalog',
      document: {
        mcpServers: {
          everything: { type: 'stdio', command: EVERYTHING, args: ['stdio'] },
          notes: { type: 'stdio', command: 'node', args: ['/opt/notes/index.js'] },
          signin: { type: 'http', url: serverUrl, oauth: { scopes: ['openid'] } },
          shared: {
            type: 'http',
            url: `${resource.origin}/shared`,
            oauth: { scopes: ['mcp:tools'], allowSharedCredential: true },
          },
        },
      },
    }),
    200,
  );
  workerSecret = await mintWorkerToken(api, 'worker discovery', POOL);
  await startWorker(stack, { token: workerSecret, pool: POOL });
  await reviewAndApprove(api, workspaceId, 'everything');
  await reviewAndApprove(api, workspaceId, 'notes');
  await awaitCatalog(discovered('everything'));
}

beforeAll(async () => {
  [provider, resource] = await Promise.all([
    OidcProviderProcess.start({ clients: [] }),
    LoopbackDocuments.start(),
  ]);
  stack = await startDashboardStack({
    gatewayUrl: GATEWAY_URL,
    pools: {
      // Sorts before `default`: the OAuth egress and the catalog routing take the first pool (by name) that fits.
      [POOL]: {
        tenants: '*',
        stdio: true,
        commandCeiling: [[EVERYTHING]],
        allowedRoots: [roots],
        allowInsecureLoopback: true,
      },
    },
  });
  await setTheScene();
  browser = await launchBrowser();
  context = await newTestContext(browser);
  page = await context.newPage();
  await signInInBrowser(page, stack.dashboardUrl, stack.owner);
  const phone = await newTestContext(browser, PHONE);
  mobile = await phone.newPage();
  await signInInBrowser(mobile, stack.dashboardUrl, stack.owner);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await Promise.all([provider?.stop(), resource?.stop()]);
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

/** Waits for `locator`; a timeout names the page the browser is on, what it says, and the processes' logs. */
async function waitOrExplain(target: Page, locator: ReturnType<Page['locator']>): Promise<void> {
  try {
    await locator.waitFor();
  } catch (error) {
    const text = await target
      .locator('main')
      .innerText()
      .catch(() => '(no main)');
    throw new Error(
      `${String(error)}\nat ${target.url()}\n${text.slice(0, 3000)}\n${stack.logs().slice(-6000)}`,
    );
  }
}

const serverPage = (name: string) => `/servers/${workspaceId}/server/${name}?view=principal`;

describe('the catalog in the dashboard', () => {
  it(
    'shows what the worker discovered: tools with their axes, prompts, resources, and when',
    async () => {
      await open(page, serverPage('everything'));
      const panel = page.locator('#server-catalog');
      await panel.getByText('Up to date').first().waitFor();
      await panel.getByText('mcp__everything__echo', { exact: true }).waitFor();
      const echo = panel.getByRole('row').filter({ hasText: 'mcp__everything__echo' });
      await expect(echo.getByText(/Writes \(the safe default\)|Reads only/).count()).resolves.toBeGreaterThan(
        0,
      );
      await panel.getByRole('heading', { name: 'Prompts' }).waitFor();
      await panel.getByRole('heading', { name: 'Resources' }).waitFor();
      await expect(
        panel.getByRole('list', { name: 'Prompts of everything' }).locator('li').count(),
      ).resolves.toBeGreaterThan(0);
      await expect(
        panel.getByRole('list', { name: 'Resources of everything' }).locator('li').count(),
      ).resolves.toBeGreaterThan(0);
      await expect(panel.locator('time').first().getAttribute('datetime')).resolves.toMatch(/^\d{4}-/);
      await expectAccessible(page, 'server catalog');
      await screenshot(page, 'server-catalog');

      await open(mobile, serverPage('everything'));
      await mobile.locator('#server-catalog').getByText('mcp__everything__echo', { exact: true }).waitFor();
      await expectNoHorizontalOverflow(mobile, 'server catalog at 390 px');
      await expectAccessible(mobile, 'server catalog at 390 px');
      await screenshot(mobile, 'mobile-server-catalog');
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    '"Refresh now" queues a discovery the worker runs: the last refresh moves on',
    async () => {
      const before = (await awaitCatalog(discovered('everything'))).find(
        (server) => server.name === 'everything',
      );
      await open(page, serverPage('everything'));
      await page.locator('#server-catalog').getByRole('button', { name: 'Refresh now' }).click();
      await page
        .getByText(/A refresh of everything (is queued for a worker of pool catalog|was already waiting)/)
        .waitFor();
      const after = await awaitCatalog((servers) =>
        servers.some(
          (server) =>
            server.name === 'everything' &&
            server.fetchedAt !== null &&
            server.fetchedAt !== before?.fetchedAt,
        ),
      );
      const fetchedAt = after.find((server) => server.name === 'everything')?.fetchedAt ?? '';
      await open(page, serverPage('everything'));
      await expect(page.locator('#server-catalog time').first().getAttribute('datetime')).resolves.toBe(
        fetchedAt,
      );
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'marks a server no pool may run as not discovered, on its page, on the servers list and on the overview',
    async () => {
      await open(page, serverPage('notes'));
      await page.locator('#server-catalog').getByText('Not discovered yet').first().waitFor();
      await expect(
        page.locator('#server-catalog').getByRole('button', { name: 'Refresh now' }).count(),
      ).resolves.toBe(1);

      await open(page, `/servers/${workspaceId}`);
      const row = page.getByRole('row').filter({ hasText: 'notes' }).first();
      await row.getByText('Not discovered yet').waitFor();
      await expectAccessible(page, 'servers list with catalog marks');

      await open(page, '/overview');
      const attention = page.locator('#needs-attention');
      await attention.getByText('notes in catalog-space: not discovered yet').waitFor();
      await expect(attention.getByText(/everything in catalog-space/).count()).resolves.toBe(0);
      await attention.getByRole('link', { name: 'Open notes' }).click();
      await page.waitForURL((address) => address.pathname === `/servers/${workspaceId}/server/notes`);
      await open(page, '/overview');
      await expectAccessible(page, 'overview with servers in trouble');
      await screenshot(page, 'overview-servers-in-trouble');
      await open(mobile, '/overview');
      await expectNoHorizontalOverflow(mobile, 'overview at 390 px');
    },
    FLOW_TIMEOUT_MS,
  );
});

describe('the Catalog page', () => {
  it(
    "lists the workspace's approved servers with their marks and counts, each linking to its whole catalog",
    async () => {
      await awaitCatalog(discovered('everything'));
      await open(page, `/catalog?workspace=${workspaceId}`);
      const everything = page.getByRole('row').filter({ hasText: 'everything' }).first();
      await everything.getByText('Up to date').waitFor();
      // The tools column counts what the worker discovered: server-everything has more than a handful.
      const tools = Number(await everything.locator('td').nth(2).innerText());
      expect(tools).toBeGreaterThan(5);
      const notes = page.getByRole('row').filter({ hasText: 'notes' }).first();
      await notes.getByText('Not discovered yet').waitFor();
      await expectAccessible(page, 'catalog page');
      await everything.getByRole('link', { name: 'everything' }).click();
      await page.waitForURL((address) => address.pathname === `/servers/${workspaceId}/server/everything`);
      await page.locator('#server-catalog').getByText('mcp__everything__echo', { exact: true }).waitFor();
      await open(mobile, `/catalog?workspace=${workspaceId}`);
      await expectNoHorizontalOverflow(mobile, 'catalog page at 390 px');
    },
    FLOW_TIMEOUT_MS,
  );
});

describe('the connections of a server', () => {
  /** A call as the discovery worker (its token, not a session): what a worker's lease and probe report send. */
  async function asWorker(path: string, body: unknown): Promise<Record<string, unknown>> {
    const response = await fetch(`${stack.apiUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${workerSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(answer)}`);
    return answer;
  }

  const report = (leaseId: unknown, outcome: Record<string, unknown>) =>
    asWorker(`/v1/leases/${String(leaseId)}/probe`, {
      failureClass: null,
      reason: null,
      protocolVersion: null,
      serverVersion: null,
      ...outcome,
    });

  it(
    'shows the connection state with its failure class and who holds a live lease, and drops a released one',
    async () => {
      // The sweep that schedules probes is off under NODE_ENV=test: the test holds a lease with the discovery
      // worker's token and reports what a probe found, through the same commands the worker's probe job calls.
      const lease = await asWorker('/v1/leases', { workspaceId, serverName: 'everything' });
      await report(lease.id, { state: 'failed', failureClass: 'transient', reason: 'startup_timeout' });

      await open(page, serverPage('everything'));
      const panel = page.locator('#server-connections');
      await waitOrExplain(page, panel.getByText('Failed', { exact: true }));
      await panel.getByText('Transient', { exact: true }).waitFor();
      await panel.getByText(/the next probe tries again\. \(startup timeout\)/).waitFor();
      const holder = panel.getByRole('row').filter({ hasText: 'worker discovery' });
      await holder.getByText('Worker token').waitFor();
      await holder.getByText(POOL, { exact: true }).waitFor();
      await holder.getByText('The workspace').waitFor();
      await expectAccessible(page, 'server connections, failed');
      await screenshot(page, 'server-connections');

      await open(mobile, serverPage('everything'));
      await mobile.locator('#server-connections').getByText('worker discovery').waitFor();
      await expectNoHorizontalOverflow(mobile, 'server connections at 390 px');
      await expectAccessible(mobile, 'server connections at 390 px');
      await screenshot(mobile, 'mobile-server-connections');

      // The next report replaces it; a released lease holds nothing.
      await report(lease.id, { state: 'ready', protocolVersion: '2025-11-25', serverVersion: '2.0.0' });
      await asWorker(`/v1/leases/${String(lease.id)}/release`, {});
      await open(page, serverPage('everything'));
      await panel.getByText('Connected', { exact: true }).waitFor();
      await panel.getByText('No live leases').waitFor();
      await expect(panel.getByText('Failed', { exact: true }).count()).resolves.toBe(0);
    },
    FLOW_TIMEOUT_MS,
  );
});

describe('the lease holders of a server, paged', () => {
  it(
    'pages the live leases newest first with Next and Previous links, past the first page',
    async () => {
      const issue = async () => {
        const response = await fetch(`${stack.apiUrl}/v1/leases`, {
          method: 'POST',
          headers: { authorization: `Bearer ${workerSecret}`, 'content-type': 'application/json' },
          body: JSON.stringify({ workspaceId, serverName: 'everything' }),
        });
        expect(response.status).toBe(201);
        return ((await response.json()) as { id: string }).id;
      };
      // One more than the smallest page: the oldest is alone on the second page.
      const leases: string[] = [];
      for (let i = 0; i < 11; i += 1) leases.push(await issue());
      try {
        // Every live holder (the test's eleven, and any lease the discovery worker holds right now).
        const status = await expectStatus<{ leaseHolders: { items: unknown[] } }>(
          api.call('GET', `/v1/workspaces/${workspaceId}/servers/everything/status?limit=100`),
          200,
        );
        const secondPage = status.leaseHolders.items.length - 10;
        expect(secondPage).toBeGreaterThanOrEqual(1);
        await open(page, `${serverPage('everything')}&limit=10`);
        const panel = page.locator('#server-connections');
        const holders = panel.getByRole('row').filter({ hasText: 'worker discovery' });
        await waitOrExplain(page, panel.getByRole('link', { name: 'Next page' }));
        await expect(holders.count()).resolves.toBe(10);
        await expectAccessible(page, 'lease holders, first page');

        await panel.getByRole('link', { name: 'Next page' }).click();
        await panel.getByRole('link', { name: 'Previous' }).waitFor();
        await expect(holders.count()).resolves.toBe(secondPage);
        await expect(panel.getByRole('link', { name: 'Next page' }).count()).resolves.toBe(0);
        // The page kept the server page's view and the page size.
        expect(new URL(page.url()).searchParams.get('view')).toBe('principal');
        expect(new URL(page.url()).searchParams.get('limit')).toBe('10');

        await panel.getByRole('link', { name: 'Previous' }).click();
        await panel.getByRole('link', { name: 'Next page' }).waitFor();
        await expect(holders.count()).resolves.toBe(10);
      } finally {
        for (const leaseId of leases) {
          await fetch(`${stack.apiUrl}/v1/leases/${leaseId}/release`, {
            method: 'POST',
            headers: { authorization: `Bearer ${workerSecret}`, 'content-type': 'application/json' },
            body: '{}',
          });
        }
      }
    },
    FLOW_TIMEOUT_MS,
  );
});

describe('the Connections page', () => {
  it(
    'signs in through the authorization server, shows the state word, issuer and expiry, and signs out',
    async () => {
      // Before: the servers list says the OAuth server needs a sign-in.
      await open(page, `/servers/${workspaceId}`);
      await page
        .getByRole('row')
        .filter({ hasText: 'signin' })
        .first()
        .getByRole('link', { name: 'Needs sign-in' })
        .click();
      await page.waitForURL((address) => address.pathname === '/connections');
      const servers = page.locator('#connections-servers');
      const row = servers.getByRole('row').filter({ hasText: 'signin' });
      await row.getByText('Signed out').waitFor();
      await expectAccessible(page, 'connections, signed out');
      await screenshot(page, 'connections-signed-out');

      // Sign in: the browser goes to oidc-provider, which sends it back to the API's callback; that hands the
      // redirect on to the dashboard, which finishes it with its own session and lands on Connections.
      const callback = `${stack.apiUrl}/v1/oauth/callback`;
      const seen: string[] = [];
      page.on('request', (request) => {
        if (request.url().startsWith(callback)) seen.push(request.url());
      });
      await row.getByRole('button', { name: 'Sign in to signin' }).click();
      const refused = row.locator('[data-problem-code]');
      await Promise.race([
        page.waitForURL(
          (address) => address.pathname === '/connections' && address.searchParams.has('signedIn'),
          {
            timeout: 60_000,
          },
        ),
        refused.waitFor({ timeout: 60_000 }).then(async () => {
          throw new Error(`the sign-in did not start: ${await refused.textContent()}`);
        }),
      ]).catch(async (error: unknown) => {
        throw new Error(
          `${String(error)}\nat ${page.url()}\n${(await page.content()).slice(0, 2000)}\n${stack.logs()}`,
        );
      });
      expect(seen).toHaveLength(1);
      const redirect = new URL(seen[0] ?? '');
      expect(redirect.searchParams.get('code')).toBeTruthy();
      expect(redirect.searchParams.get('iss')).toBe(provider.issuer);
      expect(page.url()).not.toContain(redirect.searchParams.get('code') ?? 'no code');
      await page.getByText(`Signed in at ${provider.issuer} for ${resource.origin}/mcp.`).waitFor();
      await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
      const signedIn = page.locator('#connections-servers').getByRole('row').filter({ hasText: 'signin' });
      await signedIn.getByText('Signed in', { exact: true }).waitFor();
      await signedIn.getByText(provider.issuer).waitFor();
      await signedIn.getByText('Yours').waitFor();
      await expect(signedIn.locator('time').getAttribute('datetime')).resolves.toMatch(/^\d{4}-/);
      const held = page.locator('#connections-credentials');
      await held.getByText(`${resource.origin}/mcp`, { exact: true }).waitFor();
      expect(await page.content()).not.toContain(redirect.searchParams.get('code') ?? 'no code');
      await expectAccessible(page, 'connections, signed in');
      await screenshot(page, 'connections-signed-in');
      await open(mobile, `/connections?workspace=${workspaceId}`);
      await mobile.locator('#connections-servers').getByText('Signed in', { exact: true }).waitFor();
      await expectNoHorizontalOverflow(mobile, 'connections at 390 px');
      await expectAccessible(mobile, 'connections at 390 px');
      await screenshot(mobile, 'mobile-connections');

      // The same redirect pasted into the form is refused: a redirect is accepted once.
      await open(page, `/connections?workspace=${workspaceId}`);
      await page.getByLabel('Address you were sent back to').fill(redirect.href);
      await page.getByRole('button', { name: 'Finish sign-in' }).click();
      await page.locator('#connections-finish [data-problem-code]').waitFor();
      await expectAccessible(page, 'connections, a refused redirect');

      // The servers list no longer asks for a sign-in.
      await open(page, `/servers/${workspaceId}`);
      await expect(
        page
          .getByRole('row')
          .filter({ hasText: 'signin' })
          .first()
          .getByRole('link', { name: 'Needs sign-in' })
          .count(),
      ).resolves.toBe(0);

      // Sign out.
      await open(page, `/connections?workspace=${workspaceId}`);
      await page.locator('#connections-servers').getByRole('button', { name: 'Sign out of signin' }).click();
      await page.waitForURL((address) => address.searchParams.has('signedOut'));
      await page.getByText(/^Signed out\. The authorization server revoked the tokens too\./).waitFor();
      await open(page, `/connections?workspace=${workspaceId}`);
      await page
        .locator('#connections-servers')
        .getByRole('row')
        .filter({ hasText: 'signin' })
        .getByText('Signed out')
        .waitFor();
    },
    FLOW_TIMEOUT_MS,
  );
});

describe('a workspace service credential', () => {
  it(
    'lets an owner share their sign-in with the workspace, see it serve the server and listed, and sign it out',
    async () => {
      await open(page, `/connections?workspace=${workspaceId}`);
      const row = () => page.locator('#connections-servers').getByRole('row').filter({ hasText: 'shared' });
      await row().getByRole('button', { name: 'Sign in to shared' }).click();
      await page.waitForURL(
        (address) => address.pathname === '/connections' && address.searchParams.has('signedIn'),
        { timeout: 60_000 },
      );
      await page.getByText(`Signed in at ${provider.issuer} for ${resource.origin}/shared.`).waitFor();
      await open(page, `/connections?workspace=${workspaceId}`);
      await row().getByText('Yours').waitFor();
      await row().getByRole('button', { name: 'Share with the workspace (shared)' }).click();
      await waitOrExplain(page, page.getByText('Shared with the workspace', { exact: true }));
      // It moved: the owner holds no sign-in of their own for it any more, and the workspace's serves it.
      await row().getByText('Signed in (workspace credential)', { exact: true }).waitFor();
      await row().getByText('Workspace service credential', { exact: true }).waitFor();
      await row().getByText(provider.issuer).waitFor();
      await expect(
        page
          .locator('#connections-credentials')
          .getByText(`${resource.origin}/shared`, { exact: true })
          .count(),
      ).resolves.toBe(0);
      // The owner sees it listed among the workspace's service credentials, with its word, issuer and expiry.
      const services = page.locator('#connections-service-credentials');
      const listed = services.getByRole('row').filter({ hasText: `${resource.origin}/shared` });
      await listed.getByText('Signed in', { exact: true }).waitFor();
      await listed.getByText(provider.issuer).waitFor();
      await expect(listed.locator('time').getAttribute('datetime')).resolves.toMatch(/^\d{4}-/);
      // The servers list agrees: nothing asks for a sign-in the workspace's credential already gives.
      await open(page, `/servers/${workspaceId}`);
      await expect(
        page
          .getByRole('row')
          .filter({ hasText: 'shared' })
          .first()
          .getByRole('link', { name: 'Needs sign-in' })
          .count(),
      ).resolves.toBe(0);
      await open(page, `/connections?workspace=${workspaceId}`);
      await listed.waitFor();
      // The pointer rests where "Share" was, over the "Sign in" that took its place: measured at rest.
      await page.mouse.move(0, 0);
      await expectAccessible(page, 'connections with a service credential');
      await screenshot(page, 'connections-service-credential');
      await open(mobile, `/connections?workspace=${workspaceId}`);
      await mobile
        .locator('#connections-service-credentials')
        .getByText(`${resource.origin}/shared`, { exact: true })
        .waitFor();
      await expectNoHorizontalOverflow(mobile, 'connections with a service credential at 390 px');
      await expectAccessible(mobile, 'connections with a service credential at 390 px');
      await screenshot(mobile, 'mobile-connections-service-credential');

      // A member is served by it too, and sees so: the word, whose, the issuer; neither the workspace's service
      // credentials panel nor its sign-out, which are for owners and admins (decision 0102).
      const memberContext = await newTestContext(browser);
      try {
        const memberPage = await memberContext.newPage();
        await signInInBrowser(memberPage, stack.dashboardUrl, stack.member);
        await open(memberPage, `/connections?workspace=${workspaceId}`);
        const memberRow = memberPage
          .locator('#connections-servers')
          .getByRole('row')
          .filter({ hasText: 'shared' });
        await waitOrExplain(
          memberPage,
          memberRow.getByText('Signed in (workspace credential)', { exact: true }),
        );
        await memberRow.getByText('Workspace service credential', { exact: true }).waitFor();
        await memberRow.getByText(provider.issuer).waitFor();
        await expect(memberPage.locator('#connections-service-credentials').count()).resolves.toBe(0);
        await expect(
          memberPage.getByRole('button', { name: /^Sign out the workspace credential/ }).count(),
        ).resolves.toBe(0);
        await expectAccessible(memberPage, 'connections of a member served by the workspace credential');
        await open(memberPage, `/servers/${workspaceId}`);
        await expect(
          memberPage
            .getByRole('row')
            .filter({ hasText: 'shared' })
            .first()
            .getByRole('link', { name: 'Needs sign-in' })
            .count(),
        ).resolves.toBe(0);
      } finally {
        await memberContext.close();
      }

      // Signed out: deleted, revoked at the issuer, no longer listed, and the server reads signed out.
      await listed
        .getByRole('button', { name: `Sign out the workspace credential for ${resource.origin}/shared` })
        .click();
      await page.waitForURL((address) => address.searchParams.has('signedOut'));
      await page.getByText(/^Signed out\. The authorization server revoked the tokens too\./).waitFor();
      await open(page, `/connections?workspace=${workspaceId}`);
      await row().getByText('Signed out', { exact: true }).waitFor();
      await expect(listed.count()).resolves.toBe(0);
      await page.getByText('No service credentials', { exact: true }).waitFor();
      await expectAccessible(page, 'connections after the service credential is signed out');
    },
    FLOW_TIMEOUT_MS,
  );
});

describe('the Gateway panel', () => {
  it(
    "shows the workspace's endpoint and client configuration to copy, with no token in it",
    async () => {
      const endpoint = `${GATEWAY_URL}/mcp/w/${workspaceId}`;
      await open(page, `/workspaces/${workspaceId}`);
      const panel = page.locator('#workspace-gateway');
      await panel.getByText(endpoint, { exact: true }).waitFor();
      const snippets = await panel.locator('pre').allTextContents();
      const mcpJson = JSON.parse(snippets[1] ?? '{}') as {
        mcpServers: Record<string, { type: string; url: string; headers: Record<string, string> }>;
      };
      expect(mcpJson.mcpServers['gatehouse-catalog-space']).toEqual({
        type: 'http',
        url: endpoint,
        headers: { Authorization: 'Bearer ${GATEHOUSE_TOKEN}' },
      });
      expect(snippets[2]).toContain(`claude mcp add --transport http gatehouse-catalog-space ${endpoint}`);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.dashboardUrl });
      await panel.getByRole('button', { name: 'Copy .mcp.json' }).click();
      await panel.getByText('Copied to the clipboard.').waitFor();
      await expectAccessible(page, 'workspace gateway panel');
      await screenshot(page, 'workspace-gateway');

      await open(page, '/gateway');
      await page.getByRole('link', { name: 'catalog-space' }).waitFor();
      await page.getByText(endpoint).first().waitFor();
      await expectAccessible(page, 'gateway page');

      await open(mobile, `/workspaces/${workspaceId}`);
      await waitOrExplain(mobile, mobile.locator('#workspace-gateway').getByText(endpoint, { exact: true }));
      await expectNoHorizontalOverflow(mobile, 'workspace gateway panel at 390 px');
      await screenshot(mobile, 'mobile-workspace-gateway');
    },
    FLOW_TIMEOUT_MS,
  );
});
