import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { dialects, type TestApp } from '../helpers/app.ts';
import { createSpace, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { createGitTestApp, lastOperation, runJobs } from './helpers.ts';
import { startGitServer, type GitServer } from './server.ts';
import { needs } from '../helpers/system.ts';

/**
 * Every page has a file of its own: a page created through the API gets a path derived from its slug in
 * its parent's folder that no other page or file holds, and an export never writes one page over another's
 * file. The property: random creates, moves, renames and deletes, exported and imported back, keep every
 * page's id and content and lose no file of the repository.
 */

const dataUrl = (markdown: string) => `data:text/markdown;base64,${Buffer.from(markdown).toString('base64')}`;

const REPO: Record<string, string | Buffer> = {
  'README.md': '# Welcome\n\nThe landing page.\n',
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guides](guides/README.md)\n  * [Install](guides/install.md)\n',
  'guides/README.md': '# Guides\n\nAll guides.\n',
  'guides/install.md': '# Install\n\nRun it.\n',
  'CONTRIBUTING.md': 'Not a page: no summary entry names it.\n',
  '.gitbook/assets/logo.png': Buffer.from('not really a png'),
};

interface ApiPage { id: string; title: string; type: string; pages?: ApiPage[] }
const flatten = (pages: ApiPage[]): ApiPage[] => pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);

