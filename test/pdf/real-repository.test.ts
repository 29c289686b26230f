import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { DocumentBlock } from '../../src/content/markdown/index.ts';
import { findRevision } from '../../src/content/revisions.ts';
import { loadTree, walkPages, type RevisionTree } from '../../src/content/tree.ts';
import { layContent } from '../../src/git/lay.ts';
import { importFileSet } from '../../src/imports/fileset.ts';
import { DEFAULT_LIMITS } from '../../src/imports/limits.ts';
import { AssetCollector } from '../../src/imports/types.ts';
import type { FileSet } from '../../src/imports/zip.ts';
import { renderPdf } from '../../src/pdf/render.ts';
import { loadPdfInput, selectPages } from '../../src/pdf/source.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createSpace, currentRevision } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { pdfPages } from '../helpers/pdf-text.ts';

/**
 * Every page of real GitBook-written documentation goes through the PDF renderer alone, and the whole space
 * at once, with no failure and no page printed as plain text for want of drawing it: the GitBook-format
 * fixtures (test/fixtures/gitbook, test/fixtures/pdf), and — when this machine has a copy — the Rocket.Chat
 * documentation (github.com/RocketChat/docs, about 470 pages, where whole-space PDFs failed). Its copy is
 * read from QUIRE_PDF_CORPUS, by default the bare repository /work/.mirror/RocketChat+docs/repo.
 */
const FIXTURES = resolve(import.meta.dirname, '..', 'fixtures');
const CORPUS = process.env.QUIRE_PDF_CORPUS ?? '/work/.mirror/RocketChat+docs/repo';

function folderFiles(root: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md') && entry.name !== 'SOURCES.md') out.set(relative(root, path), readFileSync(path));
    }
  };
  walk(root);
  return out;
}

/** The Markdown files and `.gitbook.yaml` of a bare repository's HEAD (images left out: the text is what is drawn). */
function repositoryFiles(gitDir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const list = execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '-z', 'HEAD'], { maxBuffer: 1 << 28 }).toString('utf8').split('\0').filter(Boolean);
  const wanted = list.map((line) => { const [meta, path] = line.split('\t'); return { oid: meta.split(' ')[2], path }; }).filter(({ path }) => /\.md$/i.test(path) || path === '.gitbook.yaml');
  const batch = execFileSync('git', ['--git-dir', gitDir, 'cat-file', '--batch'], { input: wanted.map(({ oid }) => oid).join('\n') + '\n', maxBuffer: 1 << 30 });
  let at = 0;
  for (const { path } of wanted) {
    const header = batch.subarray(at, batch.indexOf(10, at)).toString('utf8');
    const size = Number(header.split(' ')[2]);
    const start = batch.indexOf(10, at) + 1;
    out.set(path, batch.subarray(start, start + size));
    at = start + size + 1;
  }
  return out;
}

