import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { BadRequest } from '../../src/errors.ts';
import { clearKnownReferences, referenceStats } from '../../src/imports/conversions.ts';
import { loadImport } from '../../src/imports/index.ts';
import { closeWorkerPool } from '../../src/workers/pool.ts';
import { buildZip, dataUrl, PNG } from './helpers.ts';
import { memoryBlobs } from './memory.ts';

/** Issue 29: a body read once in a process is not read again when the same text is imported again. */

const zipImport = (entries: Parameters<typeof buildZip>[0]) =>
  loadImport({ config: loadConfig({}), blobs: memoryBlobs() }, { source: 'zip', url: dataUrl('application/zip', buildZip(entries)) });

const archive = (extra: Parameters<typeof buildZip>[0] = []) => [
  { name: 'docs/README.md', data: '# Start\n\nSee [the guide](guide/setup.md).\n' },
  { name: 'docs/guide/setup.md', data: '# Setup\n\n![Diagram](../images/diagram.png)\n\nBack to [the start](../README.md).\n' },
  { name: 'docs/guide/more.md', data: '# More\n\n{% file src="../files/sheet.csv" %}\nThe sheet\n{% endfile %}\n' },
  { name: 'docs/images/diagram.png', data: PNG },
  { name: 'docs/files/sheet.csv', data: 'a,b\n1,2\n' },
  { name: 'docs/images/unused.png', data: PNG },
  ...extra,
];

/** What an import gives, without the functions and blob-store details that differ between two reads. */
const shape = (content: Awaited<ReturnType<typeof zipImport>>) => ({
  pages: content.pages,
  assets: content.assets.map((asset) => ({ key: asset.key, name: asset.name, blob: asset.blob, size: asset.size })),
  skipped: content.skipped,
  leftOut: content.leftOut,
});

after(closeWorkerPool);

describe('references of imported bodies, kept by text', () => {
  it('imports the same archive again without reading its bodies, and imports the same pages and files', async () => {
    clearKnownReferences();
    const before = referenceStats.read;
    const first = await zipImport(archive());
    assert.equal(referenceStats.read - before, 3, 'the first import reads each body once');
    assert.deepEqual(first.assets.map((asset) => asset.key).sort(), ['files/sheet.csv', 'images/diagram.png']);
    const remembered = referenceStats.remembered;
    const again = await zipImport(archive());
    assert.equal(referenceStats.read - before, 3, 'the second import reads no body');
    assert.equal(referenceStats.remembered - remembered, 3);
    assert.deepEqual(shape(again), shape(first));
  });

  it('reads only the bodies that changed, and a changed body finds its own files', async () => {
    clearKnownReferences();
    await zipImport(archive());
    const before = referenceStats.read;
    const changed = archive().map((entry) => (entry.name === 'docs/README.md' ? { ...entry, data: '# Start\n\n![Unused no more](images/unused.png)\n' } : entry));
    const content = await zipImport(changed);
    assert.equal(referenceStats.read - before, 1);
    assert.deepEqual(content.assets.map((asset) => asset.key).sort(), ['files/sheet.csv', 'images/diagram.png', 'images/unused.png']);
  });

  it('refuses a body beyond the bounds of a page every time it is imported', async () => {
    clearKnownReferences();
    const hostile = [{ name: 'docs/guide/deep.md', data: `# Deep\n\n${'> '.repeat(150)}too deep\n` }];
    const refusal = (error: unknown) => {
      assert.ok(error instanceof BadRequest, String(error));
      assert.match(error.message, /^"guide\/deep\.md": .*nests quotes, lists or indentation \d+ levels deep.*at most 100/);
      return true;
    };
    await assert.rejects(zipImport(archive(hostile)), refusal);
    await assert.rejects(zipImport(archive(hostile)), refusal);
    const content = await zipImport(archive());
    assert.deepEqual(content.assets.map((asset) => asset.key).sort(), ['files/sheet.csv', 'images/diagram.png']);
  });
});
