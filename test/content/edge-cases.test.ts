import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BadRequest } from '../../src/errors.ts';
import { FrontmatterError, parseMarkdown, renderMarkdown, renderPage, type Document, type DocumentBlock } from '../../src/content/markdown/index.ts';
import { assertDocumentRoundTrip, assertValid, convert, textOf } from './convert.ts';

const text = (value: string, marks: Array<'bold' | 'italic' | 'code' | 'strikethrough' | 'keyboard' | 'superscript' | 'subscript'> = []) => ({
  object: 'text' as const,
  leaves: [{ object: 'leaf' as const, text: value, marks: marks.map((type) => ({ object: 'mark' as const, type })) }],
});
const paragraph = (value: string): DocumentBlock => ({ object: 'block', type: 'paragraph', data: {}, nodes: [text(value)] });
const doc = (...nodes: DocumentBlock[]): Document => ({ object: 'document', data: {}, nodes });

describe('empty and odd pages', () => {
  it('reads an empty page as a document without blocks, and writes it as nothing', () => {
    for (const source of ['', '\n\n', '   \n', '\uFEFF']) {
      const { page, markdown } = convert(source);
      assert.deepEqual(page, { document: { object: 'document', data: {}, nodes: [] }, frontmatter: {} });
      assert.equal(markdown, '');
    }
  });

  it('reads a page with only front matter', () => {
    const { page, markdown } = convert('---\ndescription: Nothing yet\n---\n');
    assert.deepEqual(page.document.nodes, []);
    assert.equal(markdown, '---\ndescription: Nothing yet\n---\n');
  });

  it('refuses front matter that is not a YAML mapping, with a 400', () => {
    for (const source of ['---\n: : bad\n  - yaml\n---\n', '---\n- a list\n---\n']) {
      assert.throws(() => parseMarkdown(source), (error: unknown) => error instanceof FrontmatterError && error instanceof BadRequest && error.status === 400);
    }
  });

  it('refuses known front matter keys of the wrong type', () => {
    for (const source of ['---\ndescription: 12\n---\n', '---\nhidden: yes please\n---\n', '---\nicon: [a]\n---\n']) {
      assert.throws(() => parseMarkdown(source), FrontmatterError);
    }
  });

  it('writes a whole page with renderPage', () => {
    const page = parseMarkdown('---\nicon: book\n---\n\nText');
    assert.equal(renderPage(page), '---\nicon: book\n---\n\nText\n');
  });

  it('reads Windows and old Mac line endings like Unix ones', () => {
    const source = '---\ntitle: x\n---\n# A\n\n{% hint style="info" %}\nText\nmore\n{% endhint %}\n\n```js\na;\nb;\n```\n';
    const unix = parseMarkdown(source);
    assert.deepEqual(parseMarkdown(source.replace(/\n/g, '\r\n')), unix);
    assert.deepEqual(parseMarkdown(source.replace(/\n/g, '\r')), unix);
    convert(source.replace(/\n/g, '\r\n'));
  });
});

