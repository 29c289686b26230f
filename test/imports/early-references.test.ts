import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { BadRequest, PayloadTooLarge } from '../../src/errors.ts';
import { clearKnownReferences, referenceStats } from '../../src/imports/conversions.ts';
import { loadImport } from '../../src/imports/index.ts';
import { DEFAULT_LIMITS } from '../../src/imports/limits.ts';
import type { ImportedPage } from '../../src/imports/types.ts';
import { closeWorkerPool, MIN_BATCH_SIZE } from '../../src/workers/pool.ts';
import { buildZip, dataUrl, PNG } from './helpers.ts';
import { memoryBlobs } from './memory.ts';

/**
 * Issue 29: an archive with Markdown enough for the worker pool has its pages' references read a batch at
 * a time while the layout goes on. What it imports, and which refusal it answers, are those of reading
 * every page once the layout is done.
 */

// The import's own time limit is raised: these tests are about what is imported and refused, and a loaded
// machine must not turn that into a refusal for time.
const zipImport = (entries: Parameters<typeof buildZip>[0]) =>
  loadImport({ config: loadConfig({}), blobs: memoryBlobs() }, { source: 'zip', url: dataUrl('application/zip', buildZip(entries)) }, { limits: { ...DEFAULT_LIMITS, timeoutMs: 600_000 } });

const PAGES = 120;
const filler = 'Each topic holds a paragraph of plain words so that the archive is large enough to be read in batches. '.repeat(6);

/** A summary of PAGES pages; page 7 shows a diagram, page 90 links a sheet; `change` replaces a page's body. */
function archive(change: Record<number, string> = {}, extra: Parameters<typeof buildZip>[0] = []) {
  const entries: Parameters<typeof buildZip>[0] = [{ name: 'docs/README.md', data: change[0] ?? '# Start\n\nSee [the first topic](topics/topic-1.md).\n' }];
  const summary = ['# Summary', ''];
  for (let n = 1; n <= PAGES; n++) {
    const media = n === 7 ? '\n\n![Diagram](../images/diagram.png)' : n === 90 ? '\n\n[The sheet](../files/sheet.csv)' : '';
    const data = change[n] ?? `# Topic ${n}\n\n${filler}${media}\n\nNext: [topic ${n + 1}](topic-${n + 1}.md).\n`;
    // A long page is stored, not compressed: compressed, it would be refused as a zip bomb before the layout.
    entries.push({ name: `docs/topics/topic-${n}.md`, data, ...(data.length > 100_000 ? { method: 'store' as const } : {}) });
    summary.push(`* [Topic ${n}](topics/topic-${n}.md)`);
  }
  entries.push({ name: 'docs/SUMMARY.md', data: `${summary.join('\n')}\n` }, { name: 'docs/images/diagram.png', data: PNG }, { name: 'docs/images/unused.png', data: PNG }, { name: 'docs/files/sheet.csv', data: 'a,b\n1,2\n' }, ...extra);
  return entries;
}

const titles = (pages: ImportedPage[]): string[] => pages.flatMap((page) => [page.title, ...titles(page.pages)]);

after(closeWorkerPool);

describe('references read while the layout goes on', () => {
  it('imports every page and the files they use, reading each body once', async () => {
    assert.ok(archive().reduce((sum, entry) => sum + String(entry.data).length, 0) > 2 * MIN_BATCH_SIZE, 'the archive is read in several batches');
    clearKnownReferences();
    const [before, here] = [referenceStats.read, referenceStats.readHere];
    const content = await zipImport(archive());
    assert.equal(referenceStats.read - before, PAGES + 1, 'each body once (the pages and the README)');
    assert.equal(referenceStats.readHere - here, 0, 'none on the calling thread: no batch spills a body over its size');
    assert.deepEqual(titles(content.pages), ['Start', ...Array.from({ length: PAGES }, (_, i) => `Topic ${i + 1}`)]);
    assert.deepEqual(content.assets.map((asset) => asset.key).sort(), ['files/sheet.csv', 'images/diagram.png']);
    assert.equal(content.skipped, 1, 'the unused image');
    const again = await zipImport(archive());
    assert.equal(referenceStats.read - before, PAGES + 1, 'the same archive again reads no body');
    assert.deepEqual(again.assets.map((asset) => asset.key).sort(), ['files/sheet.csv', 'images/diagram.png']);
  });

  it('reads no body on the calling thread: the last, small batch goes to the warmed workers too', async () => {
    clearKnownReferences();
    // Bodies of 800 characters (the title line is not the body's): every 40 make a full batch, so that the
    // readme, which the layout makes last, is a batch of its own, far below the size that would run on the
    // calling thread.
    const change: Record<number, string> = {};
    for (let n = 1; n <= PAGES; n++) change[n] = `# Topic ${n}\n\n${`Next: [topic ${n + 1}](topic-${n + 1}.md).\n\n`.padEnd(799, 'word ')}\n`;
    assert.equal(MIN_BATCH_SIZE % 800, 0);
    const [read, here] = [referenceStats.read, referenceStats.readHere];
    const content = await zipImport(archive(change));
    assert.equal(referenceStats.read - read, PAGES + 1, 'each body once');
    assert.equal(referenceStats.readHere - here, 0, 'none on the calling thread');
    assert.deepEqual(titles(content.pages), ['Start', ...Array.from({ length: PAGES }, (_, i) => `Topic ${i + 1}`)]);
  });

  it('answers the refusal of the first page in page order, though the layout makes the readme last', async () => {
    clearKnownReferences();
    const deep = (what: string) => `# ${what}\n\n${'> '.repeat(150)}too deep\n`;
    await assert.rejects(zipImport(archive({ 0: deep('Start'), 5: deep('Topic 5') })), (error: unknown) => {
      assert.ok(error instanceof BadRequest, String(error));
      assert.match(error.message, /^"README\.md": .*nests quotes, lists or indentation/);
      return true;
    });
    await assert.rejects(zipImport(archive({ 5: deep('Topic 5'), 100: deep('Topic 100') })), (error: unknown) => {
      assert.ok(error instanceof BadRequest, String(error));
      assert.match(error.message, /^"topics\/topic-5\.md": /);
      return true;
    });
  });

  it('answers a refusal of the layout (a page too long) before the refusal of a page read earlier', async () => {
    clearKnownReferences();
    const long = `# Topic 110\n\n${'word '.repeat(130_000)}\n`;
    await assert.rejects(zipImport(archive({ 3: `# Topic 3\n\n${'> '.repeat(150)}too deep\n`, 110: long })), (error: unknown) => {
      assert.ok(error instanceof PayloadTooLarge, String(error));
      assert.match(error.message, /"topics\/topic-110\.md" is [\d,]+ (bytes|characters) long/);
      return true;
    });
  });
});
