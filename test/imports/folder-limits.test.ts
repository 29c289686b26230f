import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { folderFileSet, leftOutText } from '../../src/cli/import.ts';
import { importFileSet } from '../../src/imports/fileset.ts';
import { DEFAULT_LIMITS } from '../../src/imports/limits.ts';
import { AssetCollector } from '../../src/imports/types.ts';
import { FolderBlobStore } from '../../src/storage/blobs.ts';

/**
 * A folder import counts what it imports (the pages and the files they use) against the size limit, not
 * everything the folder holds, and reports what it left out.
 */
const MB = 1024 * 1024;
const limits = { ...DEFAULT_LIMITS, maxUnpackedBytes: 1 * MB };

describe('Folder imports and the size limit', () => {
  const root = mkdtempSync(join(tmpdir(), 'quire-folder-limits-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const blobs = new FolderBlobStore(join(root, 'blobs'));
  const env = { limits, signal: new AbortController().signal, allowPrivate: false };

  const folder = (name: string, files: Record<string, string | Buffer>) => {
    const at = join(root, name);
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(join(at, path, '..'), { recursive: true });
      writeFileSync(join(at, path), content);
    }
    return at;
  };

  it('imports the pages of a folder whose unused files pass the limit, and lists those files', async () => {
    const at = folder('unused', {
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n',
      'README.md': '# Home\n\n![logo](.gitbook/assets/logo.png)\n',
      '.gitbook/assets/logo.png': Buffer.alloc(1000, 1),
      '.gitbook/assets/video.mp4': Buffer.alloc(2 * MB, 2),
      'draft.md': '# Draft\n',
    });
    const content = await importFileSet(await folderFileSet(at, limits), { assets: new AssetCollector(blobs), env });
    assert.deepEqual(content.pages.map((page) => page.title), ['Home']);
    assert.deepEqual(content.assets.map((asset) => asset.name), ['logo.png']);
    assert.deepEqual(content.leftOut?.files.sort(), ['.gitbook/assets/video.mp4', 'draft.md']);
    assert.equal(content.leftOut?.bytes, 2 * MB + '# Draft\n'.length);
    assert.equal(leftOutText({ count: 2, bytes: content.leftOut!.bytes, files: content.leftOut!.files }), `Left out 2 files (2 MB) that no imported page uses or the summary does not list: ${content.leftOut!.files.join(', ')}.\n`);
  });

  it('refuses a folder whose pages and the files they use pass the limit, saying so', async () => {
    const at = folder('used', {
      'README.md': '# Home\n\n![video](big.png)\n',
      'big.png': Buffer.alloc(2 * MB, 3),
    });
    await assert.rejects(importFileSet(await folderFileSet(at, limits), { assets: new AssetCollector(blobs), env }), /The pages and the files they use come to 2 MB, more than the 1 MB one import takes/);
  });
});
