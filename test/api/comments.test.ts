import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type Reply, type TestApp } from '../helpers/app.ts';
import { commentCounters } from '../helpers/comment-fixtures.ts';
import { createSpaceWithPages, currentRevision, editContent } from '../helpers/content-factory.ts';
import { createWorld, type TestUser, type World } from '../helpers/factories.ts';

/** Comments in a space's own discussion: posting, reading, listing, changing, resolving, deleting, and their validation. */
for (const dialect of dialects) {
  describe(`space comments [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    let url: string;
    let startId: string;
    let installId: string;
    let guidesId: string;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      ({ spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [
        { type: 'document', title: 'Getting started', markdown: 'Install Quire, then run it.\n' },
        { type: 'group', title: 'Guides', pages: [{ type: 'document', title: 'Install', markdown: 'Run `npm install`.\n' }] },
      ]));
      url = `/v1/spaces/${spaceId}/comments`;
      const content = await world.admin.api.get(`/v1/spaces/${spaceId}/content`);
      startId = content.body.pages[0].id;
      guidesId = content.body.pages[1].id;
      installId = content.body.pages[1].pages[0].id;
    });
    after(() => t.close());

    const post = async (user: TestUser, body: Record<string, unknown>, path = url): Promise<Reply> => {
      t.clock.advance(1000);
      const reply = await user.api.post(path, body);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return reply;
    };
    const text = (markdown: string) => ({ body: { markdown } });
    const counters = () => commentCounters(t.ctx, spaceId);

    describe('POST', () => {
      it('posts a comment on the space: 200 with the comment, its author, its target and the caller\'s permissions', async () => {
        const before = await counters();
        const reply = await post(world.members.comment, text('Is **this** right?'));
        const comment = reply.body;
        assert.equal(comment.object, 'comment');
        assert.equal(comment.status, 'open');
        assert.equal(comment.postedBy.id, world.members.comment.id);
        assert.equal(comment.postedBy.object, 'user');
        assert.equal(comment.postedAt, t.clock.now().toISOString());
        assert.equal(comment.editedAt, undefined);
        assert.equal(comment.resolvedAt, undefined);
        assert.deepEqual(comment.reactions, []);
        assert.equal(comment.replies, 0);
        assert.equal(comment.body.document.object, 'document');
        assert.equal(comment.body.document.nodes[0].type, 'paragraph');
        assert.deepEqual(comment.target, { space: spaceId, revision: await currentRevision(t.ctx, spaceId) });
        assert.equal(comment.urls.location, `http://quire.test/v1/spaces/${spaceId}/comments/${comment.id}`);
        assert.deepEqual(comment.permissions, { view: true, edit: true, reply: true, react: true, delete: true });
        assert.deepEqual(await counters(), { space: before.space + 1 });
        const space = await world.admin.api.get(`/v1/spaces/${spaceId}`);
        assert.equal(space.body.comments, before.space + 1);
      });

      it('takes a JSON document as the body, and stores it as Markdown', async () => {
        const document = {
          object: 'document',
          data: {},
          nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'From a document', marks: [{ object: 'mark', type: 'italic' }] }] }] }],
        };
        const created = await post(world.members.edit, { body: { document } });
        const read = await world.members.read.api.get(`${url}/${created.body.id}?format=markdown`);
        assert.equal(read.status, 200);
        assert.equal(read.body.body.markdown.trim(), '_From a document_');
        assert.deepEqual(created.body.body.document.nodes[0].nodes[0].leaves[0].marks, [{ object: 'mark', type: 'italic' }]);
      });

      it('attaches a comment to a page, a block of it, or a table cell, and says so in the target', async () => {
        const onPage = await post(world.members.comment, { ...text('About the install'), page: installId });
        assert.deepEqual(onPage.body.target.page, { id: installId, title: 'Install', path: 'guides/install', outdated: false });
        const onNode = await post(world.members.comment, { ...text('This line'), page: startId, node: 'block-1' });
        assert.deepEqual(onNode.body.target.node, { id: 'block-1' });
        assert.equal(onNode.body.target.page.path, 'getting-started');
        const onCell = await post(world.members.comment, { ...text('This cell'), page: startId, tableCell: { record: 'r1', definition: 'd1' } });
        assert.deepEqual(onCell.body.target.tableCell, { record: 'r1', definition: 'd1' });
        const onGroup = await post(world.members.comment, { ...text('The whole group'), page: guidesId });
        assert.deepEqual(onGroup.body.target.page, { id: guidesId, title: 'Guides', path: 'guides', outdated: false });
      });

      it('refuses bodies and targets that are not right with 400 naming the member, and writes nothing', async () => {
        const before = await counters();
        const user = world.members.comment;
        assertError(await user.api.post(url, {}), 400, '"body"');
        assertError(await user.api.post(url, text('')), 400, 'body.markdown');
        assertError(await user.api.post(url, text('  \n\t ')), 400, /body\.markdown.*must not be empty/);
        assertError(await user.api.post(url, text('x'.repeat(20_001))), 400, /body\.markdown.*too long|body\.markdown.*20000/);
        assertError(await user.api.post(url, { body: {} }), 400, /"body" needs "markdown".*or "document"/);
        assertError(await user.api.post(url, { body: { markdown: 'a', document: { object: 'document', nodes: [{}] } } }), 400, /both "markdown" and "document"/);
        assertError(await user.api.post(url, { body: { html: '<p>' } }), 400, 'body.html');
        assertError(await user.api.post(url, { body: { markdown: 42 } }), 400, 'body.markdown');
        assertError(await user.api.post(url, { body: { document: { object: 'document', data: {}, nodes: [] } } }), 400, 'body.document.nodes');
        const empty = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] }] }] };
        assertError(await user.api.post(url, { body: { document: empty } }), 400, /body\.document.*must not be empty/);
        const broken = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: 'oops' }] }] };
        assertError(await user.api.post(url, { body: { document: broken } }), 400, /body\.document.*not a valid document/);
        assertError(await user.api.post(url, { ...text('Hi'), page: 'no-such-page' }), 400, /"page".*no-such-page/);
        assertError(await user.api.post(url, { ...text('Hi'), node: 'n1' }), 400, '"node"');
        assertError(await user.api.post(url, { ...text('Hi'), tableCell: { record: 'r', definition: 'd' } }), 400, '"tableCell"');
        assertError(await user.api.post(url, { ...text('Hi'), tableCell: { record: 'r' } }), 400, 'tableCell.definition');
        assertError(await user.api.post(url, { ...text('Hi'), color: 'red' }), 400, '"color"');
        assert.equal((await user.api.post(url, text('x'.repeat(20_000)))).status, 200, 'exactly the limit is accepted');
        assert.deepEqual(await counters(), { space: before.space + 1 });
      });

      it('answers 404 for a space that does not exist', async () => {
        assertError(await world.admin.api.post('/v1/spaces/nope/comments', text('Hi')), 404);
        assertError(await world.admin.api.get('/v1/spaces/nope/comments'), 404);
      });
    });

    describe('around the comments', () => {
      it('lets members discuss a locked space: comments are not content', async () => {
        const { spaceId: locked } = await createSpaceWithPages(t.ctx, world.organizationId, [], { editMode: 'locked' });
        assert.equal((await world.members.comment.api.post(`/v1/spaces/${locked}/comments`, text('Still open for discussion'))).status, 200);
      });

      it('lists the commenters of the space\'s own discussion', async () => {
        const { spaceId: sid } = await createSpaceWithPages(t.ctx, world.organizationId, []);
        const first = await post(world.members.edit, text('Hello'), `/v1/spaces/${sid}/comments`);
        await post(world.members.comment, text('Reply'), `/v1/spaces/${sid}/comments/${first.body.id}/replies`);
        const commenters = await world.members.read.api.get(`/v1/spaces/${sid}/commenters`);
        assert.deepEqual(commenters.body.items.map((m: { id: string }) => m.id), [world.members.comment.id, world.members.edit.id]);
        assert.equal(commenters.body.total, 2);
      });
    });

    describe('GET one and PUT', () => {
      it('reads one comment in either format; 404 for one that is not there', async () => {
        const created = await post(world.members.comment, text('# Title\n\nSome *text*.'));
        const asDocument = await world.members.read.api.get(`${url}/${created.body.id}`);
        assert.equal(asDocument.status, 200);
        assert.deepEqual(asDocument.body.body, created.body.body);
        assert.deepEqual(asDocument.body.permissions, { view: true, edit: false, reply: false, react: false, delete: false });
        const asMarkdown = await world.members.read.api.get(`${url}/${created.body.id}?format=markdown`);
        assert.deepEqual(asMarkdown.body.body, { markdown: '# Title\n\nSome *text*.' });
        assertError(await world.members.read.api.get(`${url}/nope`), 404, 'nope');
        assertError(await world.members.read.api.get(`${url}/${created.body.id}?format=html`), 400, 'format');
      });

      it('changes the body of a comment (author), setting editedAt only when the text changes', async () => {
        const created = await post(world.members.comment, text('First words'));
        t.clock.advance(5000);
        const same = await world.members.comment.api.put(`${url}/${created.body.id}`, text('First words'));
        assert.equal(same.status, 200);
        assert.equal(same.body.editedAt, undefined);
        const edited = await world.members.comment.api.put(`${url}/${created.body.id}?format=markdown`, text('Better words'));
        assert.equal(edited.status, 200, JSON.stringify(edited.body));
        assert.deepEqual(edited.body.body, { markdown: 'Better words' });
        assert.equal(edited.body.editedAt, t.clock.now().toISOString());
        assert.equal(edited.body.postedAt, created.body.postedAt);
        assertError(await world.members.comment.api.put(`${url}/${created.body.id}`, text('')), 400, 'body.markdown');
        assertError(await world.members.comment.api.put(`${url}/${created.body.id}`, {}), 400);
        assertError(await world.members.comment.api.put(`${url}/nope`, text('x')), 404);
      });

      it('resolves a comment (who and when) and reopens it, keeping the open-comment counter right', async () => {
        const created = await post(world.members.edit, text('Resolve me'));
        const open = await counters();
        t.clock.advance(1000);
        const resolved = await world.members.comment.api.put(`${url}/${created.body.id}`, { resolved: true });
        assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
        assert.equal(resolved.body.status, 'resolved');
        assert.equal(resolved.body.resolvedAt, t.clock.now().toISOString());
        assert.equal(resolved.body.resolvedBy.id, world.members.comment.id);
        assert.equal(resolved.body.editedAt, undefined, 'resolving is not editing');
        assert.deepEqual(await counters(), { space: open.space - 1 });
        t.clock.advance(1000);
        const again = await world.admin.api.put(`${url}/${created.body.id}`, { resolved: true });
        assert.equal(again.body.resolvedBy.id, world.members.comment.id, 'resolving a resolved comment changes nothing');
        assert.equal(again.body.resolvedAt, resolved.body.resolvedAt);
        assert.deepEqual(await counters(), { space: open.space - 1 });
        const reopened = await world.members.comment.api.put(`${url}/${created.body.id}`, { resolved: false });
        assert.equal(reopened.body.status, 'open');
        assert.equal(reopened.body.resolvedAt, undefined);
        assert.equal(reopened.body.resolvedBy, undefined);
        assert.deepEqual(await counters(), open);
        await world.members.comment.api.put(`${url}/${created.body.id}`, { resolved: false });
        assert.deepEqual(await counters(), open, 'reopening an open comment changes nothing');
        const row = await t.ctx.db.selectFrom('comments').selectAll().where('id', '=', created.body.id).executeTakeFirstOrThrow();
        assert.deepEqual([row.status, row.resolved_at, row.resolved_by], ['open', null, null]);
      });

      it('changes the body and the status in one request', async () => {
        const created = await post(world.members.comment, text('Two things'));
        const both = await world.members.comment.api.put(`${url}/${created.body.id}`, { ...text('Two things, done'), resolved: true });
        assert.equal(both.body.status, 'resolved');
        assert.ok(both.body.editedAt);
        await world.members.comment.api.put(`${url}/${created.body.id}`, { resolved: false });
      });
    });

    describe('reactions', () => {
      it('counts reactions per emoji with who and when; adding twice counts once; removing takes only the caller\'s', async () => {
        const created = await post(world.members.comment, text('React to me'));
        const path = `${url}/${created.body.id}`;
        t.clock.advance(1000);
        const first = await world.members.edit.api.put(path, { addedReactions: ['👍', '🎉'] });
        assert.equal(first.status, 200, JSON.stringify(first.body));
        const firstAt = t.clock.now().toISOString();
        t.clock.advance(1000);
        await world.members.read.api.put(path, { addedReactions: ['👍'] }).then((r) => assert.equal(r.status, 403));
        const second = await world.members.comment.api.put(path, { addedReactions: ['👍', '👍'] });
        const secondAt = t.clock.now().toISOString();
        assert.deepEqual(
          second.body.reactions.map((r: { emoji: string; count: number; users: Array<{ user: { id: string }; reactedAt: string }> }) => [r.emoji, r.count, r.users.map((u) => [u.user.id, u.reactedAt])]),
          [
            ['🎉', 1, [[world.members.edit.id, firstAt]]],
            ['👍', 2, [[world.members.edit.id, firstAt], [world.members.comment.id, secondAt]]],
          ],
        );
        t.clock.advance(1000);
        await world.members.edit.api.put(path, { addedReactions: ['👍'] });
        const removed = await world.members.edit.api.put(path, { removedReactions: ['👍', '❤️'] });
        assert.deepEqual(
          removed.body.reactions.map((r: { emoji: string; count: number }) => [r.emoji, r.count]),
          [['🎉', 1], ['👍', 1]],
        );
        assert.equal(removed.body.reactions[1].users[0].user.id, world.members.comment.id);
        const both = await world.members.comment.api.put(path, { addedReactions: ['🚀'], removedReactions: ['🚀', '👍'] });
        assert.deepEqual(both.body.reactions.map((r: { emoji: string }) => r.emoji), ['🎉'], 'an emoji in both lists ends up removed');
        const listed = await world.members.read.api.get(url);
        assert.deepEqual(listed.body.items.find((c: { id: string }) => c.id === created.body.id).reactions, both.body.reactions);
      });

      it('refuses what is not an emoji, naming the member and position', async () => {
        const created = await post(world.members.comment, text('Emoji only'));
        const path = `${url}/${created.body.id}`;
        assertError(await world.members.comment.api.put(path, { addedReactions: ['👍', 'abc'] }), 400, 'addedReactions.1');
        assertError(await world.members.comment.api.put(path, { removedReactions: [''] }), 400, 'removedReactions.0');
        assertError(await world.members.comment.api.put(path, { addedReactions: ['123'] }), 400, 'addedReactions.0');
        assertError(await world.members.comment.api.put(path, { addedReactions: Array(21).fill('👍') }), 400, 'addedReactions');
        const ok = await world.members.comment.api.put(path, { addedReactions: ['👍🏽', '🇫🇷', '👨‍👩‍👧'] });
        assert.equal(ok.status, 200, JSON.stringify(ok.body));
        assert.equal(ok.body.reactions.length, 3);
      });
    });

    describe('outdated targets', () => {
      it('marks a page target outdated once the page body changes, follows renames, and keeps a removed page\'s title', async () => {
        const { spaceId: sid } = await createSpaceWithPages(t.ctx, world.organizationId, [
          { type: 'document', title: 'Alpha', markdown: 'Alpha body\n' },
          { type: 'document', title: 'Beta', markdown: 'Beta body\n' },
          { type: 'document', title: 'Gamma', markdown: 'Gamma body\n' },
        ]);
        const pages = (await world.admin.api.get(`/v1/spaces/${sid}/content`)).body.pages;
        const [alpha, beta, gamma] = pages.map((p: { id: string }) => p.id);
        const base = `/v1/spaces/${sid}/comments`;
        const onAlpha = await post(world.admin, { ...text('On alpha'), page: alpha }, base);
        const onBeta = await post(world.admin, { ...text('On beta'), page: beta }, base);
        const onGamma = await post(world.admin, { ...text('On gamma'), page: gamma }, base);
        const postedOn = onAlpha.body.target.revision;
        await editContent(t.ctx, sid, (writer) => {
          writer.updatePage(alpha, { markdown: 'Alpha body, changed\n' });
          writer.updatePage(beta, { title: 'Beta renamed' });
          writer.removePage(gamma);
        });
        const a = await world.admin.api.get(`${base}/${onAlpha.body.id}`);
        assert.deepEqual(a.body.target.page, { id: alpha, title: 'Alpha', path: 'alpha', outdated: true });
        assert.equal(a.body.target.revision, postedOn, 'the revision the comment was posted on');
        const b = await world.admin.api.get(`${base}/${onBeta.body.id}`);
        assert.deepEqual(b.body.target.page, { id: beta, title: 'Beta renamed', path: 'beta-renamed', outdated: false });
        const g = await world.admin.api.get(`${base}/${onGamma.body.id}`);
        assert.deepEqual(g.body.target.page, { id: gamma, title: 'Gamma', path: 'gamma', outdated: true });
        const fresh = await post(world.admin, { ...text('On the new alpha'), page: alpha }, base);
        assert.equal(fresh.body.target.page.outdated, false);
        assertError(await world.admin.api.post(base, { ...text('On gamma'), page: gamma }), 400, 'page');
      });
    });

    describe('GET list', () => {
      let sid: string;
      let base: string;
      let pageA: string;
      const made: Record<string, string> = {};
      before(async () => {
        ({ spaceId: sid } = await createSpaceWithPages(t.ctx, world.organizationId, [
          { type: 'document', title: 'A', markdown: 'a\n' },
          { type: 'document', title: 'B', markdown: 'b\n' },
        ]));
        base = `/v1/spaces/${sid}/comments`;
        pageA = (await world.admin.api.get(`/v1/spaces/${sid}/content`)).body.pages[0].id;
        made.one = (await post(world.members.comment, { ...text('one'), page: pageA }, base)).body.id;
        made.two = (await post(world.members.edit, text('two'), base)).body.id;
        made.three = (await post(world.members.comment, text('three'), base)).body.id;
        made.four = (await post(world.admin, { ...text('four'), page: pageA }, base)).body.id;
        await world.admin.api.put(`${base}/${made.two}`, { resolved: true });
        await world.admin.api.put(`${base}/${made.four}`, { resolved: true });
      });
      const ids = (reply: Reply) => reply.body.items.map((c: { id: string }) => c.id);

      it('lists newest first by default, oldest first with order=asc, with the count', async () => {
        const all = await world.members.read.api.get(base);
        assert.equal(all.status, 200);
        assert.deepEqual(ids(all), [made.four, made.three, made.two, made.one]);
        assert.equal(all.body.count, 4);
        assert.equal(all.body.next, undefined);
        assert.deepEqual(ids(await world.members.read.api.get(`${base}?order=asc`)), [made.one, made.two, made.three, made.four]);
        assertError(await world.members.read.api.get(`${base}?order=sideways`), 400, 'order');
      });

      it('filters by status (all by default), target page and authors', async () => {
        assert.deepEqual(ids(await world.members.read.api.get(`${base}?status=open`)), [made.three, made.one]);
        assert.deepEqual(ids(await world.members.read.api.get(`${base}?status=resolved`)), [made.four, made.two]);
        assert.deepEqual(ids(await world.members.read.api.get(`${base}?status=all`)), [made.four, made.three, made.two, made.one]);
        assertError(await world.members.read.api.get(`${base}?status=closed`), 400, 'status');
        const onPage = await world.members.read.api.get(`${base}?targetPage=${pageA}`);
        assert.deepEqual(ids(onPage), [made.four, made.one]);
        assert.equal(onPage.body.count, 2);
        assert.deepEqual(ids(await world.members.read.api.get(`${base}?targetPage=unknown`)), []);
        assert.deepEqual(ids(await world.members.read.api.get(`${base}?authors=${world.members.comment.id}`)), [made.three, made.one]);
        assert.deepEqual(ids(await world.members.read.api.get(`${base}?authors=${world.members.comment.id}&authors=${world.members.edit.id}&order=asc`)), [made.one, made.two, made.three]);
        const combined = await world.members.read.api.get(`${base}?authors=${world.members.comment.id}&status=open&targetPage=${pageA}`);
        assert.deepEqual(ids(combined), [made.one]);
        assert.equal(combined.body.count, 1);
      });

      it('pages through with limit and next, each comment once; a cursor belongs to its own filters', async () => {
        const seen: string[] = [];
        let next: string | undefined;
        do {
          const page = await world.members.read.api.get(`${base}?limit=1&order=asc${next ? `&page=${encodeURIComponent(next)}` : ''}`);
          assert.equal(page.status, 200, JSON.stringify(page.body));
          assert.equal(page.body.count, 4);
          seen.push(...ids(page));
          next = page.body.next?.page;
        } while (next);
        assert.deepEqual(seen, [made.one, made.two, made.three, made.four]);
        const first = await world.members.read.api.get(`${base}?limit=1`);
        assertError(await world.members.read.api.get(`${base}?limit=1&status=open&page=${encodeURIComponent(first.body.next.page)}`), 400, 'cursor');
        assertError(await world.members.read.api.get(`${base}?limit=1001`), 400, 'limit');
      });

      it('gives bodies in the format asked for', async () => {
        const listed = await world.members.read.api.get(`${base}?format=markdown&order=asc`);
        assert.deepEqual(listed.body.items.map((c: { body: unknown }) => c.body), [{ markdown: 'one' }, { markdown: 'two' }, { markdown: 'three' }, { markdown: 'four' }]);
        const documents = await world.members.read.api.get(base);
        assert.ok(documents.body.items.every((c: { body: { document?: unknown } }) => c.body.document));
      });
    });

    describe('DELETE', () => {
      it('deletes a comment with its replies and their reactions: 205, then 204; the counter counts only open ones', async () => {
        const created = await post(world.members.comment, text('Delete me'));
        const path = `${url}/${created.body.id}`;
        const reply = await post(world.members.edit, text('A reply'), `${path}/replies`);
        await world.members.edit.api.put(path, { addedReactions: ['👍'] });
        await world.members.comment.api.put(`${path}/replies/${reply.body.id}`, { addedReactions: ['🎉'] });
        const open = await counters();
        const deleted = await world.members.comment.api.delete(path);
        assert.equal(deleted.status, 205);
        assert.equal(deleted.body, undefined);
        assert.deepEqual(await counters(), { space: open.space - 1 });
        assert.equal((await world.members.comment.api.delete(path)).status, 204);
        assertError(await world.members.read.api.get(path), 404);
        const leftovers = await t.ctx.db.selectFrom('comment_reactions').select('subject_id').where('subject_id', 'in', [created.body.id, reply.body.id]).execute();
        assert.deepEqual(leftovers, []);
        const replies = await t.ctx.db.selectFrom('comment_replies').select('id').where('comment_id', '=', created.body.id).execute();
        assert.deepEqual(replies, []);

        const resolved = await post(world.members.comment, text('Resolved, then deleted'));
        await world.members.comment.api.put(`${url}/${resolved.body.id}`, { resolved: true });
        const before = await counters();
        assert.equal((await world.admin.api.delete(`${url}/${resolved.body.id}`)).status, 205);
        assert.deepEqual(await counters(), before, 'a resolved comment was not counted');
        assert.equal((await world.members.read.api.delete(`${url}/never-was`)).status, 204);
      });

      it('moves the counters once when the same comment is resolved, reopened or deleted by several requests at once', async () => {
        const { spaceId: sid } = await createSpaceWithPages(t.ctx, world.organizationId, []);
        const base = `/v1/spaces/${sid}/comments`;
        const posted = await Promise.all([1, 2, 3, 4].map((n) => world.members.comment.api.post(base, text(`Parallel ${n}`))));
        assert.ok(posted.every((r) => r.status === 200));
        assert.deepEqual(await commentCounters(t.ctx, sid), { space: 4 });
        const [a, b] = posted.map((r) => r.body.id);
        const resolving = await Promise.all([world.admin.api, world.members.edit.api, world.members.comment.api].map((api) => api.put(`${base}/${a}`, { resolved: true })));
        assert.ok(resolving.every((r) => r.status === 200), JSON.stringify(resolving.map((r) => r.body)));
        assert.deepEqual(await commentCounters(t.ctx, sid), { space: 3 });
        await Promise.all([world.admin.api, world.members.edit.api].map((api) => api.put(`${base}/${a}`, { resolved: false })));
        assert.deepEqual(await commentCounters(t.ctx, sid), { space: 4 });
        const deleting = await Promise.all([world.admin.api, world.members.comment.api, world.admin.api].map((api) => api.delete(`${base}/${b}`)));
        assert.deepEqual(deleting.map((r) => r.status).sort(), [204, 204, 205]);
        assert.deepEqual(await commentCounters(t.ctx, sid), { space: 3 });
      });

      it('keeps the stored counter equal to the open comments of the space', async () => {
        const open = await t.ctx.db
          .selectFrom('comments')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('space_id', '=', spaceId)
          .where('status', '=', 'open')
          .where('change_request_id', 'is', null)
          .executeTakeFirstOrThrow();
        assert.equal((await counters()).space, Number(open.n));
      });
    });
  });
}
