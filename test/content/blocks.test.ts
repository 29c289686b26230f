import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DocumentBlock } from '../../src/content/markdown/index.ts';
import { assetHooks, convert, textOf, type Hooks } from './convert.ts';

/** The only block of a page. */
function only<T extends DocumentBlock['type']>(markdown: string, type: T, hooks: Hooks = {}): DocumentBlock & { type: T } & { markdown: string } {
  const { nodes, markdown: written } = convert(markdown, hooks);
  assert.equal(nodes.length, 1, `one block in ${JSON.stringify(nodes)}`);
  const [block] = nodes;
  assert.equal(block.type, type);
  return { ...(block as DocumentBlock & { type: T }), markdown: written };
}

describe('paragraphs and headings', () => {
  it('reads a paragraph as one text node', () => {
    const block = only('Hello, world.', 'paragraph');
    assert.deepEqual(block.nodes, [{ object: 'text', leaves: [{ object: 'leaf', text: 'Hello, world.', marks: [] }] }]);
    assert.equal(block.markdown, 'Hello, world.\n');
  });

  it('joins soft-wrapped lines with a space and keeps hard breaks as newlines', () => {
    const block = only('one\ntwo  \nthree\\\nfour', 'paragraph');
    assert.equal(textOf(block), 'one two\nthree\nfour');
    assert.equal(block.markdown, 'one two\\\nthree\\\nfour\n');
  });

  // GitBook's levels: a page's title is its `#`, so a body's `##`–`####` are headings 1–3.
  it('reads headings as GitBook writes them: ## to #### are levels 1 to 3, deeper ones level 3', () => {
    const { nodes, markdown } = convert('## One\n\n### Two\n\n#### Three\n\n##### Five\n\n###### Six');
    assert.deepEqual(nodes.map((node) => node.type), ['heading-1', 'heading-2', 'heading-3', 'heading-3', 'heading-3']);
    assert.deepEqual(nodes.map(textOf), ['One', 'Two', 'Three', 'Five', 'Six']);
    assert.equal(markdown, '## One\n\n### Two\n\n#### Three\n\n#### Five\n\n#### Six\n');
  });

  it('reads a # heading in a body as a heading 1', () => {
    assert.equal(only('# Title', 'heading-1').markdown, '## Title\n');
  });

  it('reads a setext heading like an ATX one', () => {
    assert.equal(only('Title\n=====', 'heading-1').markdown, '## Title\n');
  });

  it('keeps a heading anchor as its id', () => {
    const block = only('## Install <a href="#setup" id="setup"></a>', 'heading-1');
    assert.deepEqual(block.data, { id: 'setup' });
    assert.equal(textOf(block), 'Install');
    assert.equal(block.markdown, '## Install <a href="#setup" id="setup"></a>\n');
  });

  it('reads aligned paragraphs and headings', () => {
    const { nodes, markdown } = convert('<p align="center">Centered <em>text</em></p>\n\n<h3 align="right">Right</h3>');
    assert.deepEqual(nodes[0].type === 'paragraph' && nodes[0].data, { align: 'center' });
    assert.deepEqual(nodes[1].type === 'heading-2' && nodes[1].data, { align: 'end' });
    assert.equal(markdown, '<p align="center">Centered _text_</p>\n\n<h3 align="right">Right</h3>\n');
  });
});

