import { after, before } from 'node:test';
import type { DialectName } from '../../src/db/database.ts';
import { createTestApp, type TestApp } from './app.ts';
import { createWorld, type TestUser, type World } from './factories.ts';

/** What an API suite's tests use: the app and its world of members. */
export interface ApiSuite {
  t: TestApp;
  world: World;
  /** The member with the edit role, who writes the suite's content. */
  editor(): TestUser;
}

/**
 * Opens a test app and its world before the enclosing suite's tests, and closes it after. Call it inside
 * `describe`; the fields are there once the tests run.
 */
export function useApiSuite(dialect: DialectName): ApiSuite {
  const suite = { editor: () => suite.world.members.edit } as ApiSuite;
  before(async () => {
    suite.t = await createTestApp(dialect);
    suite.world = await createWorld(suite.t.ctx, suite.t.app, suite.t.clock);
  });
  after(() => suite.t?.close());
  return suite;
}

/** Imports `markdown` into a page of a change request (`changeRequestUrl` is its API path); the reply. */
export function importMarkdownInto(user: Pick<TestUser, 'api'>, changeRequestUrl: string, pageId: string, markdown: string) {
  return user.api.post(`${changeRequestUrl}/content/page/${pageId}/import`, { source: 'markdown', url: `data:text/markdown;base64,${Buffer.from(markdown).toString('base64')}` });
}
