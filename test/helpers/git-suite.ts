import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { DialectName } from '../../src/db/database.ts';
import type { TestApp } from './app.ts';
import { createWorld, type World } from './factories.ts';
import { createGitTestApp, lastOperation, runJobs } from '../git/helpers.ts';
import { startGitServer, type GitServer } from '../git/server.ts';

/** What a Git suite's tests use: the app, its world of members, and a Git server on 127.0.0.1. */
export interface GitSuite {
  t: TestApp;
  world: World;
  remote: GitServer;
  /**
   * Imports `name`'s `ref` into the space, or exports the space to it (as the edit member), runs the job
   * and checks that it succeeded. The clock moves a second first, so each sync has a time of its own.
   */
  sync(spaceId: string, direction: 'import' | 'export', name: string, ref?: string): Promise<void>;
}

/**
 * Opens a Git test app, its world and a Git server before the enclosing suite's tests, and closes them
 * after. Call it inside `describe`; the fields are there once the tests run.
 */
export function useGitSuite(dialect: DialectName): GitSuite {
  const suite = {
    async sync(spaceId: string, direction: 'import' | 'export', name: string, ref = 'refs/heads/main') {
      suite.t.clock.advance(1000);
      const body = { url: suite.remote.url(name), ref, ...(direction === 'export' ? { commitMessage: 'Export' } : {}) };
      assert.equal((await suite.world.members.edit.api.post(`/v1/spaces/${spaceId}/git/${direction}`, body)).status, 204);
      await runJobs(suite.t.ctx);
      const operation = await lastOperation(suite.t.ctx, spaceId);
      assert.equal(operation.state, 'success', operation.error ?? '');
    },
  } as GitSuite;
  before(async () => {
    suite.t = await createGitTestApp(dialect);
    suite.world = await createWorld(suite.t.ctx, suite.t.app, suite.t.clock);
    suite.remote = await startGitServer();
  });
  after(async () => {
    await suite.t?.close();
    await suite.remote?.close();
  });
  return suite;
}
