import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  allowOnlyStdioCommand,
  apiSession,
  expectStatus,
  mintWorkerToken,
  reviewAndApprove,
  type ApiSession,
} from './api-steps.harness';
import { launchBrowser, newTestContext, signInInBrowser } from './browser.harness';
import { REPOSITORY_ROOT, startDashboardStack, type DashboardStack } from './dashboard-stack.harness';
import { startWorker } from './worker-process.harness';

// The lease secret canary (docs/architecture/leases-and-revocation.md), dashboard half: "the secret appears
// in the lease response to its holder and nowhere else: ... dashboard". A definition plants a secret env
// value in server-everything; the built worker discovers it (its lease carried the secret, its snapshot is
// stored) and a second worker token holds a live lease, whose response shows the secret to it (the canary is
// real). Then every page that shows the server, its catalog, its lease holders, its connections or the audit
// trail is opened in a real browser, and neither the rendered page nor any response the dashboard sent the
// browser (HTML, RSC payloads) contains the secret.

const SETUP_TIMEOUT_MS = 300_000;
const FLOW_TIMEOUT_MS = 180_000;
const EVERYTHING = join(REPOSITORY_ROOT, 'node_modules', '.bin', 'mcp-server-everything');
const POOL = 'canary';
const CANARY = `cnry${randomBytes(6).toString('hex')}LeaseEnv3`;

let stack: DashboardStack;
let browser: Browser;
let page: Page;
let api: ApiSession;
let workspaceId = '';
let leaseHolderToken = '';
const roots = mkdtempSync(join(tmpdir(), 'gh-e2e-canary-'));

/** Long-polls the owner's catalog (ETag + ?wait=) until server-everything is discovered. */
async function awaitDiscovery(): Promise<void> {
  let etag: string | null = null;
  let last = '';
  for (let round = 0; round < 12; round += 1) {
    const answer = await api.call(
      'GET',
      `/v1/workspaces/${workspaceId}/catalog${etag === null ? '' : '?wait=20'}`,
      undefined,
      etag === null ? {} : { 'if-none-match': etag },
    );
    if (answer.status === 304) continue;
    expect(answer.status).toBe(200);
    etag = answer.etag;
    last = answer.text;
    const { servers } = answer.body as { servers: { name: string; state: string }[] };
    if (servers.some((server) => server.name === 'everything' && server.state === 'discovered')) return;
  }
  throw new Error(`server-everything was never discovered: ${last}\n${stack.logs()}`);
}

async function setTheScene(): Promise<void> {
  api = await apiSession(stack, stack.owner);
  workspaceId = (
    await expectStatus<{ id: string }>(
      api.call('POST', '/v1/workspaces', {
        name: 'canary-space',
        repositoryIdentity: 'github.com/acme/canary',
      }),
      201,
    )
  ).id;
  await allowOnlyStdioCommand(api, [EVERYTHING, 'stdio']);
  await expectStatus(
    api.call('PUT', '/v1/definition-sources', {
      tier: 'managed',
      name: 'canary',
      document: {
        mcpServers: {
          everything: { type: 'stdio', command: EVERYTHING, args: ['stdio'], env: { CANARY_KEY: CANARY } },
        },
      },
    }),
    200,
  );
  await startWorker(stack, { token: await mintWorkerToken(api, 'worker discovery', POOL), pool: POOL });
  await reviewAndApprove(api, workspaceId, 'everything');
  await awaitDiscovery();
  leaseHolderToken = await mintWorkerToken(api, 'lease holder', POOL);
}

beforeAll(async () => {
  stack = await startDashboardStack({
    pools: {
      // Sorts before `default`: catalog routing takes the first pool (by name) that fits.
      [POOL]: {
        tenants: '*',
        stdio: true,
        commandCeiling: [[EVERYTHING]],
        allowedRoots: [roots],
        childEnvKeys: ['CANARY_KEY'],
      },
    },
  });
  await setTheScene();
  browser = await launchBrowser();
  const context = await newTestContext(browser);
  page = await context.newPage();
  await signInInBrowser(page, stack.dashboardUrl, stack.owner);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  rmSync(roots, { recursive: true, force: true });
}, 60_000);

/** Everything the dashboard sent the browser while opening `path` (documents, RSC payloads), then the DOM. */
async function whatTheBrowserGot(path: string): Promise<string> {
  const bodies: Promise<string>[] = [];
  const collect = (response: { url(): string; text(): Promise<string> }) => {
    if (response.url().startsWith(stack.dashboardUrl)) bodies.push(response.text().catch(() => ''));
  };
  page.on('response', collect);
  try {
    await page.goto(`${stack.dashboardUrl}${path}`);
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    await page.waitForLoadState('networkidle');
    const main = await page.locator('main').innerText();
    // A page that failed to render would pass the canary check by showing nothing.
    expect({ path, failed: main.includes('Something went wrong') }).toEqual({ path, failed: false });
    return [...(await Promise.all(bodies)), await page.content()].join('\n');
  } finally {
    page.off('response', collect);
  }
}

describe('a lease secret in the dashboard (secret canary)', () => {
  it(
    'is in the live lease answered to its holder, and on no dashboard page once the catalog and the lease exist',
    async () => {
      const issued = await fetch(`${stack.apiUrl}/v1/leases`, {
        method: 'POST',
        headers: { authorization: `Bearer ${leaseHolderToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ workspaceId, serverName: 'everything' }),
      });
      const leaseText = await issued.text();
      expect(issued.status).toBe(201);
      // The canary is real: the lease materializes the env for its holder.
      expect(leaseText).toContain(CANARY);

      const server = `/servers/${workspaceId}/server/everything`;
      const pages = [
        '/overview',
        `/servers/${workspaceId}`,
        `${server}?view=workspace`,
        `${server}?view=principal`,
        `/connections?workspace=${workspaceId}`,
        `/workspaces/${workspaceId}`,
        '/approvals',
        '/audit',
        '/tokens',
      ];
      const detail = await whatTheBrowserGot(`${server}?view=workspace`);
      // The page shows the catalog the worker stored, so the secret had somewhere to leak from.
      expect(detail).toContain('mcp__everything__echo');
      // It names the env key whose value is the secret, and the live lease's holder (the worker token's name).
      expect(detail).toContain('CANARY_KEY');
      expect(detail).toContain('lease holder');
      for (const path of pages) {
        const got = path === `${server}?view=workspace` ? detail : await whatTheBrowserGot(path);
        expect({ path, leaked: got.includes(CANARY) }).toEqual({ path, leaked: false });
      }
      const audit = await api.call('GET', '/v1/audit-events');
      expect(audit.status).toBe(200);
      expect(audit.text).not.toContain(CANARY);
    },
    FLOW_TIMEOUT_MS,
  );
});
