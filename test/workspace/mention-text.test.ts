import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matching, mentionQuery, mentionsAsText, withMentions } from '../../web/src/comments/mentions.ts';
import { mentionedUserIds } from '../../src/modules/comments/mentions.ts';

/** The comment box's mentions: what is typed after `@`, who it offers, and the Markdown it sends (which the server reads back as the same people). */
describe('mentions in the comment box', () => {
  const people = [
    { id: 'u1', name: 'Ann Lee' },
    { id: 'u2', name: 'Bob' },
    { id: 'u3', name: 'Lee Marvin' },
  ];

  it('finds the @query before the caret, only at the start of a word', () => {
    assert.deepEqual(mentionQuery('Hi @An', 6), { start: 3, query: 'An' });
    assert.deepEqual(mentionQuery('@', 1), { start: 0, query: '' });
    assert.equal(mentionQuery('mail me at a@b', 14), null);
    assert.equal(mentionQuery('no mention', 10), null);
  });

  it('offers names that start with the query first, then names with a word that does', () => {
    assert.deepEqual(matching(people, 'lee').map((p) => p.id), ['u3', 'u1']);
    assert.deepEqual(matching(people, '').length, 3);
    assert.deepEqual(matching(people, 'zed'), []);
  });

  it('sends picked people as GitBook mentions, which the server reads as the same people, and shows them as @Name', () => {
    const markdown = withMentions('@Ann Lee and @Bob, not @Bobby or bob@example.com', [people[0], people[1]]);
    assert.equal(markdown, '[Ann Lee](users/u1 "mention") and [Bob](users/u2 "mention"), not @Bobby or bob@example.com');
    assert.deepEqual(mentionedUserIds(markdown), ['u1', 'u2']);
    assert.equal(mentionsAsText(markdown), '@Ann Lee and @Bob, not @Bobby or bob@example.com');
  });
});