describe('marks and links', () => {
  it('reads bold, italic, code and strikethrough, nested', () => {
    const block = only('a **b *c*** `d` ~~e~~ ***f***', 'paragraph');
    const leaves = block.nodes[0].object === 'text' ? block.nodes[0].leaves : [];
    assert.deepEqual(
      leaves.map((leaf) => [leaf.text, leaf.marks.map((mark) => mark.type).join('+')]),
      [['a ', ''], ['b ', 'bold'], ['c', 'bold+italic'], [' ', ''], ['d', 'code'], [' ', ''], ['e', 'strikethrough'], [' ', ''], ['f', 'bold+italic']],
    );
  });

  it('reads keyboard, superscript, subscript and colour marks from inline HTML', () => {
    const block = only('<kbd>Ctrl</kbd> x<sup>2</sup> H<sub>2</sub>O <mark style="color:red;background-color:$info;">hot</mark>', 'paragraph');
    const leaves = block.nodes[0].object === 'text' ? block.nodes[0].leaves : [];
    assert.deepEqual(leaves.filter((leaf) => leaf.marks.length > 0).map((leaf) => [leaf.text, leaf.marks[0]]), [
      ['Ctrl', { object: 'mark', type: 'keyboard' }],
      ['2', { object: 'mark', type: 'superscript' }],
      ['2', { object: 'mark', type: 'subscript' }],
      ['hot', { object: 'mark', type: 'color', data: { text: 'red', background: '$info' } }],
    ]);
  });

  it('reads links to URLs, anchors and files', () => {
    const block = only('[site](https://example.com) [top](#top) [manual](files/f_1) [**bold** link](https://b.example)', 'paragraph');
    const refs = block.nodes.flatMap((node) => (node.object === 'inline' && node.type === 'link' ? [node.data.ref] : []));
    assert.deepEqual(refs, [
      { kind: 'url', url: 'https://example.com' },
      { kind: 'anchor', anchor: 'top' },
      { kind: 'file', file: 'f_1' },
      { kind: 'url', url: 'https://b.example' },
    ]);
    assert.equal(block.markdown, '[site](https://example.com) [top](#top) [manual](files/f_1) [**bold** link](https://b.example)\n');
  });

  it('resolves links through the hooks', () => {
    const hooks = {
      parse: { resolveLink: (url: string) => (url.endsWith('.md') ? { kind: 'page' as const, page: `page-${url.slice(0, -3)}` } : undefined) },
      render: { refUrl: (ref: { kind: string; page?: string }) => (ref.kind === 'page' ? `${ref.page?.slice(5)}.md` : undefined) },
    };
    const block = only('See [the guide](guide.md).', 'paragraph', hooks);
    assert.deepEqual(block.nodes[1].object === 'inline' && block.nodes[1].type === 'link' && block.nodes[1].data.ref, { kind: 'page', page: 'page-guide' });
    assert.equal(block.markdown, 'See [the guide](guide.md).\n');
  });

  it('turns reference-style links into links and keeps unused definitions as text', () => {
    const { nodes, markdown } = convert('[Quire][q] rocks.\n\n[q]: https://quire.example\n[unused]: https://nowhere.example');
    assert.equal(nodes.length, 2);
    // GitBook writes every link as [text](url), never as an autolink.
    assert.equal(markdown, '[Quire](https://quire.example) rocks.\n\n\\[unused]: [https://nowhere.example](https://nowhere.example)\n');
  });
});

describe('lists and quotes', () => {
  it('reads nested unordered and ordered lists', () => {
    const block = only('* a\n  1. one\n  2. two\n* b', 'list-unordered');
    assert.equal(block.nodes.length, 2);
    assert.deepEqual(block.nodes[0].nodes.map((node) => node.type), ['paragraph', 'list-ordered']);
    assert.equal(block.markdown, '* a\n  1. one\n  2. two\n* b\n');
  });

  it('keeps the start of an ordered list', () => {
    const block = only('3. three\n4. four', 'list-ordered');
    assert.deepEqual(block.data, { start: 3 });
    assert.equal(block.markdown, '3. three\n4. four\n');
  });

  it('reads task lists with their checked state, nested', () => {
    const block = only('- [x] done\n- [ ] todo\n  - [x] sub', 'list-tasks');
    assert.deepEqual(block.nodes.map((item) => item.data), [{ checked: true }, { checked: false }]);
    assert.equal(block.nodes[1].nodes[1].type, 'list-tasks');
    assert.equal(block.markdown, '* [x] done\n* [ ] todo\n  * [x] sub\n');
  });

  it('reads nested blockquotes', () => {
    const block = only('> outer\n>\n> > inner', 'blockquote');
    assert.deepEqual(block.nodes.map((node) => node.type), ['paragraph', 'blockquote']);
  });

  it('keeps two adjacent lists apart', () => {
    const { nodes } = convert('* a\n\n<!-- -->\n\n* b');
    assert.deepEqual(nodes.map((node) => node.type), ['list-unordered', 'list-unordered']);
  });
});

