import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createSpace, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import type { DialectName } from '../../src/db/database.ts';
import { liveClient, type LiveClient } from './clients.ts';

/** What a live suite in Node works with once its `before` has run. */
export interface LiveNodeSuite {
  t: TestApp;
  world: World;
  spaceId: string;
  /** The space's one page, "Notes": "First paragraph." and "Second paragraph.". */
  pageId: string;
  /** The live endpoint's address (ws://…/v1/live) on the suite's listening app. */
  url: string;
  /** A Node live client on `name` with `token` (on `address`, the endpoint by default), destroyed after the suite. */
  connect(token: string, name: string, address?: string): LiveClient;
}

/**
 * The setup live suites in Node share: an app of `dialect` with the live settings `env` (the idle time before a
 * write, above all), listening on a free port; an organization with its members; a space with one page. Call it in
 * a `describe`: it registers the suite's `before` and `after`, and the object it answers is filled by `before`.
 */
export function liveNodeSuite(dialect: DialectName, env: Record<string, string>): LiveNodeSuite {
  const clients: LiveClient[] = [];
  const suite = {
    connect(token: string, name: string, address?: string) {
      const client = liveClient({ url: address ?? suite.url, name, token });
      clients.push(client);
      return client;
    },
  } as LiveNodeSuite;
  before(async () => {
    suite.t = await createTestApp(dialect, env);
    suite.world = await createWorld(suite.t.ctx, suite.t.app, suite.t.clock);
    suite.spaceId = await createSpace(suite.t.ctx, suite.world.organizationId, { title: 'Handbook' });
    await editContent(suite.t.ctx, suite.spaceId, (writer) => {
      suite.pageId = writer.addPage({ type: 'document', title: 'Notes', markdown: 'First paragraph.\n\nSecond paragraph.\n' });
    });
    await suite.t.app.listen({ host: '127.0.0.1', port: 0 });
    suite.url = `ws://127.0.0.1:${(suite.t.app.server.address() as AddressInfo).port}/v1/live`;
  });
  after(async () => {
    for (const client of clients) client.destroy();
    await suite.t?.close();
  });
  return suite;
}
