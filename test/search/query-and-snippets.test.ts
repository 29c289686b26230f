import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MATCH_END as E, MATCH_START as S, pageText, SECTION_SEPARATOR } from '../../src/search/page-text.ts';
import { isEmptyQuery, MAX_SEARCH_WORDS, parseSearchQuery } from '../../src/search/query.ts';
import { matchedSections, snippet, SNIPPET_LENGTH } from '../../src/search/snippets.ts';
import { ftsExpression } from '../../src/search/dialects/fts5-expression.ts';

describe('search queries', () => {
  it('reads words as prefixes, quoted text as phrases, and nothing else', () => {
    assert.deepEqual(parseSearchQuery('Instal guide'), { terms: [{ word: 'instal', prefix: true }, { word: 'guide', prefix: true }], phrases: [] });
    assert.deepEqual(parseSearchQuery('"exact phrase" v2'), { terms: [{ word: 'v2', prefix: true }], phrases: [['exact', 'phrase']] });
    assert.deepEqual(parseSearchQuery('"single" a'), { terms: [{ word: 'single', prefix: false }, { word: 'a', prefix: false }], phrases: [] }, 'a quoted word and a one-letter word match whole words only');
    assert.deepEqual(parseSearchQuery('"unclosed phrase here').phrases, [['unclosed', 'phrase', 'here']]);
    assert.deepEqual(parseSearchQuery('don\'t stop').terms.map((t) => t.word), ['don', 't', 'stop']);
    assert.deepEqual(parseSearchQuery('Café café').terms.map((t) => t.word), ['café']);
  });

  it('lets no engine syntax through', () => {
    const query = parseSearchQuery('title:x OR NEAR(a b) * ^c {body} : -d \'e\' & f | !g <-> h');
    assert.ok(query.terms.every((term) => /^[\p{L}\p{N}\p{M}]+$/u.test(term.word)));
    assert.equal(ftsExpression(query), '"title"* "x" "or"* "near"* "a" "b" "c" "body"* "d" "e" "f" "g" "h"');
  });

  it('finds nothing to look for in punctuation, and keeps at most 32 words', () => {
    assert.ok(isEmptyQuery(parseSearchQuery('!!! ... ""')));
    const many = parseSearchQuery(Array.from({ length: 50 }, (_, i) => `w${i}`).join(' '));
    assert.equal(many.terms.length, MAX_SEARCH_WORDS);
  });
});

describe('page text', () => {
  it('keeps headings and section texts aligned, without the reserved characters', () => {
    const text = pageText(`Before.\n\n## First ${SECTION_SEPARATOR}part\n\nOne ${S}two${E}.\n\n## Second\n\nThree.\n`);
    assert.deepEqual(text.sections, ['', 'first-part', 'second']);
    assert.deepEqual(text.headings.split(SECTION_SEPARATOR), ['', 'First  part', 'Second']);
    assert.deepEqual(text.body.split(SECTION_SEPARATOR), ['Before.', 'One  two .', 'Three.']);
  });

  it('reads a body whose front matter is not valid YAML, and an empty body', () => {
    assert.match(pageText('---\n: : bad\n---\n\nStill searchable.\n').body, /Still searchable/);
    assert.deepEqual(pageText('  \n'), { headings: '', body: '', sections: [] });
  });
});