describe('code', () => {
  it('reads a fenced block with its language, one code line per line', () => {
    const block = only('```ts\nconst a = 1;\n\nexport { a };\n```', 'code');
    assert.deepEqual(block.data, { syntax: 'ts' });
    assert.deepEqual(block.nodes.map((line) => textOf({ object: 'block', type: 'paragraph', nodes: line.nodes.flatMap((n) => (n.object === 'text' ? [n] : [])) })), ['const a = 1;', '', 'export { a };']);
  });

  it('reads the code tag: title, overflow, line numbers, full width', () => {
    const block = only('{% code title="app.js" overflow="wrap" lineNumbers="true" fullWidth="false" %}\n```js\nrun();\n```\n{% endcode %}', 'code');
    assert.deepEqual(block.data, { syntax: 'js', title: 'app.js', overflow: 'wrap', lineNumbers: true, fullWidth: false });
    // GitBook lays tags out tight around their content.
    assert.equal(block.markdown, '{% code title="app.js" overflow="wrap" lineNumbers="true" fullWidth="false" %}\n```js\nrun();\n```\n{% endcode %}\n');
  });

  it('reads a title in the fence info and writes it as a code tag', () => {
    const block = only('```js title="app.js"\nrun();\n```', 'code');
    assert.deepEqual(block.data, { syntax: 'js', title: 'app.js' });
  });

  it('keeps tags and fences inside code as code', () => {
    const block = only('````md\n{% hint style="info" %}\n```js\nx\n```\n{% endhint %}\n````', 'code');
    assert.equal(block.nodes.length, 5);
  });

  it('reads indented code as a code block without a language', () => {
    assert.deepEqual(only('    indented();', 'code').data, {});
  });
});

describe('tables', () => {
  it('maps a GFM table to columns, records and cell fragments', () => {
    const block = only('| Name | Size |\n| :-- | --: |\n| **a** | 1 |\n| b | |', 'table');
    assert.deepEqual(block.data.view, { type: 'grid', columns: ['c0', 'c1'], hideHeader: false });
    assert.deepEqual(block.data.definition, {
      c0: { id: 'c0', title: 'Name', type: 'text', textAlignment: 'left' },
      c1: { id: 'c1', title: 'Size', type: 'text', textAlignment: 'right' },
    });
    assert.deepEqual(block.data.records, {
      r0: { orderIndex: 'a0000', values: { c0: 'r0c0', c1: 'r0c1' } },
      r1: { orderIndex: 'a0001', values: { c0: 'r1c0' } },
    });
    assert.deepEqual(block.fragments.map((fragment) => fragment.fragment), ['r0c0', 'r0c1', 'r1c0']);
    assert.equal(block.isVoid, true);
    // GitBook pads a table's columns to line up.
    assert.equal(block.markdown, '| Name  | Size |\n| ----- | ---: |\n| **a** |    1 |\n| b     |      |\n');
  });

  it('hides the header when every header cell is empty', () => {
    const block = only('| | |\n| - | - |\n| a | b |', 'table');
    assert.equal(block.data.view.type === 'grid' && block.data.view.hideHeader, true);
  });

  it('keeps rows in order past ten rows, and line breaks in cells', () => {
    const rows = Array.from({ length: 12 }, (_, index) => `| row ${index}<br>next |`).join('\n');
    const { markdown } = convert(`| n |\n| - |\n${rows}`);
    assert.match(markdown, /row 0<br>next[\s\S]*row 11<br>next/);
  });
});

