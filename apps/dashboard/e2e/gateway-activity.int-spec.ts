import {
  callField,
  encodeReplicaSessions,
  epochMinuteOf,
  gatewayMinuteKey,
  gatewaySessionsKey,
  refusalField,
} from '@gatehouse/contracts';
import { testRedisUrl } from '@gatehouse/testing';
import { Redis } from 'ioredis';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newTestContext, screenshot, seriousA11yViolations } from './browser.harness';
import { startDashboardStack, type DashboardStack, type Person } from './dashboard-stack.harness';

// The Gateway panel's live numbers (decision 0118) in a real browser against the built
// dashboard and API: two gateway replicas' flushes are written to Redis under the stack's REDIS_KEY_PREFIX in
// the layout the gateway's recorder uses (libs/contracts' gateway-activity keys; the recorder itself is
// tested against real Redis and a real gateway in apps/gateway), one replica stale. The workspace page's
// panel shows the live sessions (the stale replica not counted), the calls and the refusals by reason in
// words; "Refresh the counts" shows a later flush; /gateway lists the numbers per workspace. axe-clean; no
// horizontal overflow at 390 px.

const SETUP_TIMEOUT_MS = 300_000;
const FLOW_TIMEOUT_MS = 120_000;
const GATEWAY_URL = 'http://127.0.0.1:4200';

let stack: DashboardStack;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let mobile: Page;
let workspaceId = '';
const redis = new Redis(testRedisUrl(), { lazyConnect: true, maxRetriesPerRequest: 1 });

async function createWorkspace(person: Person, name: string): Promise<string> {
  const login = await fetch(`${stack.apiUrl}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: person.email, password: person.password }),
  });
  expect(login.status).toBe(200);
  const cookie = (login.headers.getSetCookie().find((line) => line.startsWith('gh_session=')) ?? '').split(
    ';',
  )[0];
  const { csrfToken } = (await login.json()) as { csrfToken: string };
  const created = await fetch(`${stack.apiUrl}/v1/workspaces`, {
    method: 'POST',
    headers: { cookie: cookie ?? '', 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
    body: JSON.stringify({ name, repositoryIdentity: `github.com/acme/${name}` }),
  });
  expect(created.status).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** What a replica's flush writes: its session count now, and counters in the current minute's hash. */
async function flushAs(
  replica: string,
  sessions: number,
  atMs: number,
  counts: Record<string, number>,
): Promise<void> {
  const prefix = stack.redisKeyPrefix;
  const minuteKey = gatewayMinuteKey(prefix, workspaceId, epochMinuteOf(Date.now()));
  const pipeline = redis.pipeline();
  pipeline.hset(gatewaySessionsKey(prefix, workspaceId), replica, encodeReplicaSessions(sessions, atMs));
  for (const [field, count] of Object.entries(counts)) pipeline.hincrby(minuteKey, field, count);
  pipeline.expire(minuteKey, 7200);
  await pipeline.exec();
}

async function signIn(target: Page, person: Person): Promise<void> {
  await target.goto(`${stack.dashboardUrl}/sign-in`);
  await target.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
  await target.getByLabel('Email').fill(person.email);
  await target.getByLabel('Password').fill(person.password);
  await target.getByRole('button', { name: 'Sign in' }).click();
  await target.waitForURL((address) => address.pathname !== '/sign-in');
}

async function open(target: Page, path: string): Promise<void> {
  await target.goto(`${stack.dashboardUrl}${path}`);
  await target.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
}

async function expectAccessible(target: Page, label: string): Promise<void> {
  const violations = await seriousA11yViolations(target);
  expect({ page: label, violations }).toEqual({ page: label, violations: [] });
}

beforeAll(async () => {
  await redis.connect();
  stack = await startDashboardStack({ gatewayUrl: GATEWAY_URL });
  workspaceId = await createWorkspace(stack.owner, 'gateway-space');
  browser = await launchBrowser();
  context = await newTestContext(browser);
  page = await context.newPage();
  await signIn(page, stack.member);
  const phone = await newTestContext(browser, { width: 390, height: 844 });
  mobile = await phone.newPage();
  await signIn(mobile, stack.member);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  const keys = await redis.keys(`${stack.redisKeyPrefix}gateway-activity:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
}, 60_000);

describe('the Gateway panel’s live activity', () => {
  it(
    'shows a member the live sessions, the calls and the refusals by reason in words, and refreshes',
    async () => {
      await open(page, `/workspaces/${workspaceId}`);
      const panel = page.locator('#workspace-gateway');
      await panel.getByText('0 open sessions', { exact: true }).waitFor();
      await panel.getByText('No tool calls in the last hour', { exact: true }).waitFor();

      const now = Date.now();
      await flushAs('replica-a', 2, now, { [callField('ok')]: 5, [refusalField('rate_limited_token')]: 3 });
      await flushAs('replica-b', 1, now, {
        [callField('upstream_unavailable')]: 1,
        [refusalField('session_not_found')]: 1,
      });
      // Not heard from for a minute: its sessions are not live.
      await flushAs('replica-stale', 7, now - 60_000, {});

      await panel.getByRole('link', { name: 'Refresh the counts' }).click();
      await panel.getByText('3 open sessions on 2 gateway replicas', { exact: true }).waitFor();
      await panel.getByText('6 tool calls in the last hour', { exact: true }).waitFor();
      await panel.getByText('4 refused requests in the last hour', { exact: true }).waitFor();
      const refusals = panel.getByRole('table', { name: 'Refused requests in the last hour, by reason' });
      await refusals
        .getByRole('row', { name: 'A token made too many requests (per-token rate limit) 3' })
        .waitFor();
      await refusals
        .getByText('A client named a session the gateway no longer has (it re-initializes)')
        .waitFor();
      const calls = panel.getByRole('table', { name: 'Tool calls in the last hour, by outcome' });
      await calls.getByRole('row', { name: 'Answered 5' }).waitFor();
      await calls.getByText('Failed: the upstream server could not be reached').waitFor();
      await expect(panel.getByText('rate_limited_token').count()).resolves.toBe(0);
      await expectAccessible(page, 'workspace gateway panel with activity');
      await screenshot(page, 'workspace-gateway-activity');

      await open(page, '/gateway');
      const row = page.getByRole('row').filter({ hasText: 'gateway-space' });
      await row.getByText('3 × A token made too many requests (per-token rate limit)').waitFor();
      await expect(row.getByRole('cell').nth(2).innerText()).resolves.toBe('3');
      await expect(row.getByRole('cell').nth(3).innerText()).resolves.toBe('6');
      await expectAccessible(page, 'gateway page with activity');
      await screenshot(page, 'gateway-activity');

      await open(mobile, `/workspaces/${workspaceId}`);
      await mobile.locator('#workspace-gateway').getByText('6 tool calls in the last hour').waitFor();
      const overflow = await mobile.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(mobile, 'mobile-workspace-gateway-activity');
    },
    FLOW_TIMEOUT_MS,
  );
});