for (const dialect of dialects) {
  describe(`Git paths of pages [${dialect}]`, { skip: needs('git') }, () => {
    let t: TestApp;
    let world: World;
    let remote: GitServer;
    let repos = 0;
    before(async () => {
      t = await createGitTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      remote = await startGitServer();
    });
    after(async () => {
      await t.close();
      await remote.close();
    });
    const api = () => world.members.edit.api;

    const sync = async (spaceId: string, direction: 'import' | 'export', name: string, extra: Record<string, unknown> = {}) => {
      t.clock.advance(1000);
      const reply = await api().post(`/v1/spaces/${spaceId}/git/${direction}`, { url: remote.url(name), ref: 'refs/heads/main', ...(direction === 'export' ? { commitMessage: 'Export' } : {}), ...extra });
      assert.equal(reply.status, 204, JSON.stringify(reply.body));
      await runJobs(t.ctx);
      const operation = await lastOperation(t.ctx, spaceId);
      assert.equal(operation.state, 'success', operation.error ?? '');
    };
    const imported = async () => {
      const name = `repo-${++repos}`;
      remote.createRepo(name, REPO);
      const spaceId = await createSpace(t.ctx, world.organizationId);
      await sync(spaceId, 'import', name);
      return { spaceId, name };
    };
    const pagesOf = async (spaceId: string) => flatten((await api().get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as ApiPage[]);
    const markdownOf = async (spaceId: string, pageId: string): Promise<string> => (await api().get(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`)).body.markdown;

    it('gives a page created through the API a file of its own: the landing page and the summary keep theirs', async () => {
      const { spaceId, name } = await imported();
      const created = await api().post(`/v1/spaces/${spaceId}/content/import`, { source: 'markdown', url: dataUrl('# Fresh\n\nA new page.\n') });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const unnamed = await api().post(`/v1/spaces/${spaceId}/content/import`, { source: 'markdown', url: 'data:text/markdown,Plain%20text.' });
      assert.equal(unnamed.status, 201, JSON.stringify(unnamed.body));
      await sync(spaceId, 'export', name);
      const files = remote.files(name);
      assert.equal(files.get('README.md')?.toString(), REPO['README.md'], 'the landing page was written over');
      assert.equal(files.get('CONTRIBUTING.md')?.toString(), REPO['CONTRIBUTING.md']);
      assert.equal(files.get('fresh.md')?.toString(), '# Fresh\n\nA new page.\n');
      assert.equal(files.get('imported-page.md')?.toString(), '# Imported page\n\nPlain text.');
      const summary = files.get('SUMMARY.md')!.toString();
      assert.match(summary, /\* \[Fresh\]\(fresh\.md\)/);
      assert.match(summary, /\* \[Imported page\]\(imported-page\.md\)/);
      assert.equal(summary.match(/\(README\.md\)/g)?.length, 1, summary);
    });

    it('never writes a page over a file of the branch that is not a page: the export stops and names both', async () => {
      const { spaceId, name } = await imported();
      const created = await api().post(`/v1/spaces/${spaceId}/content/import`, { source: 'markdown', url: dataUrl('# Contributing\n\nOur rules.\n') });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      t.clock.advance(1000);
      await api().post(`/v1/spaces/${spaceId}/git/export`, { url: remote.url(name), ref: 'refs/heads/main', commitMessage: 'Export' });
      await runJobs(t.ctx).catch(() => 0);
      const operation = await lastOperation(t.ctx, spaceId);
      assert.equal(operation.state, 'failure');
      assert.match(operation.error ?? '', /"Contributing" would be written over "CONTRIBUTING\.md"/);
      assert.equal(remote.files(name).get('CONTRIBUTING.md')?.toString(), REPO['CONTRIBUTING.md']);
    });

    it('keeps every page, id and file through random creates, moves, renames and deletes, exported and imported back', async () => {
      type Op =
        | { kind: 'create'; title: string; body: string }
        | { kind: 'createUnder'; at: number; title: string }
        | { kind: 'move'; from: number; to: number }
        | { kind: 'rename'; at: number; title: string }
        | { kind: 'delete'; at: number };
      const title = fc.constantFrom('Fresh', 'Install', 'Guides', 'Welcome', 'README', 'Summary', 'Setup', 'Use Rocket.Chat', 'Logo');
      const op: fc.Arbitrary<Op> = fc.oneof(
        fc.record({ kind: fc.constant('create' as const), title, body: fc.constantFrom('Body one.', 'Body two.\n', 'See [the guide](guides/install.md).') }),
        fc.record({ kind: fc.constant('createUnder' as const), at: fc.nat(20), title }),
        fc.record({ kind: fc.constant('move' as const), from: fc.nat(20), to: fc.nat(21) }),
        fc.record({ kind: fc.constant('rename' as const), at: fc.nat(20), title }),
        fc.record({ kind: fc.constant('delete' as const), at: fc.nat(20) }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
          const { spaceId, name } = await imported();
          for (const step of ops) {
            const documents = (await pagesOf(spaceId)).filter((page) => page.type === 'document');
            const pick = (n: number) => documents[n % documents.length];
            if (step.kind === 'create') {
              const reply = await api().post(`/v1/spaces/${spaceId}/content/import`, { source: 'markdown', url: dataUrl(`# ${step.title}\n\n${step.body}`) });
              assert.equal(reply.status, 201, JSON.stringify(reply.body));
              continue;
            }
            if (documents.length === 0) continue;
            await editContent(t.ctx, spaceId, (writer) => {
              if (step.kind === 'createUnder') writer.addPage({ type: 'document', title: step.title, markdown: `Under ${step.title}.\n` }, { parent: pick(step.at).id });
              else if (step.kind === 'rename') writer.updatePage(pick(step.at).id, { title: step.title });
              else if (step.kind === 'delete') writer.removePage(pick(step.at).id);
              else {
                const moving = pick(step.from);
                const target = step.to >= documents.length ? null : pick(step.to);
                // A page cannot go under itself or its own descendants.
                let parent = target;
                const below = new Set(flatten([moving]).map((page) => page.id));
                if (parent && below.has(parent.id)) parent = null;
                writer.movePage(moving.id, { parent: parent?.id ?? null });
              }
            });
          }
          const before = await pagesOf(spaceId);
          const bodies = new Map(await Promise.all(before.filter((page) => page.type === 'document').map(async (page) => [page.id, await markdownOf(spaceId, page.id)] as const)));
          await sync(spaceId, 'export', name);
          const files = remote.files(name);
          // Nothing the repository held outside the pages went away.
          for (const path of ['CONTRIBUTING.md', '.gitbook/assets/logo.png']) assert.ok(files.has(path), `${path} was lost`);
          await sync(spaceId, 'import', name, { force: true });
          const afterwards = await pagesOf(spaceId);
          assert.deepEqual(afterwards.map((page) => [page.id, page.title]), before.map((page) => [page.id, page.title]), `ops: ${JSON.stringify(ops)}`);
          for (const [id, body] of bodies) assert.equal((await markdownOf(spaceId, id)).trim(), body.trim(), `page ${id} after ${JSON.stringify(ops)}`);
        }),
        { numRuns: Number(process.env.QUIRE_PROPERTY_RUNS ?? 15), endOnFailure: true },
      );
    });
  });
}
