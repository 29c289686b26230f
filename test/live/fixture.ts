import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.ts';
import type { DialectName } from '../../src/db/database.ts';
import { createSession } from '../../src/sessions/store.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createSpace, editContent } from '../helpers/content-factory.ts';
import { createWorld, type TestUser, type World } from '../helpers/factories.ts';
import { freePort } from '../workspace/support.ts';

/**
 * The live browser tests' one setup: a Quire listening on a free port with short live write delays, a world of
 * people, Chromium, and people signed in to it in their own browser contexts, each page instrumented so a test can
 * act as a network or a server would (`cut`, `hold`, `staleModel`). Problems a page reports (a script error, a
 * refusal by the Content-Security-Policy) are collected in `problems`.
 */
export interface LiveBrowser {
  t: TestApp;
  world: World;
  base: string;
  browser: Browser;
  problems: string[];
  /** A browser context signed in as `user` (a session cookie), instrumented. */
  signedIn(user: TestUser, options?: ContextOptions): Promise<BrowserContext>;
  /** A new page of `user`'s own new context. */
  person(user: TestUser, options?: ContextOptions): Promise<Page>;
  /** A new page of `context`, its problems collected. */
  open(context: BrowserContext): Promise<Page>;
  /** A space "Handbook" holding a document page for each title of `pages` (title → Markdown): their ids, in order. */
  space(pages: Record<string, string>): Promise<{ spaceId: string; pageIds: string[] }>;
  /** A change request on the space, opened by `by` (the organization's editor by default): its id. */
  changeRequest(spaceId: string, subject: string, by?: TestUser): Promise<string>;
  /** The page's paragraphs as the API reads them from a change request. */
  apiText(spaceId: string, changeRequestId: string, pageId: string): Promise<string>;
  close(): Promise<void>;
}

export interface ContextOptions {
  height?: number;
  /** A page never idle: requestIdleCallback never calls back. */
  neverIdle?: boolean;
}

export async function liveBrowser(dialect: DialectName = 'sqlite'): Promise<LiveBrowser> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await createTestApp(dialect, { QUIRE_PUBLIC_URL: base, QUIRE_LIVE_IDLE_MS: '300', QUIRE_LIVE_MAX_WAIT_MS: '2000' });
  await t.app.listen({ host: '127.0.0.1', port });
  const world = await createWorld(t.ctx, t.app, t.clock);
  const browser = await launchChromium();
  const problems: string[] = [];

  const open = async (context: BrowserContext): Promise<Page> => {
    const page = await context.newPage();
    page.on('console', (message) => {
      if (process.env.QUIRE_TEST_LOG) console.log('browser:', message.type(), message.text());
      if (/Content.Security.Policy|Refused to/i.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => {
      if (process.env.QUIRE_TEST_LOG) console.log('browser: pageerror', error.message);
      problems.push(error.message);
    });
    page.on('dialog', (dialog) => void dialog.accept());
    return page;
  };

  const signedIn = async (user: TestUser, options: ContextOptions = {}): Promise<BrowserContext> => {
    const context = await browser.newContext({ viewport: { width: 1200, height: options.height ?? 800 }, colorScheme: 'light' });
    const { secret } = await createSession(t.ctx, { userId: user.id, method: 'password', device: 'Chromium test', ip: '127.0.0.1' });
    await context.addCookies([{ name: 'quire_session', value: secret, url: base, httpOnly: true, sameSite: 'Lax' }]);
    await context.addInitScript(instrument, Boolean(options.neverIdle));
    return context;
  };

  return {
    t,
    world,
    base,
    browser,
    problems,
    signedIn,
    open,
    person: async (user, options) => open(await signedIn(user, options)),
    async space(pages) {
      const spaceId = await createSpace(t.ctx, world.organizationId, { title: 'Handbook' });
      const pageIds: string[] = [];
      await editContent(t.ctx, spaceId, (writer) => {
        for (const [title, markdown] of Object.entries(pages)) pageIds.push(writer.addPage({ type: 'document', title, markdown }));
      });
      return { spaceId, pageIds };
    },
    async changeRequest(spaceId, subject, by = world.members.edit) {
      const created = await by.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return created.body.id as string;
    },
    async apiText(spaceId, changeRequestId, pageId) {
      const read = await world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/page/${pageId}`);
      type Node = { object: string; nodes?: Node[]; leaves?: Array<{ text: string }> };
      const text = (node: Node): string => (node.leaves ? node.leaves.map((leaf) => leaf.text).join('') : (node.nodes ?? []).map(text).join(''));
      return (read.body.document.nodes as Node[]).map(text).join('\n');
    },
    async close() {
      await browser.close();
      await t.close();
    },
  };
}

/** Calls `instrument`'s test hooks in the page. */
export const cut = (page: Page) => page.evaluate(() => (window as unknown as LiveHooks).cutSockets());
export const hold = (page: Page, on: boolean) => page.evaluate((value) => (window as unknown as LiveHooks).holdSends(value), on);
export const staleModel = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as LiveHooks).staleModel = true;
    (window as unknown as LiveHooks).cutSockets();
  });

interface LiveHooks {
  cutSockets(): void;
  holdSends(on: boolean): void;
  staleModel?: boolean;
}

/**
 * Runs in every page before its scripts: keeps the page's WebSockets, so a test can cut them as a lost network
 * would (Chromium's offline mode does not close open sockets); holds what they send while `holdSends(true)`, as
 * a server that does not answer would; and, once `staleModel` is set, has new sockets say another document
 * model version (a tab opened before an upgrade).
 */
function instrument(neverIdle: boolean): void {
  const hooks = window as unknown as LiveHooks;
  const sockets: WebSocket[] = [];
  const held: Array<[WebSocket, Parameters<WebSocket['send']>[0]]> = [];
  let holding = false;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      if (hooks.staleModel) url = String(url).replace(/([?&]model=)[^&]*/, '$100000000');
      super(url, protocols);
      sockets.push(this);
    }
    override send(data: Parameters<WebSocket['send']>[0]): void {
      if (holding) held.push([this, data]);
      else super.send(data);
    }
  };
  hooks.cutSockets = () => {
    for (const socket of sockets) socket.close();
  };
  hooks.holdSends = (on) => {
    holding = on;
    if (!on) for (const [socket, data] of held.splice(0)) socket.send(data);
  };
  if (neverIdle) window.requestIdleCallback = () => 0;
}