describe('images and files', () => {
  it('reads a Markdown image alone in a paragraph as an images block', () => {
    const block = only('![A cat](https://cdn.example/cat.png)', 'images');
    assert.deepEqual(block.nodes, [{ object: 'block', type: 'image', data: { ref: { kind: 'url', url: 'https://cdn.example/cat.png' }, alt: 'A cat' }, fragments: [], isVoid: true }]);
    // GitBook writes every image block as a figure.
    assert.equal(block.markdown, '<figure><img src="https://cdn.example/cat.png" alt="A cat"><figcaption></figcaption></figure>\n');
  });

  it('resolves space files through the hooks, and files/<id> without them', () => {
    const hooked = only('![](.assets/cat.png)', 'images', assetHooks);
    assert.deepEqual(hooked.nodes[0].data.ref, { kind: 'file', file: 'file-cat.png' });
    assert.equal(hooked.markdown, '<figure><img src=".assets/cat.png" alt=""><figcaption></figcaption></figure>\n');
    const plain = only('![](files/abc)', 'images');
    assert.deepEqual(plain.nodes[0].data.ref, { kind: 'file', file: 'abc' });
    const unresolved = only('![](.assets/cat.png)', 'images');
    assert.deepEqual(unresolved.nodes[0].data.ref, { kind: 'url', url: '.assets/cat.png' });
  });

  it('reads figures with captions, sizes, dark variants and alignment', () => {
    const source =
      '<div align="center" data-full-width="true">\n<figure><picture><source srcset="dark.png" media="(prefers-color-scheme: dark)"><img src="light.png" alt="Chart" width="50%" height="200"></picture><figcaption><p>Weekly <strong>readers</strong></p></figcaption></figure>\n<figure><img src="b.png" alt=""></figure>\n</div>';
    const block = only(source, 'images');
    assert.deepEqual(block.data, { align: 'center', fullWidth: true });
    assert.deepEqual(block.nodes[0].data, { ref: { kind: 'url', url: 'light.png' }, refDark: { kind: 'url', url: 'dark.png' }, width: { unit: '%', value: 50 }, height: 200, alt: 'Chart' });
    assert.equal(block.nodes[0].fragments[0].fragment, 'caption');
    assert.equal(textOf(block.nodes[0].fragments[0].nodes[0]), 'Weekly readers');
    assert.deepEqual(block.nodes[1].fragments, []);
  });

  it('reads an image among text as an inline image, and a lone <img> too', () => {
    const { nodes, markdown } = convert('Click ![gear](gear.svg) now.\n\n<img src="z.png" alt="z" data-size="line">');
    assert.equal(nodes[0].type === 'paragraph' && nodes[0].nodes[1].object === 'inline' && nodes[0].nodes[1].type, 'inline-image');
    assert.deepEqual(nodes[1].type === 'paragraph' && nodes[1].nodes, [{ object: 'inline', type: 'inline-image', data: { ref: { kind: 'url', url: 'z.png' }, caption: 'z', size: 'line' }, isVoid: true }]);
    assert.equal(markdown, 'Click ![gear](gear.svg) now.\n\n<img src="z.png" alt="z" data-size="line">\n');
  });

  it('reads file blocks with and without a caption', () => {
    const { nodes, markdown } = convert('{% file src=".assets/a.pdf" %}\nThe **manual**\n{% endfile %}\n\n{% file src="files/b" %}', assetHooks);
    assert.deepEqual(nodes.map((node) => node.type === 'file' && node.data.ref), [{ kind: 'file', file: 'file-a.pdf' }, { kind: 'file', file: 'b' }]);
    assert.equal(nodes[0].type === 'file' && nodes[0].fragments?.[0].fragment, 'caption');
    assert.equal(markdown, '{% file src=".assets/a.pdf" %}\nThe **manual**\n{% endfile %}\n\n{% file src="files/b" %}\n');
  });
});

