import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { BadRequest } from '../../src/errors.ts';
import { loadImport } from '../../src/imports/index.ts';
import { DEFAULT_LIMITS, type ImportLimits } from '../../src/imports/limits.ts';
import type { ImportedPage } from '../../src/imports/types.ts';
import { INFLATE_HERE_BELOW, openZip } from '../../src/imports/zip.ts';
import { buildZip, dataUrl, PNG } from './helpers.ts';
import { memoryBlobs } from './memory.ts';
import { html, startSite, type TestSite } from './server.ts';

const refused = (words: string) => (error: unknown) => {
  assert.ok(error instanceof BadRequest, String(error));
  assert.ok(error.message.includes(words), error.message);
  return true;
};

const ctx = () => ({ config: loadConfig({ QUIRE_IMPORT_ALLOW_PRIVATE: '1' }), blobs: memoryBlobs() });
const zipImport = (entries: Parameters<typeof buildZip>[0], limits?: ImportLimits) => loadImport(ctx(), { source: 'zip', url: dataUrl('application/zip', buildZip(entries)) }, { limits });
const outline = (pages: ImportedPage[]): unknown[] => pages.map((page) => (page.pages.length ? [page.title, outline(page.pages)] : page.title));

describe('zip archives', () => {
  it('refuses more entries, more unpacked bytes, or a higher compression ratio than the limits allow', async () => {
    const limits = { ...DEFAULT_LIMITS, maxEntries: 3, maxUnpackedBytes: 1000, ratioFloorBytes: 100, maxCompressionRatio: 10 };
    const files = (count: number, size = 1) => Array.from({ length: count }, (_, i) => ({ name: `f${i}.md`, data: 'x'.repeat(size), method: 'store' as const }));
    await openZip(buildZip(files(3)), limits);
    await assert.rejects(openZip(buildZip(files(4)), limits), refused('holds 4 entries; an import takes at most 3'));
    await assert.rejects(openZip(buildZip(files(2, 600)), limits), refused('unpacks to more than'));
    await assert.rejects(openZip(buildZip([{ name: 'a.md', data: 'a'.repeat(900) }]), limits), refused('would expand'));
    await openZip(buildZip([{ name: 'a.md', data: 'a'.repeat(90) }]), limits); // small entries are never taken for bombs
  });

  it('refuses unsafe paths: "..", absolute, a drive letter, backslashes that climb', async () => {
    for (const name of ['../x.md', 'a/../../x.md', '/x.md', 'C:/x.md', 'a\\..\\..\\x.md']) {
      await assert.rejects(openZip(buildZip([{ name, data: 'x' }]), DEFAULT_LIMITS), refused('unsafe path'), name);
    }
  });

  it('reads what it declares, and refuses an entry that holds more or less', async () => {
    const set = await openZip(buildZip([{ name: 'docs/a.md', data: 'Hello' }, { name: 'docs/', data: '' }, { name: './b.md', data: 'B' }]), DEFAULT_LIMITS);
    assert.deepEqual(set.files, [{ path: 'docs/a.md', size: 5 }, { path: 'b.md', size: 1 }]);
    assert.equal((await set.read('docs/a.md')).toString(), 'Hello');
    const liar = await openZip(buildZip([{ name: 'a.md', data: 'Hello', method: 'store', declaredSize: 5 }, { name: 'b.md', data: 'Hello world', declaredSize: 4 }]), DEFAULT_LIMITS);
    await assert.rejects(liar.read('b.md'), BadRequest);
  });

  it('inflates small entries at once and large ones off the event loop, refusing a lying size either way', async () => {
    const large = 'A line of a large page. '.repeat(Math.ceil((INFLATE_HERE_BELOW + 1000) / 24));
    const set = await openZip(buildZip([{ name: 'small.md', data: 'Small' }, { name: 'large.md', data: large }, { name: 'empty.md', data: '' }, { name: 'stored.md', data: 'Stored', method: 'store' }]), DEFAULT_LIMITS);
    assert.equal((await set.read('small.md')).toString(), 'Small');
    assert.equal((await set.read('large.md')).toString(), large);
    assert.equal((await set.read('empty.md')).length, 0);
    assert.equal((await set.read('stored.md')).toString(), 'Stored');
    const liars = await openZip(
      buildZip([
        { name: 'more.md', data: 'Hello world', declaredSize: 4 },
        { name: 'less.md', data: 'Hello', declaredSize: 50 },
        { name: 'large-more.md', data: large, declaredSize: INFLATE_HERE_BELOW + 10 },
        { name: 'large-less.md', data: 'Short', declaredSize: INFLATE_HERE_BELOW + 10 },
      ]),
      { ...DEFAULT_LIMITS, maxCompressionRatio: 1_000_000 },
    );
    await assert.rejects(liars.read('more.md'), refused('too many bytes'));
    await assert.rejects(liars.read('less.md'), refused('not enough bytes'));
    await assert.rejects(liars.read('large-more.md'), refused('too many bytes'));
    await assert.rejects(liars.read('large-less.md'), refused('not enough bytes'));
  });
});

