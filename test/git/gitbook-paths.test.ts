import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type TestApp } from '../helpers/app.ts';
import { createSpace } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { browse, createSite, type SiteHandle } from '../published/support.ts';
import { createGitTestApp, lastOperation, runJobs } from './helpers.ts';
import { startGitServer, type GitServer } from './server.ts';
import { needs } from '../helpers/system.ts';

/**
 * After a Git import, a page's slug and path are the ones GitBook gives the same file: names keep their
 * dots (`use-rocket.chat.md` → `use-rocket.chat`), the children of the top README stay under `readme/`,
 * and where Quire must differ (a name with a space) GitBook's address answers 301.
 */
const REPO = {
  'README.md': '# Rocket.Chat\n\nThe landing page.\n',
  'SUMMARY.md': [
    '# Table of contents',
    '',
    '* [Rocket.Chat](README.md)',
    '  * [Our Plans](readme/our-plans.md)',
    '',
    '## Deploy',
    '',
    '* [Deploy Rocket.Chat](deploy/deploy-rocket.chat/README.md)',
    '  * [System Requirements](deploy/deploy-rocket.chat/system-requirements.md)',
    '* [Use Rocket.Chat](use-rocket.chat.md)',
    '* [Getting started](getting%20started.md)',
    '',
    '## Use Rocket.Chat',
    '',
    '* [Workspace Administration](use-rocket.chat/workspace-administration/README.md)',
    '',
  ].join('\n'),
  'use-rocket.chat/workspace-administration/README.md': '# Workspace Administration\n\nAdminister.\n',
  'readme/our-plans.md': '# Our Plans\n\nPlans.\n',
  'deploy/deploy-rocket.chat/README.md': '# Deploy Rocket.Chat\n\nDeploy it.\n',
  'deploy/deploy-rocket.chat/system-requirements.md': '# System Requirements\n\nA machine.\n',
  'use-rocket.chat.md': '# Use Rocket.Chat\n\nUse it.\n',
  'getting started.md': '# Getting started\n\nStart.\n',
};

interface ApiPage { title: string; path?: string; slug?: string; pages?: ApiPage[] }
const flatten = (pages: ApiPage[]): ApiPage[] => pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);

for (const dialect of dialects) {
  describe(`Paths of pages imported from Git [${dialect}]`, { skip: needs('git') }, () => {
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
      remote.createRepo('rocket', REPO);
      spaceId = await createSpace(t.ctx, world.organizationId);
      assert.equal((await world.admin.api.post(`/v1/spaces/${spaceId}/git/import`, { url: remote.url('rocket'), ref: 'refs/heads/main' })).status, 204);
      await runJobs(t.ctx);
      const operation = await lastOperation(t.ctx, spaceId);
      assert.equal(operation.state, 'success', operation.error ?? '');
      site = await createSite(world.admin, world.organizationId, { title: 'Rocket docs', visibility: 'public', spaces: [spaceId] });
    });
    after(async () => {
      await t.close();
      await remote.close();
    });

    it('gives each page the path GitBook gives its file, dots and readme folder kept', async () => {
      const pages = flatten((await world.admin.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as ApiPage[]);
      const pathOf = (title: string) => pages.find((page) => page.title === title)?.path;
      assert.equal(pathOf('Our Plans'), 'readme/our-plans');
      assert.equal(pathOf('Deploy Rocket.Chat'), 'deploy/deploy-rocket.chat');
      assert.equal(pathOf('System Requirements'), 'deploy/deploy-rocket.chat/system-requirements');
      assert.equal(pathOf('Use Rocket.Chat'), 'deploy/use-rocket.chat');
      assert.equal(pathOf('Workspace Administration'), 'use-rocket.chat/workspace-administration', 'a group keeps the dots of its title');
      for (const path of ['/readme/our-plans', '/deploy/deploy-rocket.chat', '/deploy/deploy-rocket.chat/system-requirements', '/deploy/use-rocket.chat']) {
        assert.equal((await get(path)).status, 200, path);
      }
    });

    it('answers GitBook\'s address with a 301 where Quire\'s path differs', async () => {
      const pages = flatten((await world.admin.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as ApiPage[]);
      assert.equal(pages.find((page) => page.title === 'Getting started')?.path, 'deploy/getting-started');
      const old = await get('/deploy/getting%20started');
      assert.equal(old.status, 301, old.body.slice(0, 200));
      assert.equal(old.headers.location, `${site.root}/deploy/getting-started`);
    });
  });
}
