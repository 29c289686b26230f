import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { parseMarkdown } from '../../src/content/markdown/index.ts';
import { WARM_KEYS, WARM_MARK, type WarmReport } from '../../web/src/editor/warm-typing-report.ts';
import { needs } from '../helpers/system.ts';
import { startWorkspace, type WorkspaceHarness } from './support.ts';

/**
 * The typing warm-up (web/src/editor/warm-typing.ts, decision 0154) in Chromium, on a live page: it types its
 * keys and leaves no trace — the page's text, what was saved and the undo history unchanged, nothing sent to the
 * server while it ran, the focus and the caret where the writer left them, nothing of it in the accessibility
 * tree, no layout shift, its box gone — and it stops at once when the writer presses a key.
 *
 * The browser's idle callbacks are held by an init script and run by the test (`runIdle`), so that the warm-up's
 * steps happen when the test says, each with a budget of a few keys; while they run, every request, socket
 * message and beacon the page makes is recorded.
 */
const skip = needs('chromium');

const MARKDOWN = 'The weir holds.\n\nA second paragraph.\n';

/** Holds idle callbacks and records what the page sends while they run (an init script: before the app's code). */
function holdIdle(): void {
  type Win = typeof window & { runIdle(keys: number): number; sentDuringIdle: string[]; shifts: string[] };
  const win = window as Win;
  const held: Array<{ id: number; callback: IdleRequestCallback }> = [];
  let next = 1_000_000;
  let inIdle = false;
  win.sentDuringIdle = [];
  win.shifts = [];
  const realCancel = window.cancelIdleCallback.bind(window);
  window.requestIdleCallback = (callback) => {
    held.push({ id: ++next, callback });
    return next;
  };
  window.cancelIdleCallback = (id) => {
    const at = held.findIndex((entry) => entry.id === id);
    if (at >= 0) held.splice(at, 1);
    else realCancel(id);
  };
  // Each callback may do `keys` rounds of work (timeRemaining is 20 ms that many times, then 0).
  win.runIdle = (keys) => {
    const now = held.splice(0);
    inIdle = true;
    const from = performance.now();
    try {
      for (const { callback } of now) {
        let calls = 0;
        callback({ didTimeout: false, timeRemaining: () => (calls++ < keys ? 20 : 0) });
      }
    } finally {
      inIdle = false;
    }
    for (const entry of performance.getEntriesByType('resource')) if (entry.startTime >= from) win.sentDuringIdle.push(`resource ${entry.name}`);
    return now.length;
  };
  const record = (what: string) => {
    if (inIdle) win.sentDuringIdle.push(what);
  };
  const realFetch = window.fetch.bind(window);
  window.fetch = (input, init) => {
    record(`fetch ${String(input)}`);
    return realFetch(input, init);
  };
  const realOpen = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (this: XMLHttpRequest, ...args: Parameters<XMLHttpRequest['open']>) {
    record(`xhr ${String(args[1])}`);
    return (realOpen as (...a: unknown[]) => void).apply(this, args);
  } as XMLHttpRequest['open'];
  const realSend = WebSocket.prototype.send;
  WebSocket.prototype.send = function (this: WebSocket, data) {
    record('socket message');
    return realSend.call(this, data);
  };
  const realBeacon = navigator.sendBeacon.bind(navigator);
  navigator.sendBeacon = (url, data) => {
    record(`beacon ${String(url)}`);
    return realBeacon(url, data);
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as unknown as Array<{ sources?: Array<{ node?: Node | null }> }>) win.shifts.push((entry.sources ?? []).map((source) => (source.node instanceof Element ? source.node.outerHTML.slice(0, 80) : String(source.node))).join(' | '));
  }).observe({ type: 'layout-shift', buffered: true });
}

const runIdle = (page: Page, keys: number) => page.evaluate((n) => (window as unknown as { runIdle(n: number): number }).runIdle(n), keys);
const warmReport = (page: Page) => page.evaluate((name) => performance.getEntriesByName(name).map((mark) => (mark as PerformanceMark).detail as WarmReport), WARM_MARK);
/** The names in Chromium's own accessibility tree that are not ignored. */
async function accessibleNames(page: Page): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: Array<{ ignored: boolean; name?: { value?: string } }> };
  await cdp.detach();
  return nodes.filter((node) => !node.ignored).map((node) => node.name?.value ?? '').join('\n');
}