describe('PDFs of real GitBook repositories', () => {
  let t: TestApp;
  let world: World;
  before(async () => {
    t = await createTestApp('sqlite');
    world = await createWorld(t.ctx, t.app);
  });
  after(() => t.close());

  const importFiles = async (files: Map<string, Buffer>): Promise<{ spaceId: string; tree: RevisionTree }> => {
    const set: FileSet = { files: [...files].map(([path, bytes]) => ({ path, size: bytes.length })), read: async (path) => files.get(path)! };
    const env = { limits: { ...DEFAULT_LIMITS, maxEntries: Number.MAX_SAFE_INTEGER, maxUnpackedBytes: Number.MAX_SAFE_INTEGER }, signal: new AbortController().signal, allowPrivate: false };
    const content = await importFileSet(set, { assets: new AssetCollector(t.ctx.blobs), env });
    const spaceId = await createSpace(t.ctx, world.organizationId);
    const parent = await currentRevision(t.ctx, spaceId);
    const { revisionId } = await (await layContent(t.ctx, content, null)).commit(t.ctx, { spaceId, type: 'edits', parents: [parent] });
    await t.ctx.db.updateTable('spaces').set({ revision_id: revisionId }).where('id', '=', spaceId).execute();
    const revision = await findRevision(t.ctx, revisionId);
    return { spaceId, tree: await loadTree(t.ctx, revision!.root) };
  };

  /** Renders each page alone, then the whole space; answers the failures (thrown or drawn as text). */
  const renderEvery = async (spaceId: string, tree: RevisionTree): Promise<string[]> => {
    const failures: string[] = [];
    const heading = { spaceId, title: 'Corpus', createdAt: new Date('2026-11-27T00:00:00Z') };
    const render = async (label: string, selection: { pageId?: string; only: boolean }) => {
      const input = await loadPdfInput(t.ctx, tree, selectPages(tree, selection), heading);
      input.onFallback = (pageId, error) => failures.push(`${label}: page ${tree.byId.get(pageId)?.node.title} drawn as text (${error.message})`);
      try {
        const bytes = await renderPdf(input);
        assert.ok(bytes.subarray(0, 5).toString() === '%PDF-', label);
      } catch (error) {
        failures.push(`${label}: ${(error as Error).message}`);
      }
    };
    for (const page of walkPages(tree.pages)) {
      if (page.node.type === 'document') await render(`"${page.node.title}" (${page.file})`, { pageId: page.node.id, only: true });
    }
    await render('the whole space', { only: false });
    return failures;
  };

  it('prints inline code holding "//", "->" and the like (JetBrains Mono\'s contextual alternates) as typed', async () => {
    const { spaceId, tree } = await importFiles(new Map([['code-that-broke-pdfs.md', readFileSync(join(FIXTURES, 'pdf', 'code-that-broke-pdfs.md'))]]));
    assert.deepEqual(await renderEvery(spaceId, tree), []);
    const input = await loadPdfInput(t.ctx, tree, selectPages(tree, { only: false }), { spaceId, title: 'Code', createdAt: new Date('2026-11-27T00:00:00Z') });
    const text = (await pdfPages(await renderPdf(input))).join(' ');
    for (const needle of ['http://localhost:3000', 'a//b', 'a->b', 'https://example.com/api/v1']) assert.ok(text.includes(needle), `${needle} in ${text.slice(0, 500)}`);
  });

  it('prints a page it cannot draw as its text, telling the caller, never failing the PDF', async () => {
    const { spaceId, tree } = await importFiles(new Map([['README.md', Buffer.from('# Odd\n\nA paragraph before.\n\nA paragraph after.\n')]]));
    const input = await loadPdfInput(t.ctx, tree, selectPages(tree, { only: false }), { spaceId, title: 'Odd', createdAt: new Date('2026-11-27T00:00:00Z') });
    const page = input.pages[0];
    // A block the renderer has no drawing for, as a newer document model could hold.
    page.document!.nodes.splice(1, 0, { object: 'block', type: 'not-a-block', nodes: [] } as unknown as DocumentBlock);
    const fallbacks: string[] = [];
    input.onFallback = (pageId) => fallbacks.push(pageId);
    const text = (await pdfPages(await renderPdf(input))).join(' ');
    assert.deepEqual(fallbacks, [page.id]);
    assert.ok(text.includes('A paragraph after.'), text);
  });

  it('prints every page of the GitBook-format fixtures, alone and together', async () => {
    const { spaceId, tree } = await importFiles(folderFiles(join(FIXTURES, 'gitbook')));
    assert.ok(tree.size >= 30, `pages: ${tree.size}`);
    assert.deepEqual(await renderEvery(spaceId, tree), []);
  });

  it('prints every page of a large real GitBook repository, alone and together', async (context) => {
    if (!existsSync(CORPUS)) {
      context.skip(`no copy of github.com/RocketChat/docs at ${CORPUS} (set QUIRE_PDF_CORPUS to a bare clone)`);
      return;
    }
    const { spaceId, tree } = await importFiles(repositoryFiles(CORPUS));
    const failures = await renderEvery(spaceId, tree);
    console.log(`# ${CORPUS}: ${tree.size} pages rendered alone and as one PDF; ${failures.length} failures`);
    assert.deepEqual(failures, []);
  });
});
