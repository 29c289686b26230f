import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PayloadTooLarge } from '../../src/errors.ts';
import { importFileSet } from '../../src/imports/fileset.ts';
import { DEFAULT_LIMITS } from '../../src/imports/limits.ts';
import { AssetCollector } from '../../src/imports/types.ts';
import type { BlobStore } from '../../src/storage/blobs.ts';

/**
 * An archive whose pages are each too long is refused at the first such file, before the others are read
 * into memory: 500 pages of 1 MB once held 500 MB of text before the first refusal.
 */
describe('an archive of pages too long for a page', () => {
  it('is refused (413, naming the file) after reading at most one of them', async () => {
    const page = Buffer.alloc(1_000_000, 'a');
    let reads = 0;
    const set = {
      files: Array.from({ length: 500 }, (_, i) => ({ path: `page-${String(i).padStart(3, '0')}.md`, size: page.length })),
      read: async () => {
        reads++;
        return page;
      },
    };
    const blobs = {} as BlobStore;
    const env = { limits: DEFAULT_LIMITS, signal: new AbortController().signal, allowPrivate: false };
    await assert.rejects(importFileSet(set, { assets: new AssetCollector(blobs), env }), (error: Error) => {
      assert.ok(error instanceof PayloadTooLarge, String(error));
      assert.match(error.message, /The file "page-\d{3}\.md" is 1,000,000 characters long; a page holds at most 500,000/);
      return true;
    });
    assert.ok(reads <= 1, `read ${reads} files`);
  });

  it('is refused by its declared size, before reading, when it is larger than any page could be', async () => {
    let reads = 0;
    const set = { files: [{ path: 'huge.md', size: 50_000_000 }], read: async () => (reads++, Buffer.alloc(0)) };
    const env = { limits: DEFAULT_LIMITS, signal: new AbortController().signal, allowPrivate: false };
    await assert.rejects(importFileSet(set, { assets: new AssetCollector({} as BlobStore), env }), /"huge\.md" is 50,000,000 bytes long/);
    assert.equal(reads, 0);
  });
});
