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
