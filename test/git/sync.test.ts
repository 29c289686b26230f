import assert from 'node:assert/strict';
import { readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { getObject } from '../../src/content/objects.ts';
import { findRevision } from '../../src/content/revisions.ts';
import { loadTree, walkPages, type RevisionTree } from '../../src/content/tree.ts';
import { dialects, type TestApp } from '../helpers/app.ts';
import { createSpace, currentRevision, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { createGitTestApp, lastOperation, runJobs } from './helpers.ts';
import { startGitServer, type GitServer } from './server.ts';
import { needs } from '../helpers/system.ts';

/**
 * Both ways: an edit in Quire reaches the branch as one commit that changes only the lines it changed, by
 * the user and committed by Quire; a push reaches the space as one revision in which only the pushed page
 * changed and every page keeps its id. Deletions, additions, Quire's own pushes coming back, a branch that
 * moved, `force`, `standalone` and `timestamp` order.
 */
const REPO = {
  'README.md': '# Welcome\n\nStart here.\n',
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md)\n* [Guides](guides/README.md)\n  * [Configure](guides/configure.md)\n  * [Upgrade](guides/upgrade.md)\n\n## Reference\n\n* [API](reference/api.md)\n',
  'install.md': '---\ndescription: How to install.\n---\n\n# Install\n\nRun the installer.\n\n* one\n* two\n\nThen [configure it](guides/configure.md).\n',
  'guides/README.md': '# Guides\n\nHow to.\n',
  'guides/configure.md': '# Configure\n\nSet   the options  (oddly spaced, kept as written).\n\nMore text.\n',
  'guides/upgrade.md': '# Upgrade\n\nUpgrade carefully.\n',
  'reference/api.md': '# API\n\n![Diagram](../.gitbook/assets/diagram.png)\n',
  '.gitbook/assets/diagram.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]),
  'CONTRIBUTING.md': 'Not a page of the docs: never touched.\n',
};

for (const dialect of dialects) {
  describe(`Git Sync both ways [${dialect}]`, { skip: needs('git') }, () => {
    let t: TestApp;
    let world: World;
    let remote: GitServer;
    let spaceId: string;
    const url = () => remote.url('sync');
    const ref = 'refs/heads/main';
    const api = () => world.members.edit.api;
    const tree = async (): Promise<RevisionTree> => loadTree(t.ctx, (await findRevision(t.ctx, await currentRevision(t.ctx, spaceId)))!.root);
    const pageByPath = async (path: string) => [...walkPages((await tree()).pages)].find((page) => page.node.git?.path === path)!;
    const operate = async (direction: 'import' | 'export', extra: Record<string, unknown> = {}) => {
      t.clock.advance(1000);
      const reply = await api().post(`/v1/spaces/${spaceId}/git/${direction}`, { url: url(), ref, ...(direction === 'export' ? { commitMessage: 'Update from Quire' } : {}), ...extra });
      assert.equal(reply.status, 204, JSON.stringify(reply.body));
      await runJobs(t.ctx);
      return lastOperation(t.ctx, spaceId);
    };

    before(async () => {
      t = await createGitTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      remote = await startGitServer();
      remote.createRepo('sync', REPO);
      spaceId = await createSpace(t.ctx, world.organizationId);
      const operation = await operate('import');
      assert.equal(operation.state, 'success', operation.error ?? '');
    });
    after(async () => {
      await t.close();
      await remote.close();
    });

    it('exports an edit in Quire as one commit that changes only the edited lines, authored by the user, committed by Quire', async () => {
      const page = await pageByPath('guides/configure.md');
      const markdown = await getObject(t.ctx, page.node.body!);
      await editContent(t.ctx, spaceId, (writer) => writer.updatePage(page.node.id, { markdown: markdown.replace('More text.', 'More text, edited in Quire.') }));
      const before = remote.head('sync');
      const operation = await operate('export');
      assert.equal(operation.state, 'success', operation.error ?? '');
      const after = remote.head('sync');
      assert.notEqual(after, before);
      assert.equal(remote.log('sync').length, 2, 'one commit');
      assert.equal(remote.diff('sync', before, after, '--name-only').trim(), 'guides/configure.md');
      const patch = remote.diff('sync', before, after, '-U0');
      assert.deepEqual(patch.split('\n').filter((line) => /^[+-][^+-]/.test(line)), ['-More text.', '+More text, edited in Quire.']);
      assert.match(remote.log('sync')[0], new RegExp(`^${after} edit <${world.members.edit.email}> \\| Quire \\| Update from Quire$`));
      const revision = (await api().get(`/v1/spaces/${spaceId}/content`)).body;
      assert.deepEqual(revision.git, { oid: after, message: 'Update from Quire', createdByGitBook: true, ref });
    });

    it("ignores Quire's own push coming back: no revision", async () => {
      const head = await currentRevision(t.ctx, spaceId);
      const operation = await operate('import');
      assert.equal(operation.state, 'success');
      assert.equal(await currentRevision(t.ctx, spaceId), head);
    });

    it('imports a push that edits one file as one revision in which only that page changed, ids kept', async () => {
      const beforeTree = await tree();
      const work = remote.clone('sync');
      writeFileSync(join(work, 'guides/upgrade.md'), '# Upgrade\n\nUpgrade carefully, and read the notes.\n');
      const pushed = remote.push(work, 'Edit the upgrade guide');
      rmSync(work, { recursive: true, force: true });
      const headBefore = await currentRevision(t.ctx, spaceId);
      const operation = await operate('import');
      assert.equal(operation.state, 'success', operation.error ?? '');
      const revision = (await findRevision(t.ctx, await currentRevision(t.ctx, spaceId)))!;
      assert.deepEqual(revision.parents, [headBefore], 'one new revision over the previous one');
      assert.equal(revision.git?.oid, pushed);
      const afterTree = await tree();
      const changed = [...afterTree.byId.values()].filter((page) => beforeTree.byId.get(page.node.id)?.node.body !== page.node.body).map((page) => page.node.git?.path);
      assert.deepEqual(changed, ['guides/upgrade.md']);
      assert.deepEqual([...afterTree.byId.keys()].sort(), [...beforeTree.byId.keys()].sort(), 'every page keeps its id');
      assert.deepEqual(afterTree.root.files.map((file) => file.id), beforeTree.root.files.map((file) => file.id));
      // That import read only the pushed file; a full import of the same commit gives the same content
      // (but for the blob ids of pages Quire exported since their import, which only an import refreshes).
      assert.equal((await operate('import', { force: true })).state, 'success');
      const full = await tree();
      const shape = (t: RevisionTree) => [...walkPages(t.pages)].map(({ node }) => JSON.stringify({ ...node, children: node.children.length, git: node.git?.path }));
      assert.deepEqual(shape(full), shape(afterTree));
    });

    it('writes a page added in Quire as a new file and one line of SUMMARY.md; a deleted page removes its file and its line', async () => {
      const guides = await pageByPath('guides/README.md');
      await editContent(t.ctx, spaceId, (writer) => {
        writer.addPage({ type: 'document', title: 'Troubleshoot', markdown: 'When it breaks.\n' }, { parent: guides.node.id });
      });
      let before = remote.head('sync');
      let operation = await operate('export');
      assert.equal(operation.state, 'success', operation.error ?? '');
      let after = remote.head('sync');
      assert.deepEqual(remote.diff('sync', before, after, '--name-status').trim().split('\n'), ['M\tSUMMARY.md', 'A\tguides/troubleshoot.md']);
      assert.equal(remote.files('sync').get('guides/troubleshoot.md')!.toString('utf8'), '# Troubleshoot\n\nWhen it breaks.\n');
      assert.deepEqual(remote.diff('sync', before, after, '-U0', '--', 'SUMMARY.md').split('\n').filter((line) => /^[+-][^+-]/.test(line)), ['+  * [Troubleshoot](guides/troubleshoot.md)']);

      const upgrade = await pageByPath('guides/upgrade.md');
      await editContent(t.ctx, spaceId, (writer) => writer.removePage(upgrade.node.id));
      before = after;
      operation = await operate('export');
      assert.equal(operation.state, 'success', operation.error ?? '');
      after = remote.head('sync');
      assert.deepEqual(remote.diff('sync', before, after, '--name-status').trim().split('\n'), ['M\tSUMMARY.md', 'D\tguides/upgrade.md']);
      assert.equal(remote.files('sync').get('CONTRIBUTING.md')!.toString('utf8'), REPO['CONTRIBUTING.md'], 'a file Quire did not write is never touched');
    });

    it('merges a branch that moved into the space before exporting (nothing lost on either side), as one commit on top of it', async () => {
      const work = remote.clone('sync');
      writeFileSync(join(work, 'README.md'), '# Welcome\n\nStart here. Pushed meanwhile.\n');
      const pushed = remote.push(work, 'Meanwhile');
      rmSync(work, { recursive: true, force: true });
      const install = await pageByPath('install.md');
      const markdown = await getObject(t.ctx, install.node.body!);
      await editContent(t.ctx, spaceId, (writer) => writer.updatePage(install.node.id, { markdown: markdown.replace('Run the installer.', 'Run the new installer.') }));
      const operation = await operate('export');
      assert.equal(operation.state, 'success', operation.error ?? '');
      const after = remote.head('sync');
      assert.equal(remote.log('sync')[1].split(' ')[0], pushed, 'a normal commit on top of the branch');
      assert.equal(remote.diff('sync', pushed, after, '--name-only').trim(), 'install.md');
      assert.equal(remote.files('sync').get('README.md')!.toString('utf8'), '# Welcome\n\nStart here. Pushed meanwhile.\n');
      const readme = await getObject(t.ctx, (await pageByPath('README.md')).node.body!);
      assert.match(readme, /Pushed meanwhile/, 'the push reached the space too');
      const head = (await findRevision(t.ctx, await currentRevision(t.ctx, spaceId)))!;
      assert.equal(head.type, 'merge');
    });

    it('stops at a conflict, naming the page, with nothing changed on either side; force writes the space over the branch as a new commit', async () => {
      const work = remote.clone('sync');
      writeFileSync(join(work, 'install.md'), readFileSync(join(work, 'install.md'), 'utf8').replace('Run the new installer.', 'Run the installer from the branch.'));
      const pushed = remote.push(work, 'Conflicting edit');
      rmSync(work, { recursive: true, force: true });
      const install = await pageByPath('install.md');
      const markdown = await getObject(t.ctx, install.node.body!);
      await editContent(t.ctx, spaceId, (writer) => writer.updatePage(install.node.id, { markdown: markdown.replace('Run the new installer.', 'Run the installer from Quire.') }));
      const head = await currentRevision(t.ctx, spaceId);
      let operation = await operate('export');
      assert.equal(operation.state, 'failure');
      assert.match(operation.error ?? '', /"Install" \(body\)/);
      assert.equal(remote.head('sync'), pushed, 'nothing pushed');
      assert.equal(await currentRevision(t.ctx, spaceId), head, 'the space did not move');
      operation = await operate('export', { force: true });
      assert.equal(operation.state, 'success', operation.error ?? '');
      assert.equal(remote.log('sync')[1].split(' ')[0], pushed);
      assert.match(remote.files('sync').get('install.md')!.toString('utf8'), /Run the installer from Quire\./);
    });

    it('imports standalone without moving the space, and skips an operation older than the last one unless forced', async () => {
      const head = await currentRevision(t.ctx, spaceId);
      let operation = await operate('import', { standalone: true });
      assert.equal(operation.state, 'success', operation.error ?? '');
      assert.ok(operation.revision_id && operation.revision_id !== head);
      assert.equal(await currentRevision(t.ctx, spaceId), head);

      operation = await operate('import', { timestamp: '2026-03-02T00:00:00.000Z', force: true });
      assert.equal(operation.state, 'success', operation.error ?? '');
      operation = await operate('import', { timestamp: '2026-03-01T00:00:00.000Z' });
      assert.equal(operation.state, 'failure');
      assert.match(operation.error ?? '', /skipped/);
    });

    it('a file removed by a push removes its page, and a file added adds one', async () => {
      const work = remote.clone('sync');
      unlinkSync(join(work, 'install.md'));
      writeFileSync(join(work, 'SUMMARY.md'), readFileSync(join(work, 'SUMMARY.md'), 'utf8').replace('* [Install](install.md)\n', '* [FAQ](faq.md)\n'));
      writeFileSync(join(work, 'faq.md'), '# FAQ\n\nAsk.\n');
      remote.push(work, 'Replace install by FAQ');
      rmSync(work, { recursive: true, force: true });
      const before = await tree();
      const operation = await operate('import');
      assert.equal(operation.state, 'success', operation.error ?? '');
      const after = await tree();
      const titles = (t: RevisionTree) => [...walkPages(t.pages)].map((page) => page.node.title);
      assert.ok(!titles(after).includes('Install') && titles(after).includes('FAQ'));
      assert.equal(after.byId.size, before.byId.size);
    });
  });
}