describe('folder layouts', () => {
  it('SUMMARY.md: links to missing files are empty pages, items without links too, the readme comes first', async () => {
    const content = await zipImport([
      { name: 'README.md', data: '# Start\n' },
      { name: 'SUMMARY.md', data: '# Summary\n\n* [One](one.md)\n  * [Missing](missing.md)\n* Plain item\n  * [One again](one.md)\n\n### Part two\n\n* [Two](sub/two.md)\n' },
      { name: 'one.md', data: '# One\n\nBody' },
      { name: 'sub/two.md', data: 'Two, see [one](../one.md) and [start](/README.md).' },
    ]);
    assert.deepEqual(outline(content.pages), ['Start', ['One', ['Missing']], ['Plain item', ['One again']], ['Part two', ['Two']]]);
    const [, one, plain, group] = content.pages;
    assert.deepEqual([one.markdown, one.pages[0].markdown, plain.markdown, plain.pages[0].markdown, group.type], ['Body', undefined, undefined, undefined, 'group']);
    const two = group.pages[0];
    assert.deepEqual(content.resolve(two, '../one.md'), { key: 'one.md' });
    assert.deepEqual(content.resolve(two, '/README.md#top'), { key: 'README.md', anchor: 'top' });
    assert.equal(content.resolve(two, '../../outside.md'), undefined);
    assert.equal(content.resolve(two, 'https://example.com/one.md'), undefined);
  });

  it('.gitbook.yaml must keep its root inside the archive, and must be YAML', async () => {
    await assert.rejects(zipImport([{ name: '.gitbook.yaml', data: 'root: ../../etc' }, { name: 'a.md', data: 'x' }]), refused('must stay inside the imported folder'));
    await assert.rejects(zipImport([{ name: '.gitbook.yaml', data: 'root: [oops' }, { name: 'a.md', data: 'x' }]), refused('.gitbook.yaml is not valid YAML'));
    await assert.rejects(zipImport([{ name: '.gitbook.yaml', data: 'root: ./docs/' }, { name: 'a.md', data: 'x' }]), refused('no Markdown file under "docs"'));
  });

  it('titles come from the summary, the front matter, the first heading, or the file name', async () => {
    const content = await zipImport([
      { name: 'getting-started.md', data: 'No heading.' },
      { name: 'b.md', data: '---\ntitle: From front matter\n---\n# From heading\n\nText' },
      { name: 'c.md', data: '# Heading <a href="#x" id="x"></a>\n\nText' },
      { name: 'd/e.md', data: '' },
    ]);
    assert.deepEqual(outline(content.pages), ['From front matter', 'Heading', ['D', ['E']], 'Getting started']);
    assert.equal(content.pages[0].markdown, '# From heading\n\nText', 'a heading that is not the title stays');
  });
});

describe('website crawl bounds', () => {
  let site: TestSite;
  before(async () => {
    const links = Array.from({ length: 8 }, (_, i) => `<a href="/p${i}">p${i}</a>`).join(' ');
    const routes: Record<string, ReturnType<typeof html>> = { '/': html(`<h1>Home</h1><p>${links}</p>`) };
    for (let i = 0; i < 8; i++) routes[`/p${i}`] = html(`<h1>Page ${i}</h1><p><a href="/">home</a> <img src="/img${i}.png"></p>`);
    for (let i = 0; i < 8; i++) routes[`/img${i}.png`] = { type: 'image/png', body: PNG };
    site = await startSite(routes);
  });
  after(() => site.close());

  it('fetches at most maxPages pages and maxImages images; the rest is counted as skipped', async () => {
    const content = await loadImport(ctx(), { source: 'website', url: `${site.origin}/` }, { limits: { ...DEFAULT_LIMITS, maxPages: 3, maxImages: 1 } });
    assert.deepEqual(outline(content.pages), ['Home', 'Page 0', 'Page 1']);
    assert.equal(content.assets.length, 1);
    assert.equal(content.skipped, 6 + 1);
    assert.ok(!site.requests.includes('/p2'), 'no page past the bound is fetched');
  });
});