describe('unknown and broken tags', () => {
  it('reads an include as reusable content, and shows nothing of tags of other tools', () => {
    const { nodes, markdown } = convert('{% include "footer.md" %}\n\nBefore {% raw %}inline{% endraw %} after.\n\n{% swagger method="get" path="/x" %}\n{% endswagger %}');
    assert.deepEqual(nodes.map((node) => node.type), ['reusable-content', 'paragraph']);
    assert.deepEqual(nodes[0].type === 'reusable-content' && nodes[0].data.ref, { kind: 'reusable-content', reusableContent: 'footer' });
    // A tag inside a line of text is that text; tags on lines of their own are never shown as text.
    assert.equal(textOf(nodes[1]), 'Before {% raw %}inline{% endraw %} after.');
    assert.equal(markdown, '{% include ".gitbook/includes/footer.md" %}\n\nBefore {% raw %}inline{% endraw %} after.\n');
  });

  it('reads what a stray closing tag, an unclosed tag or a bad attribute holds, never the tags as text', () => {
    const { nodes, markdown } = convert('{% endhint %}\n\n{% tabs %}\n\nnever closed\n\n{% hint style="purple" %}\nx\n{% endhint %}');
    assert.deepEqual(nodes.map(textOf), ['never closed', 'x']);
    assert.equal(markdown, 'never closed\n\nx\n');
  });

  it('reads the caption of a file whose source does not resolve as text', () => {
    const { nodes } = convert('{% file src="docs/missing.pdf" %}\nCaption\n{% endfile %}');
    assert.deepEqual(nodes.map(textOf), ['Caption']);
  });

  it('escapes document text that would read as a tag or as Markdown', () => {
    const written = assertDocumentRoundTrip(doc(paragraph('{% hint style="info" %}'), paragraph('# not a heading'), paragraph('* not a list'), paragraph('<details>'), paragraph('$$x$$ and 1. and [a](b) and ``tick``')));
    assert.match(written, /^\\\{% hint/);
  });

  it('reads tags with or without blank lines around them alike', () => {
    const tight = parseMarkdown('{% hint style="info" %}\nText\n{% endhint %}\n{% tabs %}\n{% tab title="A" %}\nIn A\n{% endtab %}\n{% endtabs %}');
    const loose = parseMarkdown('{% hint style="info" %}\n\nText\n\n{% endhint %}\n\n{% tabs %}\n\n{% tab title="A" %}\n\nIn A\n\n{% endtab %}\n\n{% endtabs %}');
    assert.deepEqual(tight, loose);
  });

  it('does not let a list item swallow the closing tag that follows it', () => {
    const { nodes } = convert('{% hint style="info" %}\n* one\n* two\n{% endhint %}\nAfter');
    assert.deepEqual(nodes.map((node) => node.type), ['hint', 'paragraph']);
  });

  it('ends an HTML block at a tag line written right under it', () => {
    const { nodes } = convert('{% tabs %}\n{% tab title="A" %}\n<figure><img src="a.png" alt=""><figcaption><p>Cap</p></figcaption></figure>\n{% endtab %}\n{% tab title="B" %}\n<img src="b.png">\n{% endtab %}\n{% endtabs %}');
    assert.equal(nodes.length, 1);
    assert.deepEqual(nodes[0].type === 'tabs' && nodes[0].nodes.map((tab) => tab.nodes.map((node) => node.type)), [['images'], ['paragraph']]);
  });

  it('accepts tabs whose items are not closed', () => {
    const { nodes } = convert('{% tabs %}\n{% tab title="A" %}\na\n{% tab title="B" %}\nb\n{% endtabs %}');
    assert.equal(nodes.length, 1);
    assert.deepEqual(nodes[0].type === 'tabs' && nodes[0].nodes.map((tab) => [tab.data.title, textOf(tab.nodes[0])]), [['A', 'a'], ['B', 'b']]);
  });
});

describe('nesting', () => {
  it('reads nested lists inside a hint inside a tab', () => {
    const { nodes } = convert('{% tabs %}\n{% tab title="Linux" %}\n{% hint style="info" %}\n1. One\n   * a\n     * deep\n2. Two\n{% endhint %}\n{% endtab %}\n{% endtabs %}');
    const tabs = nodes[0];
    assert.equal(tabs.type, 'tabs');
    const hint = tabs.type === 'tabs' ? tabs.nodes[0].nodes[0] : undefined;
    assert.equal(hint?.type, 'hint');
    const list = hint?.type === 'hint' ? hint.nodes[0] : undefined;
    assert.equal(list?.type, 'list-ordered');
    const inner = list?.type === 'list-ordered' ? list.nodes[0].nodes[1] : undefined;
    assert.equal(inner?.type === 'list-unordered' && inner.nodes[0].nodes[1].type, 'list-unordered');
  });

  it('reads a hint and titled code inside a list item', () => {
    const { nodes, markdown } = convert('* Step\n\n  {% hint style="warning" %}\n  Careful\n  {% endhint %}\n\n  {% code title="x.sh" %}\n  ```sh\n  run\n  ```\n  {% endcode %}\n* Next');
    assert.deepEqual(nodes[0].type === 'list-unordered' && nodes[0].nodes[0].nodes.map((node) => node.type), ['paragraph', 'hint', 'code']);
    // An item of several blocks is written as GitBook writes it: `*   ` and the blocks indented by four.
    assert.match(markdown, /^\* {3}Step\n\n {4}\{% hint style="warning" %\}\n {4}Careful/);
  });

  it('keeps a code block in a hint and a table in a tab, as GitBook writes them', () => {
    const { nodes } = convert('{% hint style="info" %}\nBefore\n\n```sh\nls\n```\n\nAfter\n{% endhint %}');
    assert.deepEqual(nodes.map((node) => node.type), ['hint']);
    assert.deepEqual(nodes[0].type === 'hint' && nodes[0].nodes.map((node) => node.type), ['paragraph', 'code', 'paragraph']);
    const tabbed = convert('{% tabs %}\n{% tab title="A" %}\nIntro\n\n| a |\n| - |\n| 1 |\n\nOutro\n{% endtab %}\n{% endtabs %}');
    assert.deepEqual(tabbed.nodes.map((node) => node.type), ['tabs']);
  });

  it('moves tabs out of a hint, keeping the order', () => {
    const hinted = convert('{% hint style="info" %}\n{% tabs %}\n{% tab title="A" %}\nx\n{% endtab %}\n{% endtabs %}\n{% endhint %}');
    assert.deepEqual(hinted.nodes.map((node) => node.type), ['hint', 'tabs']);
  });

  it('keeps images and embeds in list items, and splits a list around a stepper', () => {
    const { nodes } = convert('1. ![shot](a.png)\n2. Watch:\n\n   {% embed url="https://v.example" %}\n3. Done');
    assert.deepEqual(nodes.map((node) => node.type), ['list-ordered']);
    assert.deepEqual(nodes[0].type === 'list-ordered' && nodes[0].nodes.map((item) => item.nodes.map((node) => node.type)), [['images'], ['paragraph', 'embed'], ['paragraph']]);
    const split = convert('1. One\n\n   {% stepper %}\n   {% step %}\n   x\n   {% endstep %}\n   {% endstepper %}\n2. Two');
    assert.deepEqual(split.nodes.map((node) => node.type), ['list-ordered', 'stepper', 'list-ordered']);
    assert.deepEqual(split.nodes[2].type === 'list-ordered' && split.nodes[2].data, { start: 2 });
  });
});

describe('documents written elsewhere', () => {
  it('writes OpenAPI blocks and emoji as GitBook does, and reads them back', () => {
    const document: Document = doc(
      { object: 'block', type: 'swagger', data: { ref: { kind: 'url', url: 'https://api.example/openapi.json' }, method: 'get', path: '/pets' }, isVoid: true },
      { object: 'block', type: 'paragraph', data: {}, nodes: [text('Hi '), { object: 'inline', type: 'emoji', data: { code: '1f600' }, isVoid: true }, text(' there')] },
    );
    const written = assertDocumentRoundTrip(document);
    assert.match(written, /^\{% openapi src="https:\/\/api.example\/openapi.json" path="\/pets" method="get" %\}\n\[https:\/\/api.example\/openapi.json\]/);
    assert.match(written, /<span data-gb-custom-inline data-tag="emoji" data-code="1f600">/);
  });

  it('takes from comments only the parts of containers found outside them, and shows no other comment', () => {
    const forged = '<!-- quire:block {"object":"block","type":"paragraph","nodes":"not a list"} -->';
    assert.deepEqual(convert(forged).nodes, []);
  });

  it('nests marks that overlap several leaves, links and inline images', () => {
    assertDocumentRoundTrip(
      doc({
        object: 'block',
        type: 'paragraph',
        data: {},
        nodes: [
          { object: 'text', leaves: [{ object: 'leaf', text: 'a ', marks: [] }, { object: 'leaf', text: 'bold', marks: [{ object: 'mark', type: 'bold' }] }, { object: 'leaf', text: ' both', marks: [{ object: 'mark', type: 'bold' }, { object: 'mark', type: 'italic' }] }, { object: 'leaf', text: ' key', marks: [{ object: 'mark', type: 'italic' }, { object: 'mark', type: 'keyboard' }] }, { object: 'leaf', text: 'x|y', marks: [{ object: 'mark', type: 'strikethrough' }, { object: 'mark', type: 'code' }] }] },
          { object: 'inline', type: 'link', data: { ref: { kind: 'url', url: 'https://a.example/(x)' } }, nodes: [text('link', ['bold']), { object: 'inline', type: 'inline-image', data: { ref: { kind: 'file', file: 'img1' } }, isVoid: true }] },
          { object: 'text', leaves: [{ object: 'leaf', text: ' and ', marks: [] }, { object: 'leaf', text: 'red', marks: [{ object: 'mark', type: 'color', data: { text: 'red', background: 'default' } }] }] },
          { object: 'inline', type: 'inline-math', data: { formula: '\\sqrt{2}' }, isVoid: true },
        ],
      }),
    );
  });

  it('writes documents whose text holds line breaks, stars and pipes', () => {
    assertDocumentRoundTrip(doc(paragraph('line\nnext *not em* _nor_ | pipe \\ slash'), { object: 'block', type: 'heading-2', data: { id: 'x.y' }, nodes: [text('Title')] }));
  });

  it('validates what it reads even from unusual Markdown', () => {
    const { page } = convert('Term\n: not a definition list\n\n<!-- a comment -->\n\nfootnote[^n]\n\n[^n]: The note.\n\n<script>alert(1)</script>');
    assertValid(page.document);
    // The footnote is an annotation of the word before it; active content never enters a page.
    assert.deepEqual(page.document.nodes.map((node) => node.type), ['paragraph', 'paragraph']);
    assert.ok(!renderMarkdown(page.document).includes('alert(1)'));
  });
});