describe('hints, tabs and expandables', () => {
  for (const style of ['info', 'warning', 'danger', 'success'] as const) {
    it(`reads a ${style} hint`, () => {
      const block = only(`{% hint style="${style}" %}\nMind the **gap**.\n{% endhint %}`, 'hint');
      assert.deepEqual(block.data, { style });
      assert.equal(block.markdown, `{% hint style="${style}" %}\nMind the **gap**.\n{% endhint %}\n`);
    });
  }

  it('reads tabs with titles', () => {
    const block = only('{% tabs %}\n{% tab title="One" %}\nFirst\n{% endtab %}\n{% tab title="Two &quot;2&quot;" %}\n```sh\nls\n```\n{% endtab %}\n{% endtabs %}', 'tabs');
    assert.deepEqual(block.nodes.map((tab) => tab.data.title), ['One', 'Two &quot;2&quot;']);
    assert.deepEqual(block.nodes[1].nodes.map((node) => node.type), ['code']);
  });

  it('escapes quotes in tab titles', () => {
    const block = only('{% tabs %}\n{% tab title="Say \\"hi\\"" %}\nx\n{% endtab %}\n{% endtabs %}', 'tabs');
    assert.equal(block.nodes[0].data.title, 'Say "hi"');
  });

  it('reads an expandable with its title and body fragments', () => {
    const block = only('<details>\n\n<summary>More <em>info</em></summary>\n\n* a\n* b\n\n</details>', 'expandable');
    assert.deepEqual(block.fragments.map((fragment) => [fragment.fragment, fragment.type, fragment.nodes.map((node) => node.type)]), [
      ['expandable-title', 'expandable-title', ['paragraph']],
      ['expandable-body', 'expandable-body', ['list-unordered']],
    ]);
    assert.equal(textOf(block.fragments[0].nodes[0]), 'More info');
    // GitBook writes an expandable's title as HTML.
    assert.equal(block.markdown, '<details>\n\n<summary>More <em>info</em></summary>\n\n* a\n* b\n\n</details>\n');
  });

  it('reads an expandable written without blank lines', () => {
    const block = only('<details>\n<summary>Title</summary>\nBody\n</details>', 'expandable');
    assert.equal(textOf(block.fragments[1].nodes[0]), 'Body');
  });
});

describe('embeds, content references, math and dividers', () => {
  it('reads embeds, with a full-width flag and a caption', () => {
    const { nodes, markdown } = convert('{% embed url="https://youtu.be/x" %}\n\n{% embed url="https://figma.com/f" fullWidth="true" %}\nDesign\n{% endembed %}');
    assert.deepEqual(nodes.map((node) => node.type === 'embed' && node.data), [{ url: 'https://youtu.be/x' }, { url: 'https://figma.com/f', fullWidth: true }]);
    assert.equal(markdown, '{% embed url="https://youtu.be/x" %}\n\n{% embed url="https://figma.com/f" fullWidth="true" %}\nDesign\n{% endembed %}\n');
  });

  it('reads a content reference, writing its title from the reference', () => {
    const hooks = {
      parse: { resolveLink: (url: string) => (url === 'intro.md' ? { kind: 'page' as const, page: 'p1' } : undefined) },
      render: { refUrl: () => 'intro.md', refTitle: () => 'Introduction' },
    };
    const block = only('{% content-ref url="intro.md" %}\n[Intro](intro.md)\n{% endcontent-ref %}', 'content-ref', hooks);
    assert.deepEqual(block.data, { ref: { kind: 'page', page: 'p1' } });
    assert.equal(block.markdown, '{% content-ref url="intro.md" %}\n[Introduction](intro.md)\n{% endcontent-ref %}\n');
  });

  it('reads block and inline math', () => {
    const { nodes, markdown } = convert('$$\nE = mc^2\n$$\n\nInline $$a^2$$ here, but $5 is money.');
    assert.deepEqual(nodes[0], { object: 'block', type: 'math', data: { formula: 'E = mc^2' }, isVoid: true });
    assert.deepEqual(nodes[1].type === 'paragraph' && nodes[1].nodes[1], { object: 'inline', type: 'inline-math', data: { formula: 'a^2' }, isVoid: true });
    assert.equal(markdown, '$$\nE = mc^2\n$$\n\nInline $$a^2$$ here, but $5 is money.\n');
  });

  it('reads any thematic break as a divider', () => {
    const { nodes, markdown } = convert('a\n\n---\n\nb\n\n___');
    assert.deepEqual(nodes.map((node) => node.type), ['paragraph', 'divider', 'paragraph', 'divider']);
    assert.equal(markdown, 'a\n\n***\n\nb\n\n***\n');
  });
});

describe('front matter', () => {
  it('reads the known keys and keeps the others', () => {
    const { page, markdown } = convert('---\ndescription: A page\nicon: book\nhidden: true\nlayout:\n  title:\n    visible: false\nowner: docs-team\n---\n\n# Page');
    assert.deepEqual(page.frontmatter, { description: 'A page', icon: 'book', hidden: true, layout: { title: { visible: false } }, owner: 'docs-team' });
    assert.equal(markdown, '---\ndescription: A page\nicon: book\nhidden: true\nlayout:\n  title:\n    visible: false\nowner: docs-team\n---\n\n## Page\n');
  });
});
