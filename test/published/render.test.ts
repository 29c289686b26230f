import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { extractSections, parseMarkdown, type ContentRef, type Document } from '../../src/content/markdown/index.ts';
import { escapeAttribute, escapeHtml, renderDocument, type RenderedDocument, type RenderLinks } from '../../src/published/render/index.ts';
import { splitLines } from '../../src/published/render/code.ts';
import { safeUrl } from '../../src/published/render/escape.ts';

/** `.assets/<name>` is the file `file-<name>`; `<name>.md` (optionally `#anchor`) is the page `page-<name>`. */
const parseOptions = {
  resolveFile: (src: string) => (src.startsWith('.assets/') ? `file-${src.slice('.assets/'.length)}` : undefined),
  resolveLink: (url: string): ContentRef | undefined => {
    const page = /^([a-z-]+)\.md(?:#(.+))?$/.exec(url);
    if (!page) return undefined;
    return page[2] ? { kind: 'anchor', page: `page-${page[1]}`, anchor: page[2] } : { kind: 'page', page: `page-${page[1]}` };
  },
};

/** Pages and files whose id contains "missing" are unknown to the site. */
const links: RenderLinks = {
  fileUrl: (id) => (id.includes('missing') ? null : `/~files/${id}`),
  pageUrl: (id, anchor) => (id.includes('missing') ? null : `/docs/${id}${anchor ? `#${anchor}` : ''}`),
  pageTitle: (id) => (id.includes('missing') ? null : `Title of ${id}`),
  reusableContent: () => null,
};

function documentOf(markdown: string): Document {
  return parseMarkdown(markdown, parseOptions).document;
}

function render(markdown: string): RenderedDocument {
  return renderDocument(documentOf(markdown), links);
}

function html(markdown: string): string {
  return render(markdown).html;
}

const VOID = new Set(['img', 'input', 'br', 'hr', 'source', 'path', 'line', 'wbr']);

/** Asserts that every element opened is closed, in order (void elements aside). */
function assertBalanced(markup: string): void {
  const stack: string[] = [];
  for (const [tag, closing, name] of markup.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>/g)) {
    if (VOID.has(name) || tag.endsWith('/>')) continue;
    if (!closing) stack.push(name);
    else assert.equal(stack.pop(), name, `</${name}> closes the element last opened`);
  }
  assert.deepEqual(stack, [], 'every element is closed');
}

describe('published renderer: text', () => {
  it('renders paragraphs with every mark', () => {
    const out = html('**bold** *italic* ~~gone~~ `code` <kbd>K</kbd> x<sup>2</sup> H<sub>2</sub>O <mark style="color:red;">red</mark>');
    assert.match(out, /^<p><strong>bold<\/strong> <em>italic<\/em> <s>gone<\/s> <code>code<\/code> <kbd>K<\/kbd> x<sup>2<\/sup> H<sub>2<\/sub>O <span class="color-red">red<\/span><\/p>/);
  });

  it('keeps line breaks and alignment', () => {
    assert.match(html('one  \ntwo'), /<p>one<br>two<\/p>/);
    assert.match(html('<p align="center">Centred</p>'), /<p class="align-center">Centred<\/p>/);
  });

  it('renders ordered, unordered and task lists', () => {
    assert.match(html('3. three\n4. four'), /<ol start="3"><li><p>three<\/p>\s*<\/li><li><p>four<\/p>/);
    assert.match(html('* a\n  * nested'), /<ul><li><p>a<\/p>\s*<ul><li><p>nested<\/p>/);
    const tasks = html('* [x] done\n* [ ] todo');
    assert.match(tasks, /<ul class="task-list"><li class="task-list-item"><input type="checkbox" disabled checked> <p>done<\/p>/);
    assert.match(tasks, /<li class="task-list-item"><input type="checkbox" disabled> <p>todo<\/p>/);
  });

  it('renders quotes and dividers', () => {
    assert.match(html('> quoted'), /<blockquote><p>quoted<\/p>\s*<\/blockquote>/);
    assert.match(html('a\n\n***\n\nb'), /<p>a<\/p>\s*<hr>\s*<p>b<\/p>/);
  });
});

describe('published renderer: headings', () => {
  it('gives headings ids, self-links and an outline, one level below the page title', () => {
    const { html: out, outline } = render('## Intro\n\n### Setup\n\n#### Details <a href="#custom-id" id="custom-id"></a>\n\ntext');
    assert.match(out, /<h2 id="intro" class="heading-1">Intro<a class="heading-anchor" href="#intro" aria-label="Link to Intro">#<\/a><\/h2>/);
    assert.match(out, /<h3 id="setup" class="heading-2">Setup/);
    assert.match(out, /<h4 id="custom-id" class="heading-3">Details<a class="heading-anchor" href="#custom-id"/);
    assert.deepEqual(outline, [
      { id: 'intro', title: 'Intro', depth: 1 },
      { id: 'setup', title: 'Setup', depth: 2 },
      { id: 'custom-id', title: 'Details', depth: 3 },
    ]);
  });

  it('deduplicates ids as the content API does for page sections', () => {
    const markdown = '## Setup\n\n## Setup\n\n{% hint style="info" %}\n## Setup\n{% endhint %}\n\n## Setup';
    const { html: out, outline } = render(markdown);
    assert.deepEqual(outline.map((entry) => entry.id), ['setup', 'setup-1', 'setup-2']);
    assert.deepEqual(outline.map((entry) => entry.id), extractSections(documentOf(markdown)).map((section) => section.id));
    // The heading nested in the hint keeps out of the top-level anchors.
    assert.deepEqual([...out.matchAll(/ id="(setup[^"]*)"/g)].map((match) => match[1]), ['setup', 'setup-1', 'setup-3', 'setup-2']);
  });

  it('escapes heading text in ids and labels', () => {
    const { html: out, outline } = render('## <script>alert(1)</script> & "quotes"');
    // A tag GitBook does not write is dropped, its text kept as text.
    assert.doesNotMatch(out, /<script>/);
    assert.match(out, />alert\(1\) &amp; &quot;quotes&quot;<a class="heading-anchor"/);
    assert.equal(outline[0].id, 'alert-1-and-quotes');
  });
});

describe('published renderer: code', () => {
  it('highlights a known language, with title and line numbers', () => {
    const out = html('{% code title="app.js" lineNumbers="true" %}\n```js\nconst a = "x"; // note\n```\n{% endcode %}');
    assert.match(out, /<div class="code-title">app\.js<\/div>/);
    assert.match(out, /<pre class="hljs line-numbers" data-language="js"><code class="language-js">/);
    assert.match(out, /<span class="hljs-keyword">const<\/span>/);
    assert.match(out, /<span class="hljs-string">&quot;x&quot;<\/span>/);
    assert.match(out, /<span class="hljs-comment">\/\/ note<\/span>/);
  });

  it('escapes code of an unknown language without highlighting it', () => {
    const out = html('```nosuchlanguage\n<script>alert("x")</script>\n```');
    assert.doesNotMatch(out, /hljs-/);
    assert.doesNotMatch(out, /<script>/);
    assert.match(out, /<pre class="hljs"><code><span class="line">&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt;<\/span><\/code><\/pre>/);
  });

  it('gives each source line its own span, even inside a multi-line comment', () => {
    const out = html('```js\n/* one\ntwo */\nlet x;\n```');
    assert.equal(out.match(/<span class="line">/g)?.length, 3);
    assert.match(out, /<span class="line"><span class="hljs-comment">\/\* one<\/span><\/span>\n<span class="line"><span class="hljs-comment">two \*\/<\/span><\/span>/);
    assertBalanced(out);
  });

  it('splits highlighted HTML into balanced lines', () => {
    assert.deepEqual(splitLines('<span class="a">x\n<span class="b">y\nz</span></span>\nw'), [
      '<span class="a">x</span>',
      '<span class="a"><span class="b">y</span></span>',
      '<span class="a"><span class="b">z</span></span>',
      'w',
    ]);
  });

  it('marks wrapped blocks', () => {
    assert.match(html('{% code overflow="wrap" %}\n```\nlong\n```\n{% endcode %}'), /<pre class="hljs wrap">/);
  });
});

describe('published renderer: math', () => {
  it('renders block and inline formulas with KaTeX, MathML included', () => {
    const out = html('Inline $$x^2$$ here.\n\n$$\n\\frac{a}{b}\n$$');
    assert.match(out, /<span class="math math-inline"><span class="katex"><span class="katex-mathml"><math/);
    assert.match(out, /<div class="math math-display"><span class="katex-display">/);
    assert.match(out, /<mfrac>/);
  });

  it('shows the escaped source of a formula KaTeX cannot read', () => {
    const out = html('$$\n\\frac{<b>}{\n$$');
    assert.match(out, /class="katex-error"/);
    assert.match(out, /\\frac\{&lt;b&gt;\}\{/);
    assert.doesNotMatch(out, /<b>/);
  });

  it('refuses links inside formulas', () => {
    const out = html('$$\\href{javascript:alert(1)}{x}$$ and $$\\url{https://example.com}$$');
    assert.doesNotMatch(out, /href="/);
  });
});

describe('published renderer: containers', () => {
  it('renders hints by style, as notes', () => {
    for (const style of ['info', 'success', 'warning', 'danger']) {
      assert.match(html(`{% hint style="${style}" %}\nCareful.\n{% endhint %}`), new RegExp(`^<div class="hint hint-${style}" role="note"><p>Careful\\.</p>`));
    }
  });

  it('renders tabs as radio inputs, labels and panels that work without JavaScript', () => {
    const tabs = '{% tabs %}\n{% tab title="One" %}\nFirst\n{% endtab %}\n{% tab title="Two" %}\nSecond\n{% endtab %}\n{% endtabs %}';
    const out = html(`${tabs}\n\n${tabs}`);
    assert.match(
      out,
      /<div class="tabs"><input class="tab-input" type="radio" name="tabs_1" id="tabs_1_0" checked><label class="tab-label" for="tabs_1_0">One<\/label><div class="tab-panel"><p>First<\/p>\s*<\/div><input class="tab-input" type="radio" name="tabs_1" id="tabs_1_1"><label class="tab-label" for="tabs_1_1">Two<\/label><div class="tab-panel"><p>Second<\/p>/,
    );
    // A second group gets its own radio name, so choosing a tab in one leaves the other alone.
    assert.match(out, /name="tabs_2" id="tabs_2_0" checked/);
    assert.equal(out.match(/ checked/g)?.length, 2);
    assertBalanced(out);
  });

  it('renders expandables as details', () => {
    const out = html('<details>\n\n<summary>More <em>info</em></summary>\n\nHidden text.\n\n</details>');
    assert.match(out, /^<details class="expandable"><summary>More <em>info<\/em><\/summary><div class="expandable-body"><p>Hidden text\.<\/p>\s*<\/div><\/details>/);
  });

  it('renders tables with a header row and aligned cells', () => {
    const out = html('| Name | Size |\n| :-- | --: |\n| **a** | 1 |\n| b | |');
    assert.match(out, /<table><thead><tr><th>Name<\/th><th class="align-end">Size<\/th><\/tr><\/thead><tbody><tr><td><strong>a<\/strong><\/td><td class="align-end">1<\/td><\/tr><tr><td>b<\/td><td class="align-end"><\/td><\/tr><\/tbody><\/table>/);
  });
});

describe('published renderer: links, files and media', () => {
  it('links to URLs, pages, anchors and files through the site', () => {
    const out = html('[web](https://example.com/a?b=1&c=2) [page](guide.md) [section](guide.md#setup) [here](#local) [file](.assets/report.pdf) [mail](mailto:a@example.com) [rel](../other)');
    assert.match(out, /<a href="https:\/\/example\.com\/a\?b=1&amp;c=2">web<\/a>/);
    assert.match(out, /<a href="\/docs\/page-guide">page<\/a>/);
    assert.match(out, /<a href="\/docs\/page-guide#setup">section<\/a>/);
    assert.match(out, /<a href="#local">here<\/a>/);
    assert.match(out, /<a href="\/~files\/file-report\.pdf">file<\/a>/);
    assert.match(out, /<a href="mailto:a@example\.com">mail<\/a>/);
    assert.match(out, /<a href="\.\.\/other">rel<\/a>/);
  });

  it('marks links to missing pages and files as broken, without an href', () => {
    const out = html('[gone](missing-page.md) and [lost](.assets/missing.pdf)');
    assert.match(out, /<span class="broken-link">gone<\/span> and <span class="broken-link">lost<\/span>/);
    assert.doesNotMatch(out, /href/);
  });

  it('renders images from files, lazily, with alt text and captions', () => {
    const out = html('<figure><img src=".assets/shot.png" alt="A &quot;shot&quot;" width="320"><figcaption><p>The <strong>editor</strong></p></figcaption></figure>');
    assert.match(out, /<figure class="image"><img src="\/~files\/file-shot\.png" alt="A &quot;shot&quot;" loading="lazy" decoding="async" width="320"><figcaption>The <strong>editor<\/strong><\/figcaption><\/figure>/);
  });

  it('gives images a dark variant and marks missing ones', () => {
    const dark = html('<figure><picture><source srcset=".assets/dark.png" media="(prefers-color-scheme: dark)"><img src=".assets/light.png" alt="Chart"></picture><figcaption><p>Chart</p></figcaption></figure>');
    assert.match(dark, /<picture><source srcset="\/~files\/file-dark\.png" media="\(prefers-color-scheme: dark\)"><img src="\/~files\/file-light\.png"/);
    const missing = html('![Lost image](.assets/missing.png)');
    assert.match(missing, /<span class="broken-link">Lost image<\/span>/);
    assert.doesNotMatch(missing, /<img/);
  });

  it('renders file blocks as download links, and missing files as broken', () => {
    const out = html('{% file src=".assets/hand%20book.pdf" %}\nThe handbook.\n{% endfile %}\n\n{% file src=".assets/missing.csv" %}');
    assert.match(out, /<div class="file"><a class="card file-card" href="\/~files\/file-hand%20book\.pdf" download><span class="card-title">file-hand book\.pdf<\/span><\/a><div class="file-caption">The handbook\.<\/div><\/div>/);
    assert.match(out, /<span class="card file-card broken-link">Missing file<\/span>/);
  });

  it('renders embeds as link cards, never frames', () => {
    const out = html('{% embed url="https://www.youtube.com/watch?v=x&t=1" %}\nA video.\n{% endembed %}');
    assert.match(out, /<a class="card embed-card" href="https:\/\/www\.youtube\.com\/watch\?v=x&amp;t=1" rel="noopener noreferrer"><span class="card-title">www\.youtube\.com<\/span>/);
    assert.match(out, /<div class="embed-caption">A video\.<\/div>/);
    assert.doesNotMatch(out, /<iframe/);
  });

  it('renders content references as cards to pages, files and URLs', () => {
    const out = html('{% content-ref url="guide.md" %}\n[Guide](guide.md)\n{% endcontent-ref %}\n\n{% content-ref url="missing-page.md" %}\n[Gone](missing-page.md)\n{% endcontent-ref %}\n\n{% content-ref url=".assets/spec.pdf" %}\n[Spec](.assets/spec.pdf)\n{% endcontent-ref %}');
    // A page is named by its title, never by its address (GitBook's renderer shows the page's title).
    assert.match(out, /<div class="content-ref" data-kind="page"><a href="\/docs\/page-guide" class="card"><span class="card-title">Title of page-guide<\/span><\/a><\/div>/);
    assert.doesNotMatch(out, /card-title">\/docs\//);
    assert.match(out, /<div class="content-ref" data-kind="page"><span class="card broken-link"><span class="card-title">Missing page<\/span><\/span><\/div>/);
    assert.match(out, /<div class="content-ref" data-kind="file"><a href="\/~files\/file-spec\.pdf" class="card"><span class="card-title">file-spec\.pdf<\/span><\/a>/);
  });

  it("shows GitBook's lost-target marker as a broken reference, not as its address", () => {
    const out = html('{% content-ref url="/broken/pages/-LJVJwNqt3HkI7n8CFy9" %}\n[Broken link](/broken/pages/-LJVJwNqt3HkI7n8CFy9)\n{% endcontent-ref %}\n\nSee [the old page](/broken/pages/-LJVJwNqt3HkI7n8CFy9) and [a real path](/broken/pages-guide).');
    assert.match(out, /<span class="card broken-link"><span class="card-title">Missing page<\/span><\/span>/);
    assert.doesNotMatch(out, /card-title">\/broken/);
    assert.doesNotMatch(out, /href="\/broken\/pages\/-LJVJ/);
    assert.match(out, /<span class="broken-link">the old page<\/span>/);
    assert.match(out, /href="\/broken\/pages-guide"/);
  });
});

describe('published renderer: cards leading to pages', () => {
  const cards = (rows: string) =>
    `<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead><tbody>${rows}</tbody></table>`;

  it('names a card that shows no text by the page it leads to', () => {
    const out = html(cards('<tr><td></td><td><a href="guide.md">guide.md</a></td></tr><tr><td><strong>Own words</strong></td><td><a href="setup.md">setup.md</a></td></tr>'));
    assert.match(out, /<a class="card-item" href="\/docs\/page-guide"><div class="card-content"><p class="card-title">Title of page-guide<\/p><\/div><\/a>/);
    // A card with text of its own keeps it, and is not given the page's title as well.
    assert.match(out, /<a class="card-item" href="\/docs\/page-setup"><div class="card-content"><p><strong>Own words<\/strong><\/p><\/div><\/a>/);
    assert.doesNotMatch(out, /<div class="card-content"><\/div>/, 'no card is an empty box');
  });
});

describe('published renderer: safety', () => {
  it('escapes HTML written in content', () => {
    const out = html('Hello <script>alert(1)</script>\n\n<div onclick="x()">block</div>\n\n<img src=x onerror=alert(1)>');
    assert.doesNotMatch(out, /<script|<div onclick|onerror|onclick/);
    // Tags GitBook does not write are dropped and their text kept as text; an <img> becomes a safe image.
    assert.match(out, /<p>Hello alert\(1\)<\/p>\n<p>block<\/p>/);
    assert.match(out, /<img src="x" alt="" loading="lazy" decoding="async" class="inline-image">/);
  });

  it('drops javascript: and other unsafe URLs, keeping the text', () => {
    const out = html('[click](javascript:alert(1)) [data](data:text/html,hi) [tab](java&#9;script:alert(1)) ![img](javascript:alert(1))\n\n{% embed url="javascript:alert(1)" %}');
    assert.doesNotMatch(out, /href="|src="/);
    assert.match(out, /<span>click<\/span> <span>data<\/span> <span>tab<\/span>/);
    assert.match(out, /<span class="card embed-card"><span class="card-url">javascript:alert\(1\)<\/span><\/span>/);
  });

  it('escapes quotes in attributes', () => {
    const out = html('![x" onerror="alert(1)](https://example.com/a.png)');
    assert.match(out, /alt="x&quot; onerror=&quot;alert\(1\)"/);
  });

  it('judges URL schemes as browsers read them', () => {
    assert.equal(safeUrl('JavaScript:alert(1)'), null);
    assert.equal(safeUrl(' \tjava\nscript:alert(1)'), null);
    assert.equal(safeUrl('vbscript:x'), null);
    assert.equal(safeUrl('data:image/png;base64,AAAA'), null);
    assert.equal(safeUrl(''), null);
    assert.equal(safeUrl(' https://example.com/ '), 'https://example.com/');
    assert.equal(safeUrl('HTTP://example.com'), 'HTTP://example.com');
    assert.equal(safeUrl('/docs/a:b'), '/docs/a:b');
    assert.equal(safeUrl('?q=1'), '?q=1');
  });

  it('escapes text and attributes', () => {
    assert.equal(escapeHtml(`<a href="x">Tom & 'Jerry'</a>`), '&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;');
    assert.equal(escapeAttribute('"><script>'), '&quot;&gt;&lt;script&gt;');
  });

  it('renders emoji and buttons kept as opaque inlines, through the same URL gate', () => {
    const out = html('Hi <!-- quire:inline {"object":"inline","type":"emoji","data":{"code":"1f44b"},"isVoid":true} --> <!-- quire:inline {"object":"inline","type":"button","data":{"label":"Go","kind":"primary","ref":{"kind":"page","page":"page-guide"}},"isVoid":true} --> <!-- quire:inline {"object":"inline","type":"button","data":{"label":"Bad","kind":"secondary","ref":{"kind":"url","url":"javascript:alert(1)"}},"isVoid":true} -->');
    assert.match(out, /<span class="emoji">👋<\/span>/);
    assert.match(out, /<a href="\/docs\/page-guide" class="button button-primary">Go<\/a>/);
    assert.match(out, /<span class="button button-secondary">Bad<\/span>/);
  });

  it('leaves conditional blocks to the caller and shows the children of layout blocks', () => {
    const document: Document = {
      object: 'document',
      data: {},
      nodes: [
        { object: 'block', type: 'if', data: { expression: 'visitor.claims.admin' }, nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'secret', marks: [] }] }] }] },
        { object: 'block', type: 'columns', data: {}, isVoid: false, nodes: [{ object: 'block', type: 'column', data: {}, isVoid: false, nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'visible', marks: [] }] }] }] }] },
      ],
    };
    const { html: out } = renderDocument(document, links);
    assert.doesNotMatch(out, /secret/);
    assert.match(out, /<div class="columns"><div class="column"><p>visible<\/p>/);
  });
});

describe('published renderer: corpus', () => {
  const directory = new URL('../content/corpus/', import.meta.url);
  const pages = readdirSync(directory).filter((name) => name.endsWith('.md')).sort();

  it('has pages to render', () => {
    assert.ok(pages.length >= 8);
  });

  for (const name of pages) {
    it(`${name}: renders whole, balanced HTML`, () => {
      const markdown = readFileSync(new URL(name, directory), 'utf8');
      const { html: out, outline } = render(markdown);
      assert.ok(out.length > 200);
      assert.doesNotMatch(out, /undefined|\[object Object\]|NaN/);
      assertBalanced(out);
      assert.deepEqual(outline.map((entry) => entry.id), extractSections(documentOf(markdown)).filter((section) => section.depth > 0).map((section) => section.id));
      for (const entry of outline) assert.ok(out.includes(` id="${entry.id}"`), `the heading ${entry.id} is in the page`);
    });
  }
});
