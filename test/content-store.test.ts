import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import type { Context } from '../src/context.ts';
import { evaluateDocument } from '../src/content/evaluate.ts';
import { evaluateExpression, evaluateToText } from '../src/expressions/page.ts';
import { linkResolver, linkWriter } from '../src/content/links.ts';
import { LruCache } from '../src/lru.ts';
import { createRevision, findRevision, forkRevision } from '../src/content/revisions.ts';
import { clearTreeCache, loadTree, treeStats, walkPages } from '../src/content/tree.ts';
import { RevisionWriter } from '../src/content/writer.ts';
import { slugify } from '../src/content/markdown/index.ts';
import { getPage } from '../src/modules/content/service.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { createSpace, createSpaceWithPages, currentRevision, editContent, manyPages } from './helpers/content-factory.ts';
import { createWorld, type World } from './helpers/factories.ts';

/** Counts the queries a Kysely instance runs (every executed query passes through transformResult). */
class QueryCounter implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.count++;
    return args.result;
  }
}

const objectCount = async (ctx: Context) => Number((await ctx.db.selectFrom('content_objects').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

describe('content store: pure parts', () => {
  it('slugs titles', () => {
    assert.equal(slugify('Getting Started!'), 'getting-started');
    assert.equal(slugify('  Café & Crème  '), 'cafe-and-creme');
    assert.equal(slugify('🚀'), 'untitled');
    assert.equal(slugify('API v2.1'), 'api-v2-1');
  });

  it('evaluates expressions against space and page variables, safely', () => {
    const scope = { space: { vars: { version: '2.1', beta: true, count: 3 } }, page: { vars: { plan: 'pro' } } };
    assert.equal(evaluateExpression('space.vars.version', scope), '2.1');
    assert.equal(evaluateExpression('page.vars.plan == "pro" ? "Pro" : "Free"', scope), 'Pro');
    assert.equal(evaluateExpression("'v' + space.vars.version", scope), 'v2.1');
    assert.equal(evaluateExpression('space.vars.count * 2 + 1', scope), 7);
    assert.equal(evaluateExpression('!space.vars.beta || space.vars["count"] >= 3', scope), true);
    assert.equal(evaluateExpression('space.vars.missing ?? "none"', scope), 'none');
    assert.equal(evaluateToText('space.vars.missing', scope), '');
    // One language with site conditions: the length of a string is data it may read.
    assert.equal(evaluateToText('space.vars.version.length', scope), '3');
    assert.equal(evaluateToText('space.vars.version.toUpperCase', scope), '', 'no methods of strings');
    assert.equal(evaluateToText('space.constructor', scope), '', 'no prototype access');
    assert.equal(evaluateToText('space.vars.__proto__', scope), '');
    assert.equal(evaluateToText('alert(1)', scope), '', 'no calls: an unreadable expression is empty');
    assert.equal(evaluateToText('space.vars.', scope), '');
  });

  it('evaluates the expressions and conditions of a document without changing it', () => {
    const expression = (source: string) => ({ object: 'inline', type: 'expression', data: { expression: source }, isVoid: true });
    const paragraph = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', nodes });
    const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
    const document = {
      object: 'document',
      data: {},
      nodes: [
        paragraph(text('Version '), expression('space.vars.version')),
        { object: 'block', type: 'if', data: { expression: 'space.vars.beta' }, nodes: [paragraph(text('Beta!'))] },
        { object: 'block', type: 'if', data: { expression: '!space.vars.beta' }, nodes: [paragraph(text('Stable'))] },
      ],
    };
    const copy = structuredClone(document);
    const evaluated = evaluateDocument(document, { space: { vars: { version: '3.0', beta: true } }, page: { vars: {} } });
    assert.deepEqual(evaluated.nodes, [paragraph(text('Version '), text('3.0')), paragraph(text('Beta!'))]);
    assert.deepEqual(document, copy);
  });

  it('keeps a bounded LRU', () => {
    const lru = new LruCache<string, number>(2, 10);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.get('a');
    lru.set('c', 3);
    assert.equal(lru.get('b'), undefined, 'the least recently used goes first');
    assert.equal(lru.get('a'), 1);
    lru.set('huge', 4, 11);
    assert.equal(lru.get('huge'), undefined, 'heavier than the budget: not kept');
    lru.set('d', 4, 9);
    assert.equal(lru.get('c'), undefined, 'the weight budget evicts the least recently used');
    assert.equal(lru.size, 2);
  });

  it('keeps the LRU order when the most recent entry is asked for again and again', () => {
    const lru = new LruCache<string, number>(3);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.set('c', 3);
    for (let i = 0; i < 3; i++) assert.equal(lru.get('c'), 3);
    lru.get('a');
    lru.get('a');
    lru.set('d', 4);
    assert.equal(lru.get('b'), undefined, 'b was the least recently used');
    lru.delete('a');
    lru.set('e', 5);
    lru.get('c');
    lru.set('f', 6);
    assert.equal(lru.get('d'), undefined, 'c was used after d: d goes');
    assert.deepEqual([lru.get('c'), lru.get('e'), lru.get('f')], [3, 5, 6]);
    lru.set('f', 7);
    lru.delete('f');
    lru.clear();
    lru.set('g', 8);
    assert.equal(lru.get('g'), 8);
    assert.equal(lru.size, 1);
  });
});

for (const dialect of dialects) {
  describe(`content store [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app);
    });
    after(() => t.close());

    it('builds a tree with slugs unique among siblings and paths through groups', async () => {
      const { revisionId } = await createSpaceWithPages(t.ctx, world.organizationId, [
        { type: 'document', title: 'Setup', markdown: 'one', pages: [{ type: 'document', title: 'Install' }, { type: 'document', title: 'Install' }] },
        { type: 'document', title: 'Setup', markdown: 'two' },
        { type: 'group', title: 'Guides', pages: [{ type: 'document', title: 'Setup' }, { type: 'link', title: 'Site', target: { kind: 'url', url: 'https://example.com' } }] },
      ]);
      const revision = await findRevision(t.ctx, revisionId);
      const tree = await loadTree(t.ctx, revision!.root);
      const paths = [...walkPages(tree.pages)].map((page) => page.path);
      assert.deepEqual(paths, ['setup', 'setup/install', 'setup/install-1', 'setup-1', 'guides', 'guides/setup', null]);
      assert.equal(tree.byPath.get('guides/setup')?.node.title, 'Setup');
      assert.equal(tree.size, 7);
    });

    it('writes only the changed page, its ancestors and a new root; shares everything else', async () => {
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, manyPages(60));
      const before = await objectCount(t.ctx);
      const writer = await RevisionWriter.fromRevision(t.ctx, await currentRevision(t.ctx, spaceId));
      const top = writer.children()[1];
      const child = writer.children(top)[2];
      const grandchild = writer.children(child)[0];
      writer.updatePage(grandchild, { markdown: 'A new body.' });
      await writer.commit(t.ctx, { spaceId, type: 'edits', parents: [] });
      // the body, the page, its parent and grandparent, and the root
      assert.equal((await objectCount(t.ctx)) - before, 5);
    });

    it('duplicating content with forkRevision copies no object', async () => {
      const { spaceId, revisionId } = await createSpaceWithPages(t.ctx, world.organizationId, manyPages(40));
      const before = await objectCount(t.ctx);
      const copy = await createSpace(t.ctx, world.organizationId);
      const forked = await forkRevision(t.ctx, revisionId, copy);
      assert.equal(await objectCount(t.ctx), before, 'no new content_objects rows');
      const [a, b] = await Promise.all([findRevision(t.ctx, revisionId), findRevision(t.ctx, forked)]);
      assert.equal(a!.root, b!.root);
      assert.deepEqual(b!.parents, [revisionId]);
      assert.equal(b!.spaceId, copy);
      assert.notEqual(spaceId, copy);
    });

    it('moves and removes pages, and refuses impossible trees', async () => {
      const writer = RevisionWriter.empty(t.ctx);
      const a = writer.addPage({ type: 'document', title: 'A' });
      const b = writer.addPage({ type: 'document', title: 'B', pages: [{ type: 'document', title: 'B1' }] });
      const group = writer.addPage({ type: 'group', title: 'G' });
      const link = writer.addPage({ type: 'link', title: 'L', target: { kind: 'url', url: 'https://example.com' } });
      writer.movePage(a, { parent: b, index: 0 });
      assert.deepEqual(writer.children(b).map((id) => writer.page(id).title), ['A', 'B1']);
      assert.throws(() => writer.movePage(b, { parent: a }), /inside itself/);
      assert.throws(() => writer.addPage({ type: 'group', title: 'Nested' }, { parent: b }), /top level/);
      assert.throws(() => writer.addPage({ type: 'document', title: 'Under link' }, { parent: link }), /link page/);
      assert.throws(() => writer.addPage({ type: 'link', title: 'No target' }), /target/);
      assert.throws(() => writer.addPage({ type: 'document', title: '  ' }), /title/);
      assert.throws(() => writer.addPage({ type: 'group', title: 'Body', markdown: 'x' }), /cannot have a body/);
      assert.throws(() => writer.addPage({ id: a, type: 'document', title: 'Again' }), /already exists/);
      writer.movePage(b, { parent: group });
      writer.removePage(group);
      assert.equal(writer.has(a), false, 'removing a page removes its subtree');
      assert.deepEqual(writer.children(), [link]);
      const root = await writer.write(t.ctx);
      const tree = await loadTree(t.ctx, root);
      assert.deepEqual(tree.pages.map((page) => page.node.title), ['L']);
    });

    it('reads a 1,000-page tree level by level, and then from the cache', async () => {
      const { spaceId, revisionId } = await createSpaceWithPages(t.ctx, world.organizationId, manyPages(1000), { visibility: 'public' });
      const revision = await findRevision(t.ctx, revisionId);
      clearTreeCache();
      const counter = new QueryCounter();
      const counted = { ...t.ctx, db: t.ctx.db.withPlugin(counter) };
      const built = treeStats.built;
      const tree = await loadTree(counted, revision!.root);
      assert.equal(tree.size, 1000);
      // the root, then three levels (each under the 500-hash chunk except the last level's 750)
      assert.ok(counter.count <= 6, `loading 1,000 pages took ${counter.count} queries`);
      counter.count = 0;
      assert.equal(await loadTree(counted, revision!.root), tree);
      assert.equal(counter.count, 0, 'a cached tree needs no query');
      assert.equal(treeStats.built, built + 1);

      // A page read through the service: the space, the revision and the body.
      clearTreeCache();
      const reader = { ...t.ctx, db: t.ctx.db.withPlugin(counter), actor: { userId: world.outsider.id, email: world.outsider.email }, checked: new Set<string>() };
      const page = [...walkPages(tree.pages)][500];
      counter.count = 0;
      const cold = await getPage(reader, spaceId, page.node.id, { format: 'markdown' });
      await cold.body();
      assert.equal(cold.page.node.id, page.node.id);
      assert.ok(counter.count <= 9, `a cold page read took ${counter.count} queries`);
      if (process.env.QUIRE_TEST_LOG) console.log(`cold page read: ${counter.count} queries`);
      counter.count = 0;
      const warm = await getPage(reader, spaceId, page.node.id, { format: 'markdown' });
      const body = await warm.body();
      assert.match(body?.format === 'markdown' ? body.markdown : '', /The body of Detail/);
      assert.ok(counter.count <= 3, `a warm page read took ${counter.count} queries`);
      if (process.env.QUIRE_TEST_LOG) console.log(`warm page read: ${counter.count} queries`);
    });

    it('maps relative Markdown links to pages and back', async () => {
      const writer = RevisionWriter.empty(t.ctx);
      writer.addPage({ type: 'group', title: 'Getting started', pages: [{ id: 'overview', type: 'document', title: 'Overview' }, { id: 'quick', type: 'document', title: 'Quickstart' }] });
      writer.addPage({ type: 'group', title: 'Guides', pages: [{ id: 'config', type: 'document', title: 'Configuration', pages: [{ id: 'advanced', type: 'document', title: 'Advanced' }] }] });
      writer.addPage({ id: 'faq', type: 'document', title: 'FAQ' });
      const tree = await loadTree(t.ctx, await writer.write(t.ctx));
      const overview = tree.byId.get('overview')!;
      const resolve = linkResolver(tree, overview);
      assert.deepEqual(resolve('quickstart.md'), { kind: 'page', page: 'quick' });
      assert.deepEqual(resolve('./quickstart.md'), { kind: 'page', page: 'quick' });
      assert.deepEqual(resolve('../guides/configuration.md#options'), { kind: 'anchor', anchor: 'options', page: 'config' });
      assert.deepEqual(resolve('../guides/configuration/README.md'), { kind: 'page', page: 'config' });
      assert.deepEqual(resolve('../faq.md'), { kind: 'page', page: 'faq' });
      for (const url of ['https://example.com/a.md', 'missing.md', '../../../faq.md', '#top', 'quickstart']) assert.equal(resolve(url), undefined, url);
      // A path from the top of the space, as GitBook writes some links.
      assert.deepEqual(resolve('/faq.md'), { kind: 'page', page: 'faq' });
      assert.equal(linkWriter(tree, overview)({ kind: 'page', page: 'advanced' }), '../guides/configuration/advanced.md');
      assert.equal(linkWriter(tree, tree.byId.get('config')!)({ kind: 'page', page: 'advanced' }), 'advanced.md');
      assert.equal(linkWriter(tree, overview)({ kind: 'url', url: 'https://x.test' }), undefined);
      // Every link written from any page reads back as the same reference.
      for (const from of tree.byId.values()) {
        for (const to of tree.byId.values()) {
          const ref = { kind: 'page' as const, page: to.node.id };
          const url = linkWriter(tree, from)(ref);
          assert.deepEqual(linkResolver(tree, from)(url!), ref, `${from.path} → ${to.path} as ${url}`);
        }
      }
    });

    it('records revisions with their parents and creator', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const first = await currentRevision(t.ctx, spaceId);
      const second = await editContent(t.ctx, spaceId, (writer) => void writer.addPage({ type: 'document', title: 'Hello' }));
      const row = await findRevision(t.ctx, second);
      assert.deepEqual(row!.parents, [first]);
      assert.equal(row!.type, 'edits');
      const merge = await createRevision(t.ctx, { spaceId, type: 'merge', parents: [second, first], root: row!.root });
      assert.deepEqual((await findRevision(t.ctx, merge))!.parents, [second, first]);
    });
  });
}
