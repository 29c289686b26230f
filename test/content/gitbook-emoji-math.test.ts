import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMarkdown, renderMarkdown, writePage, type Document } from '../../src/content/markdown/index.ts';

/**
 * Two blocks GitBook writes that Quire kept as text: emoji shortcodes (`:grinning:`, GitBook's emoji
 * inline in Markdown text) and a paragraph that is only `$$…$$` (GitBook's block formula). Both read as
 * what they are in the document, and an unchanged document writes the page back byte for byte.
 */
const nodesOf = (markdown: string) => parseMarkdown(markdown).document.nodes;
const inlines = (document: Document) => JSON.stringify(document.nodes);

describe('GitBook emoji shortcodes and block formulas', () => {
  it('reads :grinning: and :+1: as emoji inlines, and leaves other colons as text', () => {
    const [paragraph] = nodesOf('Hello :grinning: and :+1:, at 12:30:45 see :not_an_emoji: or `:grinning:`.\n');
    assert.equal(paragraph.type, 'paragraph');
    const emoji = JSON.stringify(paragraph).match(/"type":"emoji","data":\{"code":"[0-9a-f-]+"\}/g);
    assert.deepEqual(emoji, ['"type":"emoji","data":{"code":"1f600"}', '"type":"emoji","data":{"code":"1f44d"}']);
    assert.ok(JSON.stringify(paragraph).includes(':not_an_emoji:'));
    assert.ok(JSON.stringify(paragraph).includes('12:30:45'));
    assert.ok(JSON.stringify(paragraph).includes('"text":":grinning:"'), 'inline code keeps the shortcode as text');
  });

  it('reads shortcodes in headings and lists, as GitBook writes them', () => {
    const [heading, list] = nodesOf('### :rocket: More to come\n\n* :white_check_mark: done\n');
    assert.match(heading.type, /^heading-/);
    assert.match(inlines({ nodes: [heading] } as Document), /"code":"1f680"/);
    assert.match(inlines({ nodes: [list] } as Document), /"code":"2705"/);
  });

  it('reads a paragraph that is only $$…$$ as a block formula, and $$…$$ among text as inline', () => {
    const [block, text] = nodesOf('$$f(x) = x * e^{2 pi i \\xi x}$$\n\nThe area is $$\\pi r^2$$ here.\n');
    assert.deepEqual(block, { object: 'block', type: 'math', data: { formula: 'f(x) = x * e^{2 pi i \\xi x}' }, isVoid: true });
    assert.equal(text.type, 'paragraph');
    assert.match(JSON.stringify(text), /"type":"inline-math"/);
  });

  it('writes both back unchanged', () => {
    const source = '# Title\n\nHello :grinning: world.\n\n$$E = mc^2$$\n\nThe area is $$\\pi r^2$$ here.\n';
    const { document, frontmatter } = parseMarkdown(source);
    assert.equal(writePage(document, { previous: source, frontmatter }), source);
    // A new block formula is written as GitBook writes one, fenced by `$$` lines.
    assert.equal(renderMarkdown({ nodes: nodesOf('$$E = mc^2$$\n') } as Document), '$$\nE = mc^2\n$$\n');
  });
});
