import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type Reply, type TestApp } from '../helpers/app.ts';
import { createSpace, createSpaceWithPages } from '../helpers/content-factory.ts';
import { cast, createWorld, type TestUser, type World } from '../helpers/factories.ts';
import { MAX_UPLOAD_BYTES } from '../../src/modules/uploads/sniff.ts';

/**
 * Quire's addition `uploadFileInChangeRequest`: a file sent as bytes joins the change request's files. Who
 * may (the edit level), what is refused (size, kinds a browser would run, pictures whose bytes are not
 * pictures), what a repeat gives (the same file, no copy), and that the file downloads as sent.
 */

/** A 3×2 PNG: signature, IHDR with its size, no more is needed for the sniffing. */
function png(width = 3, height = 2, salt = 0): Buffer {
  const header = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 0, 0, 0, 0, 0, 8, 6, 0, 0, 0, salt]);
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  return header;
}

for (const dialect of dialects) {
  describe(`file upload into a change request [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    let cr: string;

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      ({ spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Intro', markdown: 'Hello\n' }]));
      const created = await world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Pictures' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      cr = `/v1/spaces/${spaceId}/change-requests/${created.body.id}`;
    });
    after(() => t.close());

    const upload = async (user: TestUser | undefined, url: string, name: string, bytes: Buffer, type = 'application/octet-stream'): Promise<Reply> => {
      const response = await t.app.inject({
        method: 'POST',
        url: `${url}/content/files?name=${encodeURIComponent(name)}`,
        headers: { ...(user ? { authorization: `Bearer ${user.token}` } : {}), 'content-type': type },
        payload: bytes,
      });
      return { status: response.statusCode, body: response.body ? JSON.parse(response.body) : undefined, headers: response.headers };
    };

    it('adds a picture: its kind and size from the bytes, listed in the change request, downloadable, the space untouched', async () => {
      const bytes = png(640, 480);
      const reply = await upload(world.members.edit, cr, 'diagram.png', bytes, 'application/json');
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      assert.equal(reply.body.name, 'diagram.png');
      assert.equal(reply.body.contentType, 'image/png');
      assert.equal(reply.body.size, bytes.length);
      assert.deepEqual(reply.body.dimensions, { width: 640, height: 480 });
      const listed = await world.members.read.api.get(`${cr}/content/files`);
      assert.deepEqual(listed.body.items.map((file: { id: string }) => file.id), [reply.body.id]);
      const url = new URL(reply.body.downloadURL);
      const download = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
      assert.equal(download.statusCode, 200);
      assert.ok(download.rawPayload.equals(bytes), 'the same bytes come back');
      const space = await world.members.read.api.get(`/v1/spaces/${spaceId}/content/files`);
      assert.equal(space.body.count, 0, 'the space itself does not change until the change request is merged');
    });

    it('gives the same file back for the same bytes and name (a retry makes no copy); other bytes get a free name', async () => {
      const bytes = png(10, 10, 1);
      const first = await upload(world.members.edit, cr, 'again.png', bytes);
      assert.equal(first.status, 201);
      const head = (await world.members.read.api.get(`${cr}`)).body.revision;
      const second = await upload(world.members.edit, cr, 'again.png', bytes);
      assert.equal(second.status, 200);
      assert.equal(second.body.id, first.body.id);
      assert.equal((await world.members.read.api.get(`${cr}`)).body.revision, head, 'no new revision');
      const other = await upload(world.members.edit, cr, 'AGAIN.png', png(10, 10, 2));
      assert.equal(other.status, 201);
      assert.equal(other.body.name, 'AGAIN-1.png');
    });

    it('keeps other kinds by name and refuses what a browser would run, or a picture that is not one', async () => {
      const pdf = await upload(world.members.edit, cr, 'guide.pdf', Buffer.from('%PDF-1.4\n%fake but well started\n'));
      assert.equal(pdf.status, 201);
      assert.equal(pdf.body.contentType, 'application/pdf');
      const csv = await upload(world.members.edit, cr, 'folder/../data.csv', Buffer.from('a,b\n1,2\n'), 'text/csv');
      assert.equal(csv.status, 201);
      assert.equal(csv.body.name, 'data.csv');
      assertError(await upload(world.members.edit, cr, 'logo.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'image/svg+xml'), 400, 'not a PNG');
      assertError(await upload(world.members.edit, cr, 'notes.txt', Buffer.from('<!DOCTYPE html><script>alert(1)</script>')), 400, 'HTML');
      assertError(await upload(world.members.edit, cr, 'photo.jpg', Buffer.from('not a picture at all')), 400, 'not a PNG');
      assertError(await upload(world.members.edit, cr, 'fake.pdf', Buffer.from('hello')), 400, 'not one');
      assertError(await upload(world.members.edit, cr, 'tool.exe', Buffer.from('MZ\x90\x00')), 400, 'does not hold');
      assertError(await upload(world.members.edit, cr, 'empty.png', Buffer.alloc(0)), 400, 'empty');
      assertError(await upload(world.members.edit, cr, '..', png()), 400, 'name');
      const big = await upload(world.members.edit, cr, 'big.png', Buffer.concat([png(), Buffer.alloc(MAX_UPLOAD_BYTES)]));
      assertError(big, 413);
      const noName = await t.app.inject({ method: 'POST', url: `${cr}/content/files`, headers: { authorization: `Bearer ${world.members.edit.token}`, 'content-type': 'image/png' }, payload: png() });
      assert.equal(noName.statusCode, 400);
      assert.match(JSON.parse(noName.body).error.message, /name/);
    });

    it('lets the edit level upload (admin, create, review, edit): comment and read get 403, guests and outsiders 404, no token 401', async () => {
      const allowed = new Set(['admin', 'create', 'review', 'edit']);
      for (const [name, user] of cast(world)) {
        const reply = await upload(user, cr, `by-${name}.png`, png(1, 1, name.length + 10));
        const want = allowed.has(name) ? 201 : name === 'guest' || name === 'outsider' ? 404 : 403;
        assert.equal(reply.status, want, `${name}: ${JSON.stringify(reply.body)}`);
      }
      assert.equal((await upload(undefined, cr, 'anonymous.png', png())).status, 401);
      const names = (await world.members.read.api.get(`${cr}/content/files?limit=100`)).body.items.map((file: { name: string }) => file.name);
      assert.deepEqual(names.filter((n: string) => n.startsWith('by-')).sort(), ['by-admin.png', 'by-create.png', 'by-edit.png', 'by-review.png']);
    });

    it('refuses a locked space (423) and an archived change request (409)', async () => {
      const locked = await createSpace(t.ctx, world.organizationId, { editMode: 'locked' });
      const lockedCr = await world.admin.api.post(`/v1/spaces/${locked}/change-requests`, {});
      if (lockedCr.status === 201) assertError(await upload(world.admin, `/v1/spaces/${locked}/change-requests/${lockedCr.body.id}`, 'a.png', png()), 423);
      else assert.equal(lockedCr.status, 423, 'a locked space refuses change requests, or their uploads');
      const made = await world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, {});
      const url = `/v1/spaces/${spaceId}/change-requests/${made.body.id}`;
      await world.members.edit.api.patch(url, { status: 'archived' });
      assertError(await upload(world.members.edit, url, 'late.png', png()), 409, 'archived');
    });
  });
}
