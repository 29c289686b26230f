/**
 * The browser tests' one way to start Chromium: the same executable and flags everywhere, and one Chromium per
 * test file's process however many harnesses (one per database, one per describe) ask for it.
 *
 * `launchChromium()` hands each caller a browser of its own to use as Playwright's Browser: its contexts and
 * pages are its own, and its `close()` closes them (what the caller made, nothing else) and lets go of the
 * Chromium underneath, which closes after the file's last test (so the next describe of the same file, on the
 * other database, takes it over instead of starting another: a launch costs some 1.7 s of CPU).
 * Contexts are what isolate tests from each other (cookies, storage, cache); a new one is cheap.
 *
 * Flags: Playwright adds its own for a headless run (--disable-extensions, --disable-dev-shm-usage,
 * --mute-audio, --hide-scrollbars, no background networking or component updates, …); those here are what
 * every suite used before they were gathered here. Flags measured and left out: docs/decisions/0144-ci-time.md.
 */
import { after } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { testChromium } from './system.ts';

/**
 * Debian's chromium-headless-shell on PATH (/usr/bin/chromium-headless-shell, what CI runs), the same engine as
 * the full browser without the browser's own layer, at about a third of its CPU (decision 0144);
 * QUIRE_TEST_CHROMIUM names another (e.g. /usr/bin/chromium); a developer without the shell gets the full
 * chromium on PATH.
 */
export const CHROMIUM = testChromium();

/** The flags every browser test launches Chromium with. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

let running: Promise<Browser> | null = null;

// The file's Chromium closes after the file's last test (a hook of the file's root: this module is loaded with the
// test file), whoever held it; until then a harness that lets go leaves it running for the next one.
after(async () => {
  const closing = running;
  running = null;
  if (closing) await closing.then((browser) => browser.close()).catch(() => {});
});

/**
 * Chromium for one harness: a Browser whose close() closes what this holder opened and lets go of the shared
 * process. `extraArgs` (flags of the caller's own) get a Chromium of their own, closed by close().
 */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  if (extraArgs.length) return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...extraArgs] });
  let browser: Browser;
  try {
    running ??= chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    browser = await running;
    // A Chromium that went away (crashed, or closed by a test) is started anew.
    if (!browser.isConnected()) {
      running = chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      browser = await running;
    }
  } catch (error) {
    running = null;
    throw error;
  }
  const contexts = new Set<BrowserContext>();
  let released = false;
  const track = (context: BrowserContext): BrowserContext => {
    contexts.add(context);
    context.once('close', () => contexts.delete(context));
    return context;
  };
  const own = {
    async newContext(...args: Parameters<Browser['newContext']>): Promise<BrowserContext> {
      return track(await browser.newContext(...args));
    },
    async newPage(...args: Parameters<Browser['newPage']>): Promise<Page> {
      const page = await browser.newPage(...args);
      track(page.context());
      return page;
    },
    contexts(): BrowserContext[] {
      return [...contexts];
    },
    async close(): Promise<void> {
      if (released) return;
      released = true;
      await Promise.all([...contexts].map((context) => context.close().catch(() => {})));
    },
  };
  return new Proxy(browser, {
    get(target, property) {
      if (Object.hasOwn(own, property)) return own[property as keyof typeof own];
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