describe('snippets', () => {
  const words = (from: number, count: number) => Array.from({ length: count }, (_, i) => `word${from + i}`).join(' ');

  it('shows the text around the first match, cut at word boundaries, the match whole', () => {
    const marked = `${words(0, 60)} ${S}needle${E} ${words(60, 60)}`;
    const part = snippet(marked);
    assert.match(part, /^… word\d+ /);
    assert.match(part, / word\d+ …$/);
    assert.ok(part.includes(' needle '));
    assert.ok(part.length <= SNIPPET_LENGTH + 4, `${part.length} characters`);
    assert.ok(part.indexOf('needle') < part.length / 2, 'more context after the match than before');
  });

  it('keeps a phrase whole, even longer than the snippet', () => {
    const phrase = `${S}exact${E} ${S}phrase${E}`;
    assert.equal(snippet(`Here is the ${phrase} in a short text.`), 'Here is the exact phrase in a short text.');
    const long = Array.from({ length: 80 }, (_, i) => `${S}w${i}${E}`).join(' ');
    const part = snippet(`${words(0, 30)} ${long} ${words(30, 30)}`);
    for (let i = 0; i < 80; i++) assert.ok(part.includes(` w${i} `) || part.includes(` w${i}`), `w${i} kept`);
  });

  it('cuts the same snippet from the part around the match as from the whole text (10,000 texts)', () => {
    // The snippet as it was cut from the whole text, before it was cut from the part around the first match.
    const marks = new RegExp(`[${S}${E}]`, 'g');
    const unmark = (text: string) => text.replace(marks, '');
    const whole = (marked: string, length: number): string => {
      const joined = marked.replace(new RegExp(`${E}([\\s\\p{P}]*)${S}`, 'gu'), '$1');
      const at = joined.indexOf(S);
      const close = joined.indexOf(E, at);
      const text = unmark(joined);
      const [matchStart, matchEnd] = at < 0 ? [0, 0] : [unmark(joined.slice(0, at)).length, unmark(joined.slice(0, at)).length + unmark(joined.slice(at, close < 0 ? joined.length : close)).length];
      const room = Math.max(0, length - (matchEnd - matchStart));
      let from = Math.max(0, matchStart - Math.floor(room / 3));
      let to = Math.min(text.length, matchEnd + (room - (matchStart - from)));
      from = Math.max(0, Math.min(from, to - length));
      if (from > 0 && !/\s/.test(text[from - 1])) {
        const space = text.slice(from, matchStart).search(/\s/);
        if (space >= 0) from += space + 1;
      }
      if (to < text.length && !/\s/.test(text[to])) {
        const space = text.slice(matchEnd, to).search(/\s\S*$/);
        if (space >= 0) to = matchEnd + space;
      }
      return `${from > 0 ? '… ' : ''}${text.slice(from, to).replace(/\s+/g, ' ').trim()}${to < text.length ? ' …' : ''}`;
    };
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pieces = ['a', 'word', 'x', ' ', '  ', '.', ', ', '-', 'é', '\n', 'longerword', '…', '"'];
    for (let n = 0; n < 10_000; n++) {
      let marked = '';
      const count = random(400);
      for (let i = 0; i < count; i++) {
        const piece = pieces[random(pieces.length)];
        // Some words marked, runs of marked words, marks side by side, a match never closed.
        const kind = random(n % 2 === 0 ? 12 : 3); // every other text densely marked
        marked += kind === 0 ? `${S}${piece}${E}` : kind === 1 && piece.trim() ? `${S}${piece}${E}${S}x${E}` : kind === 2 && i === count - 1 ? `${S}${piece}` : piece;
      }
      const length = [200, 20, 5, 1, 0][random(5)];
      assert.equal(snippet(marked, length), whole(marked, length), JSON.stringify({ marked, length }));
    }
  });

  it('starts at the beginning when only the heading matched, and picks the matching sections', () => {
    const sections = matchedSections({
      sections: JSON.stringify(['', 'setup', 'other', 'usage']),
      headings: ['', `${S}Setup${E}`, 'Other', 'Usage'].join(SECTION_SEPARATOR),
      body: ['Intro.', 'Plain text of setup.', 'Nothing here.', `Run it ${S}setup${E} again.`].join(SECTION_SEPARATOR),
    });
    assert.deepEqual(sections, [
      { id: 'setup', title: 'Setup', snippet: 'Plain text of setup.' },
      { id: 'usage', title: 'Usage', snippet: 'Run it setup again.' },
    ]);
  });
});
