import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dialects } from '../helpers/app.ts';
import { createSpace, editContent } from '../helpers/content-factory.ts';
import { useGitSuite } from '../helpers/git-suite.ts';
import { needs } from '../helpers/system.ts';

/**
 * A link page that points at a page of the same space is written in SUMMARY.md as that page's path, as
 * GitBook writes it, and read back as a link to that page (decision 0111): export then import keeps the
 * link and its target, and a GitBook repository whose SUMMARY.md names a file twice round-trips unchanged.
 */
const SUMMARY = [
  '# Table of contents',
  '',
  '* [Welcome](README.md)',
  '* [Shortcut to setup](guides/setup.md)',
  '* [Guides](guides/README.md)',
  '  * [Setup](guides/setup.md)',
  '  * [Ports](guides/setup.md#ports)',
  '* [Setup again](guides/setup.md)',
  '* [Elsewhere](https://example.com/docs)',
  '',
].join('\n');
const REPO: Record<string, string> = {
  'README.md': '# Welcome\n\nHello.\n',
  'SUMMARY.md': SUMMARY,
  'guides/README.md': '# Guides\n\nAll the guides.\n',
  'guides/setup.md': '# Setup\n\n## Ports\n\nOpen 3000.\n',
};

interface ApiPage {
  id: string;
  title: string;
  type: string;
  target?: { kind: string; page?: string; anchor?: string; url?: string };
  pages?: ApiPage[];
}
const flatten = (list: ApiPage[]): ApiPage[] => list.flatMap((page) => [page, ...flatten(page.pages ?? [])]);

for (const dialect of dialects) {
  describe(`Link pages to pages through Git [${dialect}]`, { skip: needs('git') }, () => {
    const git = useGitSuite(dialect);
    const pagesOf = async (spaceId: string) => flatten((await git.world.members.edit.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as ApiPage[]);

    it('reads a file named twice in SUMMARY.md as one page and links to it, and exports it back unchanged', async () => {
      git.remote.createRepo('twice', REPO);
      const head = git.remote.head('twice', 'refs/heads/main');
      const spaceId = await createSpace(git.t.ctx, git.world.organizationId);
      await git.sync(spaceId, 'import', 'twice');
      const pages = await pagesOf(spaceId);
      const setup = pages.filter((page) => page.type === 'document' && page.title === 'Setup');
      assert.equal(setup.length, 1, 'one page holds guides/setup.md');
      const guides = pages.find((page) => page.title === 'Guides')!;
      assert.deepEqual(guides.pages?.map((page) => [page.title, page.type]), [['Setup', 'document'], ['Ports', 'link']]);
      const link = (title: string) => pages.find((page) => page.title === title)!;
      assert.deepEqual([link('Shortcut to setup').type, link('Shortcut to setup').target], ['link', { kind: 'page', page: setup[0].id }]);
      assert.deepEqual(link('Setup again').target, { kind: 'page', page: setup[0].id });
      assert.deepEqual(link('Ports').target, { kind: 'anchor', anchor: 'ports', page: setup[0].id });
      assert.deepEqual(link('Elsewhere').target, { kind: 'url', url: 'https://example.com/docs' });

      await git.sync(spaceId, 'export', 'twice');
      assert.equal(git.remote.head('twice', 'refs/heads/main'), head, 'the export made no commit');
      await git.sync(spaceId, 'export', 'twice', 'refs/heads/copy');
      assert.equal(git.remote.files('twice', 'copy').get('SUMMARY.md')?.toString('utf8'), SUMMARY);
    });

    it('exports a link page made in Quire as its target page\'s path, and imports it back as a link to that page', async () => {
      const spaceId = await createSpace(git.t.ctx, git.world.organizationId);
      await editContent(git.t.ctx, spaceId, (writer) => {
        const intro = writer.addPage({ type: 'document', title: 'Introduction', markdown: 'Hello.\n' });
        const install = writer.addPage({ type: 'document', title: 'Install', markdown: '## Linux\n\nRun it.\n' });
        writer.addPage({ type: 'link', title: 'Start here', target: { kind: 'page', page: install } });
        writer.addPage({ type: 'link', title: 'Linux steps', target: { kind: 'anchor', anchor: 'linux', page: install } });
        writer.addPage({ type: 'link', title: 'Home', target: { kind: 'page', page: intro } });
      });
      git.remote.createRepo('made', { 'keep.txt': 'x\n' });
      await git.sync(spaceId, 'export', 'made');
      const summary = git.remote.files('made', 'main').get('SUMMARY.md')?.toString('utf8') ?? '';
      assert.match(summary, /^\* \[Start here\]\(install\.md\)$/m);
      assert.match(summary, /^\* \[Linux steps\]\(install\.md#linux\)$/m);
      assert.match(summary, /^\* \[Home\]\(introduction\.md\)$/m);
      assert.doesNotMatch(summary, /\]\(\)/, 'no link page has an empty address');

      const copy = await createSpace(git.t.ctx, git.world.organizationId);
      await git.sync(copy, 'import', 'made');
      const pages = await pagesOf(copy);
      const page = (title: string) => pages.find((entry) => entry.title === title)!;
      assert.deepEqual(pages.map((entry) => [entry.title, entry.type]), [['Introduction', 'document'], ['Install', 'document'], ['Start here', 'link'], ['Linux steps', 'link'], ['Home', 'link']]);
      assert.deepEqual(page('Start here').target, { kind: 'page', page: page('Install').id });
      assert.deepEqual(page('Linux steps').target, { kind: 'anchor', anchor: 'linux', page: page('Install').id });
      assert.deepEqual(page('Home').target, { kind: 'page', page: page('Introduction').id });
      const head = git.remote.head('made', 'refs/heads/main');
      await git.sync(copy, 'export', 'made');
      assert.equal(git.remote.head('made', 'refs/heads/main'), head, 'exporting the imported copy made no commit');
    });
  });
}
