import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type TestApp } from '../helpers/app.ts';
import { createSpace, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { createGitTestApp, lastOperation, runJobs } from './helpers.ts';
import { startGitServer, type GitServer } from './server.ts';
import { needs } from '../helpers/system.ts';

/**
 * An export keeps the repository's layout (`.gitbook.yaml`'s root, its readme and summary names, every
 * path) and leaves every file no edit touched byte-identical, to the branch it was imported from and to a
 * new branch alike.
 */
const REPO: Record<string, string> = {
  '.gitbook.yaml': 'root: ./docs/\n\nstructure:\n  readme: intro.md\n  summary: toc.md\n',
  'package.json': '{ "name": "not-docs" }\n',
  'docs/intro.md': '---\ndescription: Where to begin\n---\n\n# Introduction\n\nWelcome,   with spaces kept.  \r\n',
  'docs/toc.md': '# Contents\n\n* [Introduction](intro.md)\n\n## Guides <a href="#guides" id="guides"></a>\n\n* [Install](guides/install.md)\n* [Use Rocket.Chat](guides/use-rocket.chat.md)\n',
  'docs/guides/install.md': '# Install\n\n{% hint style="info" %}\nRun it.\n{% endhint %}\n',
  'docs/guides/use-rocket.chat.md': '# Use Rocket.Chat\n\n* one\n* two\n',
  'docs/.gitbook/assets/image (1).png': 'png bytes',
};

for (const dialect of dialects) {
  describe(`Export keeps the repository's layout [${dialect}]`, { skip: needs('git') }, () => {
    let t: TestApp;
    let world: World;
    let remote: GitServer;
    before(async () => {
      t = await createGitTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      remote = await startGitServer();
    });
    after(async () => {
      await t.close();
      await remote.close();
    });
    const sync = async (spaceId: string, direction: 'import' | 'export', name: string, ref = 'refs/heads/main') => {
      t.clock.advance(1000);
      const body = { url: remote.url(name), ref, ...(direction === 'export' ? { commitMessage: 'Export' } : {}) };
      assert.equal((await world.members.edit.api.post(`/v1/spaces/${spaceId}/git/${direction}`, body)).status, 204);
      await runJobs(t.ctx);
      const operation = await lastOperation(t.ctx, spaceId);
      assert.equal(operation.state, 'success', operation.error ?? '');
    };
    const same = (actual: Map<string, Buffer>, expected: Record<string, string>, except: string[] = []) => {
      for (const [path, text] of Object.entries(expected)) {
        if (except.includes(path)) continue;
        assert.equal(actual.get(path)?.toString('utf8'), text, `${path} changed`);
      }
      const extra = [...actual.keys()].filter((path) => !(path in expected) && !except.includes(path));
      assert.deepEqual(extra, [], 'files written outside the layout');
    };

    it('exports an untouched space to a new branch as the same files, byte for byte', async () => {
      remote.createRepo('layout-new', REPO);
      const spaceId = await createSpace(t.ctx, world.organizationId);
      await sync(spaceId, 'import', 'layout-new');
      await sync(spaceId, 'export', 'layout-new', 'refs/heads/copy');
      same(remote.files('layout-new', 'copy'), REPO);
    });

    it('changes only the edited page, to the same branch and to a new one', async () => {
      remote.createRepo('layout-edit', REPO);
      const spaceId = await createSpace(t.ctx, world.organizationId);
      await sync(spaceId, 'import', 'layout-edit');
      const pages = (await world.members.edit.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as Array<{ id: string; title: string; pages: Array<{ id: string; title: string }> }>;
      const install = pages.flatMap((page) => [page, ...page.pages]).find((page) => page.title === 'Install')!;
      await editContent(t.ctx, spaceId, (writer) => writer.updatePage(install.id, { markdown: '{% hint style="info" %}\nRun it twice.\n{% endhint %}\n' }));
      await sync(spaceId, 'export', 'layout-edit', 'refs/heads/edited');
      const edited = remote.files('layout-edit', 'edited');
      same(edited, REPO, ['docs/guides/install.md']);
      assert.equal(edited.get('docs/guides/install.md')?.toString(), '# Install\n\n{% hint style="info" %}\nRun it twice.\n{% endhint %}\n');
      await sync(spaceId, 'export', 'layout-edit');
      const main = remote.files('layout-edit');
      same(main, REPO, ['docs/guides/install.md']);
      assert.equal(main.get('docs/guides/install.md')?.toString(), edited.get('docs/guides/install.md')?.toString());
    });
  });
}
