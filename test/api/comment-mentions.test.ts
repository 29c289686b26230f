import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runDueJobs } from '../../src/jobs/index.ts';
import { mentionedUserIds } from '../../src/modules/comments/mentions.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { startMailbox, type Mailbox } from '../helpers/mailbox.ts';
import { Receiver } from '../webhooks/receiver.ts';

/**
 * Mentions notify: a comment or reply that mentions people (`[Name](users/<id> "mention")`, GitBook's
 * form) delivers `comment.mentioned` to the organization's webhooks, naming those who may read the space
 * (not the author, not an outsider), and, where mail is configured, mails each of them a link to the
 * thread. Comments anchored to a block keep the block's id (`node`), in a change request too.
 */
const mention = (name: string, id: string) => `[${name}](users/${id} "mention")`;

describe('mentions in a body', () => {
  it('are read from GitBook\'s Markdown form, each person once, and not from ordinary links', () => {
    assert.deepEqual(mentionedUserIds(`Hi ${mention('Ann', 'u1')} and ${mention('Bob', 'u2')}, ${mention('Ann', 'u1')}; see [users](users/u3).`), ['u1', 'u2']);
    assert.deepEqual(mentionedUserIds('No one here.'), []);
  });
});

for (const dialect of dialects) {
  describe(`comment mentions notify [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let receiver: Receiver;
    let mailbox: Mailbox;
    let spaceId = '';
    let pageId = '';
    let cr = '';

    before(async () => {
      mailbox = await startMailbox();
      t = await createTestApp(dialect, { QUIRE_WEBHOOK_ALLOW_PRIVATE: '1', QUIRE_SMTP_URL: mailbox.url });
      world = await createWorld(t.ctx, t.app, t.clock);
      receiver = await Receiver.start();
      const hook = await world.admin.api.post(`/v1/orgs/${world.organizationId}/webhooks`, { url: receiver.url, events: ['comment.mentioned'] });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
      const made = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Setup', markdown: 'Install it.\n' }]);
      spaceId = made.spaceId;
      pageId = (await world.admin.api.get(`/v1/spaces/${spaceId}/content`)).body.pages[0].id;
      const created = await world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Setup guide' });
      cr = `/v1/spaces/${spaceId}/change-requests/${created.body.id}`;
    });
    after(async () => {
      await receiver.close();
      await mailbox.close();
      await t.close();
    });

    /** Runs the queue until nothing is due; answers the webhook deliveries and the mails made meanwhile. */
    async function during(act: () => Promise<void>) {
      const hooks = receiver.received.length;
      const mails = mailbox.mails.length;
      await act();
      for (let round = 0; round < 20; round++) {
        t.clock.advance(60_000);
        if ((await runDueJobs(t.ctx, { workerId: 'mentions-test' })).claimed === 0) break;
      }
      return {
        events: receiver.received.slice(hooks).map((got) => JSON.parse(got.body) as { event: string; data: Record<string, any> }),
        mails: mailbox.mails.slice(mails),
      };
    }

    it('a comment on a block of a change request page mentioning a reviewer: webhook and mail; the block is kept', async () => {
      const reviewer = world.members.review;
      let commentId = '';
      const { events, mails } = await during(async () => {
        const posted = await world.members.comment.api.post(`${cr}/comments?format=markdown`, { body: { markdown: `${mention('Rita', reviewer.id)} can you check this step?` }, page: pageId, node: 'block-1' });
        assert.equal(posted.status, 200, JSON.stringify(posted.body));
        commentId = posted.body.id;
        assert.deepEqual(posted.body.target?.node ?? posted.body.node, { id: 'block-1' });
      });
      assert.equal(events.length, 1, JSON.stringify(events));
      assert.equal(events[0].event, 'comment.mentioned');
      assert.deepEqual(events[0].data.mentionedUserIds, [reviewer.id]);
      assert.equal(events[0].data.commentId, commentId);
      assert.equal(events[0].data.replyId, null);
      assert.equal(events[0].data.actorId, world.members.comment.id);
      assert.ok(!JSON.stringify(events[0]).includes('@'), 'no address and no words in the webhook');
      assert.equal(mails.length, 1);
      assert.match(mails[0], new RegExp(`To: ${reviewer.email}`));
      assert.match(mails[0], /mentioned you in change request #1 "Setup guide"/);
      assert.match(mails[0], /> @Rita can you check this step\?/);
      assert.ok(mails[0].includes(`/cr/${cr.split('/').pop()}/p/${pageId}`), 'the mail links to the page in the change request');
      const listed = await world.members.read.api.get(`${cr}/comments?targetPage=${pageId}`);
      assert.equal(listed.body.items[0].id, commentId);
    });

    it('a reply mentioning people tells those who may read the space, never the author, a guest without access or an outsider', async () => {
      const thread = await world.members.edit.api.post(`/v1/spaces/${spaceId}/comments`, { body: { markdown: 'A thread.' } });
      const names = [world.members.read, world.members.edit, world.guest, world.outsider].map((user, n) => mention(`P${n}`, user.id)).join(' ');
      const { events, mails } = await during(async () => {
        const reply = await world.members.edit.api.post(`/v1/spaces/${spaceId}/comments/${thread.body.id}/replies`, { body: { markdown: `Thanks ${names}` } });
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
      });
      assert.equal(events.length, 1, JSON.stringify(events));
      assert.deepEqual(events[0].data.mentionedUserIds, [world.members.read.id]);
      assert.equal(events[0].data.changeRequestId, null);
      assert.ok(events[0].data.replyId);
      assert.equal(mails.length, 1);
      assert.match(mails[0], new RegExp(`To: ${world.members.read.email}`));
    });

    it('a comment with no mention tells no one', async () => {
      const { events, mails } = await during(async () => {
        await world.members.comment.api.post(`/v1/spaces/${spaceId}/comments`, { body: { markdown: 'Just a note.' } });
      });
      assert.deepEqual([events.length, mails.length], [0, 0]);
    });
  });
}
