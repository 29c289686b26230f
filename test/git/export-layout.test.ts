import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dialects } from '../helpers/app.ts';
import { createSpace, editContent } from '../helpers/content-factory.ts';
import { useGitSuite } from '../helpers/git-suite.ts';
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
    const git = useGitSuite(dialect);
    const same = (actual: Map<string, Buffer>, expected: Record<string, string>, except: string[] = []) => {
      for (const [path, text] of Object.entries(expected)) {
        if (except.includes(path)) continue;
        assert.equal(actual.get(path)?.toString('utf8'), text, `${path} changed`);
      }
      const extra = [...actual.keys()].filter((path) => !(path in expected) && !except.includes(path));
      assert.deepEqual(extra, [], 'files written outside the layout');
    };

    it('exports an untouched space to a new branch as the same files, byte for byte', async () => {
      git.remote.createRepo('layout-new', REPO);
      const spaceId = await createSpace(git.t.ctx, git.world.organizationId);
      await git.sync(spaceId, 'import', 'layout-new');
      await git.sync(spaceId, 'export', 'layout-new', 'refs/heads/copy');
      same(git.remote.files('layout-new', 'copy'), REPO);
    });

    it('changes only the edited page, to the same branch and to a new one', async () => {
      git.remote.createRepo('layout-edit', REPO);
      const spaceId = await createSpace(git.t.ctx, git.world.organizationId);
      await git.sync(spaceId, 'import', 'layout-edit');
      const pages = (await git.world.members.edit.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as Array<{ id: string; title: string; pages: Array<{ id: string; title: string }> }>;
      const install = pages.flatMap((page) => [page, ...page.pages]).find((page) => page.title === 'Install')!;
      await editContent(git.t.ctx, spaceId, (writer) => writer.updatePage(install.id, { markdown: '{% hint style="info" %}\nRun it twice.\n{% endhint %}\n' }));
      await git.sync(spaceId, 'export', 'layout-edit', 'refs/heads/edited');
      const edited = git.remote.files('layout-edit', 'edited');
      same(edited, REPO, ['docs/guides/install.md']);
      assert.equal(edited.get('docs/guides/install.md')?.toString(), '# Install\n\n{% hint style="info" %}\nRun it twice.\n{% endhint %}\n');
      await git.sync(spaceId, 'export', 'layout-edit');
      const main = git.remote.files('layout-edit');
      same(main, REPO, ['docs/guides/install.md']);
      assert.equal(main.get('docs/guides/install.md')?.toString(), edited.get('docs/guides/install.md')?.toString());
    });
  });
}
