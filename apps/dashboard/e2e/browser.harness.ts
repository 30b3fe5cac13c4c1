import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import axe from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { REPOSITORY_ROOT, type Person } from './dashboard-stack.harness';

// Debian's chromium driven by playwright-core (never a downloaded browser), axe-core injected into pages,
// screenshots under test-output/screenshots/, and the steps every spec takes in a page (signing in, checking
// the page fits a phone's width).

export const SCREENSHOT_DIR = join(REPOSITORY_ROOT, 'test-output', 'screenshots');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-dev-shm-usage',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

/**
 * A browser context (own cookies) whose pages all carry axe-core from their first script on: injecting it
 * into each page after load costs more than letting every navigation evaluate it. A desktop viewport unless
 * told otherwise (the 390 px layout tests pass a phone's).
 */
export async function newTestContext(
  browser: Browser,
  viewport: { width: number; height: number } = { width: 1280, height: 900 },
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport });
  await context.addInitScript({ content: axe.source });
  return context;
}

export interface AxeFinding {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
}

type AxeWindow = { axe?: { run(context: Document | Element, options: object): Promise<axe.AxeResults> } };

/**
 * Runs axe-core on the page as it is now; returns the serious and critical violations. `within` limits the
 * check to one element: an open modal dialog, whose inert, dimmed background is not what the person reads.
 */
export async function seriousA11yViolations(page: Page, within?: string): Promise<AxeFinding[]> {
  const violations = await page.evaluate(async (selector) => {
    const runner = (window as unknown as AxeWindow).axe;
    if (runner === undefined) throw new Error('axe-core is not in the page: open it through newTestContext');
    const context = selector === null ? document : document.querySelector(selector);
    if (context === null) throw new Error(`nothing matches ${selector}`);
    const results = await runner.run(context, { resultTypes: ['violations'] });
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? null,
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
    }));
  }, within ?? null);
  return violations.filter((finding) => finding.impact === 'serious' || finding.impact === 'critical');
}

/** The whole page by default; `fullPage: false` for a modal, whose overlay covers the viewport only. */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: options.fullPage ?? true });
}

/** Signs `person` in on the dashboard's sign-in page and waits until it has moved on. */
export async function signInInBrowser(page: Page, dashboardUrl: string, person: Person): Promise<void> {
  await page.goto(`${dashboardUrl}/sign-in`);
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((address) => address.pathname !== '/sign-in');
}

/** Fails unless the page fits its viewport's width, naming the widest elements when it does not. */
export async function expectNoHorizontalOverflow(page: Page, label: string): Promise<void> {
  const measured = await page.evaluate(() => {
    const overflow = document.documentElement.scrollWidth - window.innerWidth;
    const widest =
      overflow <= 0
        ? []
        : [...document.querySelectorAll('body *')]
            .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
            .slice(-5)
            .map((element) => `${element.tagName.toLowerCase()}.${String(element.className).slice(0, 40)}`);
    return { overflow: Math.max(0, overflow), widest };
  });
  expect({ page: label, ...measured }).toEqual({ page: label, overflow: 0, widest: [] });
}
