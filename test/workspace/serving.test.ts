import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createWorld, postSpace, type World } from '../helpers/factories.ts';
import { browse, createSite, patchSite } from '../published/support.ts';
import { WORKSPACE_DIST, workspaceBuild } from '../../src/workspace/build.ts';

/**
 * Serving the workspace: the shell at `/` and `/o/…` for a browser with a session cookie, the sign-in page for
 * one without, hashed files kept forever under a strict Content-Security-Policy, and a site's own hostname
 * still going to the reader.
 */
for (const dialect of dialects) {
  describe(`serving the workspace [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    before(async () => {
      assert.ok(existsSync(join(WORKSPACE_DIST, 'index.html')), 'web/dist is not built: run npm run build:web (npm install runs it)');
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
    });
    after(() => t.close());

    it('sends a browser without a session to the sign-in page, keeping where it was going', async () => {
      const root = await browse(t.app, '/');
      assert.equal(root.status, 302);
      assert.equal(root.headers.location, '/sign-in?returnTo=%2F');
      const deep = await browse(t.app, '/o/abc/s/def?x=1');
      assert.equal(deep.headers.location, `/sign-in?returnTo=${encodeURIComponent('/o/abc/s/def?x=1')}`);
    });

    it('serves the shell to a browser with a session, under a strict Content-Security-Policy', async () => {
      for (const path of ['/', '/o/org1', '/o/org1/s/space1/cr/cr1/p/page1']) {
        const shell = await browse(t.app, path, { cookie: 'quire_session=abc' });
        assert.equal(shell.status, 200, path);
        assert.match(String(shell.headers['content-type']), /^text\/html/);
        assert.equal(shell.headers['cache-control'], 'no-store');
        const csp = String(shell.headers['content-security-policy']);
        assert.match(csp, /script-src 'self'(;|$)/);
        assert.match(csp, /style-src 'self'(;|$)/);
        assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
        assert.match(shell.body, /<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js"><\/script>/);
        // No inline script or style in the shell.
        assert.doesNotMatch(shell.body, /<script(?![^>]*\ssrc=)[^>]*>/);
        assert.doesNotMatch(shell.body, /<style|\sstyle=/);
      }
    });

    it('serves the built files with hashed names, cached as immutable', async () => {
      const build = workspaceBuild()!;
      const names = [...build.assets.keys()];
      assert.ok(names.some((name) => /^index-[\w-]+\.js$/.test(name)));
      for (const name of names) {
        const asset = await browse(t.app, `/assets/${name}`);
        assert.equal(asset.status, 200, name);
        assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
        assert.equal(asset.headers['x-content-type-options'], 'nosniff');
      }
      assert.equal((await browse(t.app, '/assets/index-nothere.js')).status, 404);
    });

    it('leaves a site hostname to the reader', async () => {
      const space = await postSpace(t.clock, world.admin, world.organizationId, { title: 'Guides' });
      const site = await createSite(world.admin, world.organizationId, { title: 'Docs', visibility: 'public', spaces: [space.id] });
      await patchSite(world.admin, world.organizationId, site.id, '', { hostname: 'docs.workspace.test' });
      const root = await browse(t.app, '/', { host: 'docs.workspace.test' });
      assert.notEqual(root.status, 302);
      assert.doesNotMatch(root.body, /\/assets\/index-/);
      // The reader's page, with the reader's own files.
      assert.match(root.body, /\/~quire\//);
    });
  });
}