describe('typing warm-up [sqlite]', { skip }, () => {
  let h: WorkspaceHarness;
  let spaceId = '';
  let cr = '';
  let pageId = '';

  before(async () => {
    h = await startWorkspace('sqlite');
    const { admin } = h.world;
    spaceId = (await admin.api.post(`/v1/orgs/${h.world.organizationId}/spaces`, { title: 'Weirs' })).body.id;
    cr = (await admin.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Warm' })).body.id;
    const created = await admin.api.post(`/v1/spaces/${spaceId}/change-requests/${cr}/content/pages`, { title: 'Weir', document: parseMarkdown(MARKDOWN, {}).document });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    pageId = created.body.id;
  });
  after(() => h?.close());

  const open = async () => {
    const { page, context } = await h.signedIn(h.world.admin);
    // The test's compiler names functions through a `__name` helper, which the page does not have.
    await page.addInitScript({ content: 'globalThis.__name = (target) => target;' });
    await page.addInitScript(holdIdle);
    await page.goto(`${h.base}/o/${h.world.organizationId}/s/${spaceId}/cr/${cr}/p/${pageId}`);
    await page.locator('.page-body[aria-label="Body of Weir"]').waitFor();
    await page.getByText('A second paragraph.').waitFor();
    return { page, context };
  };

  it('types its keys and leaves no trace in the page, the server, the focus, the undo history or the accessibility tree', async () => {
    const { page, context } = await open();
    const body = page.locator('.page-body[aria-label="Body of Weir"]');
    // The writer's caret after "weir", in the page, put there without a click or a key (either stops the warm-up).
    await body.focus();
    await page.evaluate(() => {
      const text = document.querySelector('.page-body[aria-label="Body of Weir"] p')!.firstChild!;
      getSelection()!.collapse(text, 'The weir'.length);
    });
    const before = await page.evaluate(() => {
      const selection = getSelection()!;
      return { text: document.querySelector('.page-body[aria-label="Body of Weir"]')!.textContent, active: document.activeElement?.getAttribute('aria-label'), anchor: selection.anchorNode?.textContent, offset: selection.anchorOffset, scroll: [scrollX, scrollY] };
    });
    assert.equal(before.active, 'Body of Weir');
    await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor({ timeout: 20_000 });
    const frames = () => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await frames();
    const shiftsBefore = await page.evaluate(() => (window as unknown as { shifts: string[] }).shifts);

    // The first step opens the warm-up's editor: hidden from everything, while it exists.
    assert.ok((await runIdle(page, 0)) >= 1);
    const box = page.locator('.typing-warm-up');
    assert.equal(await box.count(), 1, 'the warm-up opened its editor');
    const shown = await box.evaluate((element) => ({
      ariaHidden: element.getAttribute('aria-hidden'),
      inert: (element as HTMLElement).inert,
      visible: element.checkVisibility({ visibilityProperty: true }),
      position: getComputedStyle(element).position,
      holdsFocus: element.contains(document.activeElement),
    }));
    assert.deepEqual(shown, { ariaHidden: 'true', inert: true, visible: false, position: 'fixed', holdsFocus: false });
    assert.equal(await page.locator('.page-body').count(), 1, 'its editor is not a page body to what looks for one');
    // Some of its keys, then the accessibility tree while it is at work: none of its text there.
    await runIdle(page, 10);
    const names = await accessibleNames(page);
    assert.ok(names.includes('Body of Weir'), 'the tree was read');
    assert.equal(/warm-up|quick brown|Typing goes here/i.test(names), false, names);
    for (let round = 0; round < 100 && (await warmReport(page)).length === 0; round++) await runIdle(page, 10);

    const [report, ...more] = await warmReport(page);
    assert.equal(more.length, 0, 'once');
    assert.deepEqual({ ...report!, grew: report!.grew > 0, cpuMs: undefined }, { cpuMs: undefined, keys: WARM_KEYS, grew: true, stopped: false, failed: false }, 'its keys reached its editor');
    assert.equal(await box.count(), 0, 'its editor is gone');
    await frames();
    const afterWarm = await page.evaluate(() => {
      const selection = getSelection()!;
      const win = window as unknown as { sentDuringIdle: string[]; shifts: string[] };
      return { text: document.querySelector('.page-body[aria-label="Body of Weir"]')!.textContent, active: document.activeElement?.getAttribute('aria-label'), anchor: selection.anchorNode?.textContent, offset: selection.anchorOffset, scroll: [scrollX, scrollY], sent: win.sentDuringIdle, shifts: win.shifts };
    });
    assert.deepEqual(afterWarm, { ...before, sent: [], shifts: shiftsBefore }, 'the page, focus, caret and scroll as they were; nothing sent while it ran; no layout shift');

    // Undo has nothing of it: Ctrl+Z in the page changes nothing; a key typed goes where the caret was.
    await page.keyboard.press('Control+z');
    await page.waitForTimeout(100);
    assert.equal(await body.textContent(), before.text);
    await page.keyboard.type('s');
    await page.getByText('The weirs holds.').waitFor();
    await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor({ timeout: 20_000 });
    let markdown = '';
    for (let attempt = 0; attempt < 50 && !markdown.includes('weirs'); attempt++) {
      markdown = String((await h.world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${cr}/content/page/${pageId}?format=markdown`)).body.markdown);
      if (!markdown.includes('weirs')) await page.waitForTimeout(200);
    }
    assert.equal(markdown, 'The weirs holds.\n\nA second paragraph.\n', 'what was saved is the writer\'s key alone');
    await context.close();
    assert.deepEqual(h.problems, []);
  });

  it('stops at once when the writer presses a key', async () => {
    const { page, context } = await open();
    const body = page.locator('.page-body[aria-label="Body of Weir"]');
    const text = await body.textContent();
    await runIdle(page, 0);
    await runIdle(page, 5);
    assert.equal(await page.locator('.typing-warm-up').count(), 1);
    assert.deepEqual(await warmReport(page), []);
    // Focus without a click (a click stops it too), then a key.
    await body.focus();
    await page.keyboard.press('End');
    const [report] = await warmReport(page);
    assert.deepEqual({ ...report!, grew: report!.grew > 0, cpuMs: undefined }, { cpuMs: undefined, keys: 5, grew: true, stopped: true, failed: false });
    assert.equal(await page.locator('.typing-warm-up').count(), 0);
    // Nothing more of it later.
    await runIdle(page, 50);
    assert.equal((await warmReport(page)).length, 1);
    assert.equal(await body.textContent(), text);
    await context.close();
    assert.deepEqual(h.problems, []);
  });
});
