import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { addMember, cast, createUser, createWorld, type TestUser, type World } from '../helpers/factories.ts';
import { MEMBER_ROLES, roleAtLeast, type MemberRole } from '../../src/policy/roles.ts';

/**
 * Who may do what with comments and replies, for every role of the organization, a guest and an outsider:
 * `read` and above read, `comment` and above post, reply, react and resolve, authors change their own
 * words, authors and administrators delete. The `permissions` object says exactly that.
 */
const FORBIDDEN = 403;
const HIDDEN = 404;

/** The status a caller gets: hidden for guests and outsiders, else ok when `allowed`. */
function expected(name: string, allowed: (role: MemberRole) => boolean, ok = 200): number {
  if (name === 'guest' || name === 'outsider') return HIDDEN;
  return allowed(name as MemberRole) ? ok : FORBIDDEN;
}
const atLeast = (required: MemberRole) => (role: MemberRole) => roleAtLeast(role, required);

for (const dialect of dialects) {
  describe(`comment rights [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    let url: string;
    let commentId: string;
    let replyId: string;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      ({ spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Page', markdown: 'Text\n' }]));
      url = `/v1/spaces/${spaceId}/comments`;
      commentId = (await world.members.comment.api.post(url, { body: { markdown: 'By the comment member' } })).body.id;
      replyId = (await world.members.edit.api.post(`${url}/${commentId}/replies`, { body: { markdown: 'By the edit member' } })).body.id;
    });
    after(() => t.close());

    const matrix = async (label: string, call: (user: TestUser, name: string) => Promise<{ status: number }>, want: (name: string) => number) => {
      for (const [name, user] of cast(world)) {
        const reply = await call(user, name);
        assert.equal(reply.status, want(name), `${label} as ${name}: ${JSON.stringify(reply)}`);
      }
    };

    it('reading comments, replies and commenters: read and above; guests and outsiders get 404', async () => {
      const reads = [url, `${url}/${commentId}`, `${url}/${commentId}/replies`, `${url}/${commentId}/replies/${replyId}`, `/v1/spaces/${spaceId}/commenters`];
      for (const path of reads) await matrix(`GET ${path}`, (user) => user.api.get(path), (name) => expected(name, atLeast('read')));
    });

    it('posting comments and replies: comment and above; read gets 403', async () => {
      await matrix('post a comment', (user) => user.api.post(url, { body: { markdown: 'Hello' } }), (name) => expected(name, atLeast('comment')));
      await matrix('post a reply', (user) => user.api.post(`${url}/${commentId}/replies`, { body: { markdown: 'Hello' } }), (name) => expected(name, atLeast('comment')));
      const refused = await world.members.read.api.post(url, { body: { markdown: 'Hello' } });
      assertError(refused, 403, 'comment level');
    });

    it('reacting to comments and replies, resolving and reopening: comment and above', async () => {
      await matrix('react to a comment', (user) => user.api.put(`${url}/${commentId}`, { addedReactions: ['👍'] }), (name) => expected(name, atLeast('comment')));
      await matrix('react to a reply', (user) => user.api.put(`${url}/${commentId}/replies/${replyId}`, { addedReactions: ['👍'] }), (name) => expected(name, atLeast('comment')));
      const comment = await world.admin.api.get(`${url}/${commentId}`);
      assert.equal(comment.body.reactions[0].count, MEMBER_ROLES.filter(atLeast('comment')).length);
      await matrix('resolve', (user) => user.api.put(`${url}/${commentId}`, { resolved: true }), (name) => expected(name, atLeast('comment')));
      await matrix('reopen', (user) => user.api.put(`${url}/${commentId}`, { resolved: false }), (name) => expected(name, atLeast('comment')));
      assertError(await world.members.read.api.put(`${url}/${commentId}`, { resolved: true }), 403, 'resolve');
    });

    it('changing what a comment or reply says: its author only, administrators included in the refusal', async () => {
      await matrix('edit the comment', (user) => user.api.put(`${url}/${commentId}`, { body: { markdown: 'Edited' } }), (name) => expected(name, (role) => role === 'comment'));
      await matrix('edit the reply', (user) => user.api.put(`${url}/${commentId}/replies/${replyId}`, { body: { markdown: 'Edited' } }), (name) => expected(name, (role) => role === 'edit'));
      assertError(await world.admin.api.put(`${url}/${commentId}`, { body: { markdown: 'Not mine' } }), 403, 'author');
      // A change with a part the caller may not make changes nothing, not even the parts they may make.
      const mixed = await world.members.edit.api.put(`${url}/${commentId}`, { body: { markdown: 'Not mine' }, addedReactions: ['🚀'] });
      assertError(mixed, 403);
      const after = await world.admin.api.get(`${url}/${commentId}`);
      assert.ok(!after.body.reactions.some((r: { emoji: string }) => r.emoji === '🚀'));
    });

    it('deleting a comment: its author and administrators (205); others 403; guests and outsiders 404', async () => {
      for (const [name, user] of cast(world)) {
        const id = (await world.members.comment.api.post(url, { body: { markdown: `For ${name} to delete` } })).body.id;
        const reply = await user.api.delete(`${url}/${id}`);
        assert.equal(reply.status, expected(name, (role) => role === 'admin' || role === 'comment', 205), `delete as ${name}`);
      }
      for (const role of MEMBER_ROLES.filter(atLeast('comment'))) {
        const own = (await world.members[role].api.post(url, { body: { markdown: 'Mine' } })).body.id;
        assert.equal((await world.members[role].api.delete(`${url}/${own}`)).status, 205, `${role} deletes their own comment`);
      }
      await matrix('delete a comment that is not there', (user) => user.api.delete(`${url}/never-was`), (name) => expected(name, atLeast('read'), 204));
    });

    it('deleting a reply: its author and administrators (205); others 403; guests and outsiders 404', async () => {
      for (const [name, user] of cast(world)) {
        const id = (await world.members.edit.api.post(`${url}/${commentId}/replies`, { body: { markdown: `For ${name} to delete` } })).body.id;
        const reply = await user.api.delete(`${url}/${commentId}/replies/${id}`);
        assert.equal(reply.status, expected(name, (role) => role === 'admin' || role === 'edit', 205), `delete a reply as ${name}`);
      }
      await matrix('delete a reply that is not there', (user) => user.api.delete(`${url}/${commentId}/replies/never-was`), (name) => expected(name, atLeast('read'), 204));
      const comment = await world.admin.api.get(`${url}/${commentId}`);
      const stored = await t.ctx.db.selectFrom('comment_replies').select((eb) => eb.fn.countAll<number>().as('n')).where('comment_id', '=', commentId).executeTakeFirstOrThrow();
      assert.equal(comment.body.replies, Number(stored.n), 'the replies counter follows posts and deletions');
    });

    it('says in `permissions` exactly what each caller may do with a comment and a reply', async () => {
      for (const role of MEMBER_ROLES) {
        const user = world.members[role];
        const comment = await user.api.get(`${url}/${commentId}`);
        const comments = atLeast('comment')(role);
        assert.deepEqual(
          comment.body.permissions,
          { view: true, edit: role === 'comment', reply: comments, react: comments, delete: role === 'admin' || role === 'comment' },
          `comment permissions for ${role}`,
        );
        const reply = await user.api.get(`${url}/${commentId}/replies/${replyId}`);
        assert.deepEqual(
          reply.body.permissions,
          { view: true, edit: role === 'edit', reply: comments, react: comments, delete: role === 'admin' || role === 'edit' },
          `reply permissions for ${role}`,
        );
      }
    });

    it('an author who can no longer comment can no longer change or delete what they wrote', async () => {
      const writer = await createUser(t.ctx, t.app, 'writer');
      await addMember(t.ctx, world.organizationId, writer.id, 'comment');
      const id = (await writer.api.post(url, { body: { markdown: 'Before the demotion' } })).body.id;
      await t.ctx.db.updateTable('members').set({ role: 'read' }).where('user_id', '=', writer.id).execute();
      const read = await writer.api.get(`${url}/${id}`);
      assert.deepEqual(read.body.permissions, { view: true, edit: false, reply: false, react: false, delete: false });
      assertError(await writer.api.put(`${url}/${id}`, { body: { markdown: 'After' } }), 403);
      assertError(await writer.api.delete(`${url}/${id}`), 403);
    });

    it('follows the space\'s level, not only the organization role', async () => {
      const { spaceId: readOnly } = await createSpaceWithPages(t.ctx, world.organizationId, [], { defaultLevel: 'read' });
      assertError(await world.members.edit.api.post(`/v1/spaces/${readOnly}/comments`, { body: { markdown: 'Hi' } }), 403);
      assert.equal((await world.admin.api.post(`/v1/spaces/${readOnly}/comments`, { body: { markdown: 'Hi' } })).status, 200);
      const { spaceId: closed } = await createSpaceWithPages(t.ctx, world.organizationId, [], { defaultLevel: 'none' });
      assertError(await world.members.create.api.get(`/v1/spaces/${closed}/comments`), 404);
    });

    it('a public space shows its content to anyone, but its discussion only to members with a level', async () => {
      const { spaceId: open } = await createSpaceWithPages(t.ctx, world.organizationId, [], { visibility: 'public' });
      const id = (await world.members.comment.api.post(`/v1/spaces/${open}/comments`, { body: { markdown: 'Members only' } })).body.id;
      assert.equal((await world.outsider.api.get(`/v1/spaces/${open}`)).status, 200);
      for (const visitor of [world.outsider, world.guest]) {
        assertError(await visitor.api.get(`/v1/spaces/${open}/comments`), 403, 'access');
        assertError(await visitor.api.get(`/v1/spaces/${open}/comments/${id}`), 403);
        assertError(await visitor.api.post(`/v1/spaces/${open}/comments`, { body: { markdown: 'Hi' } }), 403);
        assertError(await visitor.api.delete(`/v1/spaces/${open}/comments/${id}`), 403);
      }
      assert.equal((await world.members.read.api.get(`/v1/spaces/${open}/comments`)).body.count, 1);
    });
  });
}
