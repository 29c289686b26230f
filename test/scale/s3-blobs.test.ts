import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { S3BlobStore } from '../../src/storage/s3.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { addFile, createSpace, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { buildZip, dataUrl, PNG } from '../imports/helpers.ts';
import { startLocalS3, type LocalS3 } from './s3-server.ts';

async function bytesOf(stream: Readable | null): Promise<Buffer | null> {
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function s3Store(s3: LocalS3, prefix: string): S3BlobStore {
  const config = loadConfig({ QUIRE_BLOB_URL: s3.blobUrl(prefix) });
  assert.equal(config.blobs.kind, 's3');
  return new S3BlobStore(config.blobs as Extract<typeof config.blobs, { kind: 's3' }>);
}

describe('QUIRE_BLOB_URL', () => {
  it('selects a folder by default, an S3 bucket with path-style addressing, and names what is wrong', () => {
    assert.deepEqual(loadConfig({ QUIRE_DATA_DIR: '/srv/quire' }).blobs, { kind: 'folder', path: '/srv/quire/blobs' });
    assert.deepEqual(loadConfig({ QUIRE_BLOB_URL: 's3://docs-blobs/quire/?endpoint=http%3A%2F%2F127.0.0.1%3A9000&checksum=when_required', AWS_REGION: 'eu-west-1' }).blobs, {
      kind: 's3',
      bucket: 'docs-blobs',
      prefix: 'quire/',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      pathStyle: true,
      checksum: 'when_required',
    });
    assert.throws(() => loadConfig({ QUIRE_BLOB_URL: 'ftp://x' }), (e) => e instanceof ConfigError && /s3:\/\//.test(e.message));
    assert.throws(() => loadConfig({ QUIRE_BLOB_URL: 's3://Bad_Bucket' }), (e) => e instanceof ConfigError && /not a valid bucket name/.test(e.message));
    assert.throws(() => loadConfig({ QUIRE_BLOB_URL: 's3://docs?checksum=always' }), (e) => e instanceof ConfigError && /when_supported or when_required/.test(e.message));
    assert.throws(() => loadConfig({ QUIRE_BLOB_URL: 's3://docs?endpont=x' }), (e) => e instanceof ConfigError && /unknown option "endpont"/.test(e.message));
  });
});

describe('S3 blob store against a local S3-compatible server', () => {
  let s3: LocalS3;
  before(async () => {
    s3 = await startLocalS3();
  });
  after(() => s3.close());

  it('stores bytes once by their hash, reads them back, and says what it does not hold', async () => {
    const store = s3Store(s3, 'unit');
    const bytes = randomBytes(300_000);
    const [first, second] = await Promise.all([store.put(bytes), store.put(Buffer.from(bytes))]);
    assert.deepEqual(first, second);
    assert.equal(first.size, bytes.length);
    assert.equal(await store.has(first.hash), true);
    assert.ok((await bytesOf(await store.open(first.hash)))!.equals(bytes));
    const absent = '0'.repeat(64);
    assert.equal(await store.has(absent), false);
    assert.equal(await store.open(absent), null);
    assert.equal(await store.open('../../etc/passwd'), null);
    const empty = await store.put(Buffer.alloc(0));
    assert.equal((await bytesOf(await store.open(empty.hash)))!.length, 0);
    // Another prefix is another store: nothing leaks between them.
    assert.equal(await s3Store(s3, 'other').has(first.hash), false);
    // Checksums only when required (for servers that refuse the newer headers) works the same.
    const strict = new S3BlobStore({ ...(loadConfig({ QUIRE_BLOB_URL: s3.blobUrl('unit') }).blobs as Extract<ReturnType<typeof loadConfig>['blobs'], { kind: 's3' }>), checksum: 'when_required' });
    assert.ok((await bytesOf(await strict.open(first.hash)))!.equals(bytes));
    await store.destroy();
    await strict.destroy();
  });

  for (const dialect of dialects) {
    describe(`the API on S3 storage [${dialect}]`, () => {
      let t: TestApp;
      let world: World;
      before(async () => {
        t = await createTestApp(dialect, { QUIRE_BLOB_URL: s3.blobUrl(`api-${dialect}`), QUIRE_IMPORT_ALLOW_PRIVATE: '1' });
        world = await createWorld(t.ctx, t.app);
      });
      after(() => t.close());

      it('serves an uploaded file from the bucket by its signed URL', async () => {
        const spaceId = await createSpace(t.ctx, world.organizationId);
        const bytes = randomBytes(20_000);
        let fileId = '';
        await editContent(t.ctx, spaceId, async (writer) => {
          fileId = await addFile(t.ctx, writer, { name: 'data.bin', contentType: 'application/octet-stream', bytes });
        });
        assert.ok(t.app.services.blobs instanceof S3BlobStore);
        const file = await world.members.read.api.get(`/v1/spaces/${spaceId}/content/files/${fileId}`);
        assert.equal(file.status, 200);
        const url = new URL(file.body.downloadURL);
        const response = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
        assert.equal(response.statusCode, 200, response.body);
        assert.ok(response.rawPayload.equals(bytes));
      });

      it('keeps the files of an import in the bucket', async () => {
        const spaceId = await createSpace(t.ctx, world.organizationId);
        const zip = buildZip([
          { name: 'README.md', data: '# Welcome\n\n![logo](logo.png)\n' },
          { name: 'logo.png', data: PNG },
        ]);
        const reply = await world.members.edit.api.post(`/v1/spaces/${spaceId}/content/import`, { source: 'zip', url: dataUrl('application/zip', zip) });
        assert.equal(reply.status, 201, JSON.stringify(reply.body));
        const files = await world.members.read.api.get(`/v1/spaces/${spaceId}/content/files`);
        assert.equal(files.status, 200);
        assert.equal(files.body.items.length, 1);
        const url = new URL(files.body.items[0].downloadURL);
        const response = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
        assert.equal(response.statusCode, 200);
        assert.ok(response.rawPayload.equals(PNG));
      });
    });
  }
});
