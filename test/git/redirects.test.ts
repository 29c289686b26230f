import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_REDIRECTS } from '../../src/imports/layout.ts';
import { dialects, type TestApp } from '../helpers/app.ts';
import { createSpace } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { browse, createSite, type SiteHandle } from '../published/support.ts';
import { createGitTestApp, lastOperation, runJobs } from './helpers.ts';
import { startGitServer, type GitServer } from './server.ts';
import { needs } from '../helpers/system.ts';

/**
 * `.gitbook.yaml` redirects: kept by a Git import and answered by the published reader with a
 * 301 to the page that came from the file they name; a push that changes them is followed.
 */
const REPO = {
  '.gitbook.yaml': 'root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n\nredirects:\n  old/setup: install.md\n  /getting-started/: guides/README.md\n  nowhere: missing.md\n',
  'README.md': '# Welcome\n\nStart here.\n',
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md)\n* [Guides](guides/README.md)\n  * [Configure](guides/configure.md)\n',
  'install.md': '# Install\n\nRun the installer.\n',
  'guides/README.md': '# Guides\n\nHow to.\n',
  'guides/configure.md': '# Configure\n\nSet the options.\n',
};

for (const dialect of dialects) {
  describe(`.gitbook.yaml redirects on the published site [${dialect}]`, { skip: needs('git') }, () => {
    let t: TestApp;
    let world: World;
    let remote: GitServer;
    let spaceId: string;
    let site: SiteHandle;
    const get = (path: string) => browse(t.app, `${site.root}${path}`);

    before(async () => {
      t = await createGitTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      remote = await startGitServer();
      remote.createRepo('redirects', REPO);
      spaceId = await createSpace(t.ctx, world.organizationId);
      assert.equal((await world.admin.api.post(`/v1/spaces/${spaceId}/git/import`, { url: remote.url('redirects'), ref: 'refs/heads/main' })).status, 204);
      await runJobs(t.ctx);
      const operation = await lastOperation(t.ctx, spaceId);
      assert.equal(operation.state, 'success', operation.error ?? '');
      site = await createSite(world.admin, world.organizationId, { title: 'Redirected docs', visibility: 'public', spaces: [spaceId] });
    });
    after(async () => {
      await t.close();
      await remote.close();
    });

    it('answers an old address of .gitbook.yaml with a 301 to the page of the file it names', async () => {
      assert.equal((await get('/install')).status, 200);
      const old = await get('/old/setup');
      assert.equal(old.status, 301, old.body.slice(0, 200));
      assert.equal(old.headers.location, `${site.root}/install`);
      const folder = await get('/getting-started');
      assert.equal(folder.status, 301);
      assert.equal(folder.headers.location, `${site.root}/guides`);
      const markdown = await get('/old/setup.md');
      assert.equal(markdown.status, 301);
      assert.equal(markdown.headers.location, `${site.root}/install.md`);
      assert.equal((await get('/nowhere')).status, 404, 'a redirect to a file that is not a page is no redirect');
      assert.equal((await get('/never/there')).status, 404);
    });

    it('follows a push that changes the redirects', async () => {
      const work = remote.clone('redirects');
      const { writeFileSync } = await import('node:fs');
      const { join } = await import('node:path');
      writeFileSync(join(work, '.gitbook.yaml'), 'redirects:\n  old/setup: guides/configure.md\n');
      remote.push(work, 'Redirect the old setup page to the configuration');
      t.clock.advance(1000);
      assert.equal((await world.admin.api.post(`/v1/spaces/${spaceId}/git/import`, { url: remote.url('redirects'), ref: 'refs/heads/main' })).status, 204);
      await runJobs(t.ctx);
      assert.equal((await lastOperation(t.ctx, spaceId)).state, 'success');
      const old = await get('/old/setup');
      assert.equal(old.status, 301);
      assert.equal(old.headers.location, `${site.root}/guides/configure`);
      assert.equal((await get('/getting-started')).status, 404, 'a redirect removed from .gitbook.yaml is gone');
    });

    const many = (count: number) => `redirects:\n${Array.from({ length: count }, (_, i) => `  old/page-${i}: install.md`).join('\n')}\n`;

    it(`keeps up to ${MAX_REDIRECTS.toLocaleString('en')} redirects, read off the event loop, and refuses a Git import of more (100,000) saying why, changing nothing`, async () => {
      const work = remote.clone('redirects');
      const { writeFileSync } = await import('node:fs');
      const { join } = await import('node:path');
      writeFileSync(join(work, '.gitbook.yaml'), many(MAX_REDIRECTS));
      remote.push(work, 'The most redirects a space keeps');
      t.clock.advance(1000);
      assert.equal((await world.admin.api.post(`/v1/spaces/${spaceId}/git/import`, { url: remote.url('redirects'), ref: 'refs/heads/main' })).status, 204);
      await runJobs(t.ctx);
      const kept = await lastOperation(t.ctx, spaceId);
      assert.equal(kept.state, 'success', kept.error ?? '');
      const last = await get(`/old/page-${MAX_REDIRECTS - 1}`);
      assert.equal(last.status, 301);
      assert.equal(last.headers.location, `${site.root}/install`);

      writeFileSync(join(work, '.gitbook.yaml'), many(100_000));
      remote.push(work, 'Too many redirects');
      t.clock.advance(1000);
      assert.equal((await world.admin.api.post(`/v1/spaces/${spaceId}/git/import`, { url: remote.url('redirects'), ref: 'refs/heads/main' })).status, 204);
      await runJobs(t.ctx);
      const refused = await lastOperation(t.ctx, spaceId);
      assert.equal(refused.state, 'failure');
      assert.match(refused.error ?? '', /\.gitbook\.yaml (lists 100,000 redirects|is \d+ KB), more than/);
      assert.equal((await get(`/old/page-${MAX_REDIRECTS - 1}`)).status, 301, 'the redirects of the last good import stay');
    });
  });
}
