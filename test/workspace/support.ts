import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { DialectName } from '../../src/db/database.ts';
import { createSession } from '../../src/sessions/store.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createWorld, type TestUser, type World } from '../helpers/factories.ts';
import { CHROMIUM, launchChromium } from '../helpers/chromium.ts';
import { freePort } from '../helpers/ports.ts';
export { freePort };

export { CHROMIUM };
const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it stands (WCAG 2.1 A and AA, best practices). */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  });
}

/** Runs axe on the page in light and in dark (the system's choice), leaving it in light. */
export async function assertAccessible(page: Page, screen: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    assert.deepEqual(await axeViolations(page), [], `axe on ${screen} in ${colorScheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * The screen fits the window's width: nothing makes the page scroll sideways (on a phone, a header or a row of
 * buttons wider than the window would), and names what sticks out past the right edge when something does.
 */
export async function assertFitsWidth(page: Page, screen: string): Promise<void> {
  const found = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wider = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((element) => element.getBoundingClientRect().right > width + 1 && element.getClientRects().length > 0)
      .filter((element) => !element.closest('.visually-hidden, .skip-link'))
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
    return { width, scrollWidth: document.documentElement.scrollWidth, wider };
  });
  assert.ok(found.scrollWidth <= found.width, `${screen} scrolls sideways: ${found.scrollWidth} px in a ${found.width} px window (${found.wider.join(', ')})`);
}

/** One element the keyboard reached: how it is named, and whether its focus shows. */
interface Reached {
  name: string;
  visible: boolean;
}

/**
 * Every action on the screen is reachable by keyboard with visible focus: Tab, from the top, walks through
 * every enabled control that is not part of a composite widget (an ARIA tree's other items are reached by
 * arrows, so only one of them takes Tab), and each one shows its focus (an outline or a ring).
 */
export async function assertKeyboardReachable(page: Page, screen: string): Promise<void> {
  const describe = () => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return null;
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const ring = style.boxShadow !== 'none';
    const id = element.getAttribute('data-reach-id') ?? '';
    return { id, name: `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)}"`, visible: outline || ring };
  };
  // Every control that should take Tab (the items of a composite widget, an ARIA tree's or a radio group's, share
  // one stop), marked so the walk can tell them apart.
  const expected: string[] = await page.evaluate(() => {
    const selector = 'a[href], button, input:not([type=hidden]), select, textarea, [tabindex="0"], [contenteditable="true"]';
    const controls = [...document.querySelectorAll<HTMLElement>(selector)].filter((element) => {
      if ((element as HTMLButtonElement).disabled || element.getAttribute('tabindex') === '-1') return false;
      // A group of radio buttons is one Tab stop (arrows choose within it): its checked one. A group outside any
      // form is grouped by name across the document, as the browser does.
      if (element instanceof HTMLInputElement && element.type === 'radio' && !element.checked && (element.form ?? document).querySelector(`input[type=radio][name="${element.name}"]:checked`)) return false;
      if (element.closest('[contenteditable="true"]') && element.getAttribute('contenteditable') !== 'true') return false;
      if (element.closest('[inert], [hidden], details:not([open]) > :not(summary)')) return false;
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
    });
    return controls.map((element, index) => {
      element.setAttribute('data-reach-id', String(index));
      return `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)}"`;
    });
  });
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  const reached = new Map<string, Reached>();
  let previous: string | null = null;
  for (let step = 0; step < expected.length + 40; step++) {
    await page.keyboard.press('Tab');
    const now = await page.evaluate(describe);
    if (!now) continue;
    // A control with fields of its own (a date input's day, month and year) takes several Tabs in a row: only
    // coming back to a control reached earlier, after others, means the walk has gone round.
    if (now.id === previous) continue;
    if (reached.has(now.id) && now.id !== '') break;
    reached.set(now.id, now);
    previous = now.id;
  }
  const missing = expected.filter((_, index) => !reached.has(String(index)));
  assert.deepEqual(missing, [], `on ${screen}, Tab never reaches these controls`);
  const unseen = [...reached.values()].filter((entry) => !entry.visible).map((entry) => entry.name);
  assert.deepEqual(unseen, [], `on ${screen}, these controls show no focus when reached by keyboard`);
  await page.evaluate(() => {
    document.querySelectorAll('[data-reach-id]').forEach((element) => element.removeAttribute('data-reach-id'));
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
}

const artifacts = join(import.meta.dirname, '..', '..', 'test-artifacts');
const docsImages = join(import.meta.dirname, '..', '..', 'docs', 'images');

/**
 * Quire listening on a free port with a world of members, and Chromium: what a browser test of the workspace
 * starts from. `signedIn` gives a person a browser of their own with a session (its cookie set as sign-in sets
 * it); every console error, refusal by the Content-Security-Policy, failed answer and page error is collected in
 * `problems`, which a test expects empty.
 */
export interface WorkspaceHarness {
  t: TestApp;
  world: World;
  base: string;
  browser: Browser;
  problems: string[];
  signedIn(user: TestUser, options?: { width?: number; allow?: RegExp }): Promise<{ context: BrowserContext; page: Page }>;
  shot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Collects what a screen must never show into `problems`: every console error, every refusal by the
 * Content-Security-Policy, every uncaught error, and every failed answer but a favicon (and those `allow` matches
 * as "status path").
 */
export function watchProblems(page: Page, problems: string[], allow?: RegExp): void {
  page.on('console', (message) => {
    if ((message.type() === 'error' && !message.text().startsWith('Failed to load resource')) || /Content.Security.Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (response.status() >= 400 && path !== '/favicon.ico' && !allow?.test(`${response.status()} ${path}`)) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on('pageerror', (error) => problems.push(error.message));
}

export async function startWorkspace(dialect: DialectName, env: Record<string, string> = {}): Promise<WorkspaceHarness> {
  mkdirSync(artifacts, { recursive: true });
  mkdirSync(docsImages, { recursive: true });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await createTestApp(dialect, { QUIRE_PUBLIC_URL: base, ...env });
  await t.app.listen({ host: '127.0.0.1', port });
  const world = await createWorld(t.ctx, t.app, t.clock);
  const browser = await launchChromium();
  const problems: string[] = [];
  return {
    t,
    world,
    base,
    browser,
    problems,
    async signedIn(user, options = {}) {
      const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 900 }, colorScheme: 'light' });
      const { secret } = await createSession(t.ctx, { userId: user.id, method: 'password', device: 'Chromium test', ip: '127.0.0.1' });
      await context.addCookies([{ name: 'quire_session', value: secret, url: base, httpOnly: true, sameSite: 'Lax' }]);
      const page = await context.newPage();
      watchProblems(page, problems, options.allow);
      page.on('dialog', (dialog) => void dialog.accept());
      return { context, page };
    },
    async shot(page, name) {
      const path = join(artifacts, `workspace-${name}.png`);
      await page.screenshot({ path, fullPage: true });
      copyFileSync(path, join(docsImages, `workspace-${name}.png`));
    },
    async close() {
      await browser.close();
      await t.close();
    },
  };
}

/**
 * Photographs the page for the docs in light and in dark (docs/images/workspace-NAME.png and
 * workspace-NAME-dark.png, copies in test-artifacts/), leaving it in light.
 */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(artifacts, { recursive: true });
  mkdirSync(docsImages, { recursive: true });
  for (const [colorScheme, suffix] of [['light', ''], ['dark', '-dark']] as const) {
    await page.emulateMedia({ colorScheme });
    // From the top: a sticky panel (the customization preview) is drawn where it stands at the top.
    await page.evaluate(() => window.scrollTo(0, 0));
    const path = join(artifacts, `workspace-${name}${suffix}.png`);
    await page.screenshot({ path, fullPage: true });
    copyFileSync(path, join(docsImages, `workspace-${name}${suffix}.png`));
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
