import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseMarkdown } from '../../src/content/markdown/index.ts';
import { setMarkdownMemo } from '../../src/content/markdown/memo.ts';
import { findRevision } from '../../src/content/revisions.ts';
import { loadTree } from '../../src/content/tree.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { currentRevision } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { gitbookFixtureRepo } from '../git/fixture-repo.ts';
import { documentPages, importZipSpace } from '../helpers/zip-pages.ts';
import { benchPage, edit, markdownFiles, random } from '../content/markdown-edits.ts';

/**
 * Saves through the API (PATCH …/content/page/{pageId}, the writer the live documents write through too)
 * with the Markdown memos on and off give the same bytes (decision record 0117): the same pages imported
 * into two spaces, the same random edits saved into each, one space with the memos, the other on the plain
 * whole-page path; after every save the two pages' Markdown must be equal. The bench's 1,000-block page,
 * the GitBook fixture repository, the corpus and the hand-written fixtures.
 */

const FIXTURES = resolve(import.meta.dirname, '..', 'fixtures', 'gitbook');
const CORPUS = resolve(import.meta.dirname, '..', 'content', 'corpus');



const palette: unknown[] = markdownFiles(FIXTURES).flatMap((file) => parseMarkdown(readFileSync(file, 'utf8')).document.nodes);

for (const dialect of dialects) {
  describe(`saves with and without the Markdown memos write the same bytes [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    const admin = () => world.admin.api;

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
    });
    after(() => {
      setMarkdownMemo(true);
      return t.close();
    });

    const importZip = (files: Record<string, string | Buffer>) => importZipSpace(t.ctx, world.organizationId, admin(), files);
    const documents = (spaceId: string) => documentPages(admin(), spaceId);

    /** One random edit saved into a page, with the memos on or off; answers the status and the Markdown. */
    async function save(spaceId: string, pageId: string, seed: number, memo: boolean): Promise<{ status: number; markdown: string }> {
      setMarkdownMemo(memo);
      try {
        const base = `/v1/spaces/${spaceId}/content/page/${pageId}`;
        const read = (await admin().get(base)).body;
        const document = edit(read.document, palette, random(seed));
        const saved = await admin().patch(base, { document, baseRevision: await currentRevision(t.ctx, spaceId) });
        return { status: saved.status, markdown: (await admin().get(`${base}?format=markdown`)).body.markdown as string };
      } finally {
        setMarkdownMemo(true);
      }
    }

    /** The space's file ids, named by their place in its file list (the two imports give the same files, with ids of their own). */
    async function fileNames(spaceId: string): Promise<(markdown: string) => string> {
      const revision = await findRevision(t.ctx, await currentRevision(t.ctx, spaceId));
      const tree = await loadTree(t.ctx, revision!.root);
      const names = new Map(tree.root.files.map((file, index) => [file.id, `file-${index}`]));
      return (markdown) => markdown.replace(/[A-Za-z0-9_-]{20}/g, (id) => names.get(id) ?? id);
    }

    async function compare(files: Record<string, string | Buffer>, rounds: (title: string) => number): Promise<number> {
      const [cached, plain] = [await importZip(files), await importZip(files)];
      const [cachedPages, plainPages] = [await documents(cached), await documents(plain)];
      assert.deepEqual(cachedPages.map((page) => page.title), plainPages.map((page) => page.title));
      const [cachedNames, plainNames] = [await fileNames(cached), await fileNames(plain)];
      let saves = 0;
      for (const [index, page] of cachedPages.entries()) {
        for (let round = 0; round < rounds(page.title); round++) {
          const seed = index * 1000 + round;
          const a = await save(cached, page.id, seed, true);
          const b = await save(plain, plainPages[index].id, seed, false);
          assert.equal(a.status, b.status, `${page.title}, round ${round}`);
          assert.equal(cachedNames(a.markdown), plainNames(b.markdown), `${page.title}, round ${round}: the bytes saved differ`);
          if (a.status === 200) saves++;
        }
      }
      return saves;
    }

    it('the bench page, the corpus and the hand-written fixtures', async () => {
      const files: Record<string, string> = { 'large.md': benchPage };
      for (const name of markdownFiles(CORPUS)) files[`corpus/${name.split('/').pop()}`] = readFileSync(name, 'utf8');
      for (const name of markdownFiles(join(FIXTURES, 'hand-written'))) files[`hand-written/${name.split('/').pop()}`] = readFileSync(name, 'utf8');
      const saves = await compare(files, (title) => (title.toLowerCase().includes('large') ? 6 : 2));
      assert.ok(saves > 10, `${saves} saves made`);
    });

    it('every page of the GitBook fixture repository', async () => {
      const saves = await compare(gitbookFixtureRepo(), () => 2);
      assert.ok(saves > 10, `${saves} saves made`);
    });
  });
}
