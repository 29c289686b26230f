import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../web/src/api/client.ts';
import type { PageWrite } from '../../web/src/api/operations.ts';
import { PageSaver, type SaveStatus } from '../../web/src/pages/page-saver.ts';

/**
 * The editor's saver: one write at a time, each with the revision the last one answered; failures that may
 * pass are retried and shown, a 409 waits for the person (load the latest, or save over it without a base).
 */
function harness(answers: Array<{ revision: string } | ApiError>) {
  const sent: PageWrite[] = [];
  const statuses: SaveStatus['state'][] = [];
  let document = { object: 'document' as const, data: {}, nodes: [] };
  const saver = new PageSaver(
    'r0',
    async (body) => {
      sent.push(body);
      const answer = answers.shift();
      if (!answer) throw new Error('no answer left');
      if (answer instanceof ApiError) throw answer;
      return answer;
    },
    () => document,
    (status) => statuses.push(status.state),
    () => {},
    0,
    [1, 1],
  );
  const settled = async () => {
    for (let i = 0; i < 200 && !['saved', 'conflict', 'failed'].includes(saver.status.state); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  return { saver, sent, statuses, settled, edit: () => { document = { ...document }; saver.documentChanged(); } };
}

describe('the page saver', () => {
  it('sends each save with the revision the previous one answered', async () => {
    const h = harness([{ revision: 'r1' }, { revision: 'r2' }]);
    h.edit();
    await h.settled();
    h.saver.change({ title: 'New title' });
    await h.settled();
    assert.deepEqual(h.sent.map((body) => [body.baseRevision, Boolean(body.document), body.title]), [['r0', true, undefined], ['r1', false, 'New title']]);
    assert.equal(h.saver.status.state, 'saved');
    assert.equal(h.saver.hasUnsavedWork, false);
  });

  it('retries a save that failed for a reason that may pass, and says so meanwhile', async () => {
    const h = harness([new ApiError(0, 'Quire could not be reached.'), new ApiError(503, 'Try again.'), { revision: 'r1' }]);
    h.edit();
    await h.settled();
    assert.equal(h.sent.length, 3);
    assert.ok(h.sent.every((body) => body.baseRevision === 'r0' && body.document));
    assert.ok(h.statuses.includes('retrying'));
    assert.equal(h.saver.status.state, 'saved');
  });

  it('stops at a 409 and, when the person chooses, saves over it without a base', async () => {
    const h = harness([new ApiError(409, 'The page changed since revision r0.'), { revision: 'r5' }]);
    h.edit();
    await h.settled();
    assert.deepEqual(h.saver.status, { state: 'conflict', message: 'The page changed since revision r0.' });
    assert.equal(h.saver.hasUnsavedWork, true);
    // Typing on does not send anything over the conflict.
    h.edit();
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(h.sent.length, 1);
    h.saver.overwrite();
    await h.settled();
    assert.equal(h.sent.length, 2);
    assert.equal(h.sent[1].baseRevision, undefined);
    assert.ok(h.sent[1].document);
    assert.equal(h.saver.status.state, 'saved');
    assert.equal(h.saver.revision, 'r5');
  });

  it('shows a refusal that would only repeat (400, 413) and keeps the work for a retry', async () => {
    const h = harness([new ApiError(413, 'The page is over the limit of 500,000 characters (maxPageLength).'), { revision: 'r1' }]);
    h.edit();
    await h.settled();
    assert.deepEqual(h.saver.status, { state: 'failed', message: 'The page is over the limit of 500,000 characters (maxPageLength).' });
    h.saver.saveNow();
    await h.settled();
    assert.equal(h.sent.length, 2);
    assert.ok(h.sent[1].document);
  });
});
