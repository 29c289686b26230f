/**
 * Google Docs and Word clipboard HTML rewritten as the plain HTML the editor's schema reads (decision 0128).
 * Both say what they mean in styles and classes, not in tags: Docs puts bold, italic, strike, code and
 * super/subscript as inline `style` on spans, and nests lists by `aria-level`; Word writes a list as
 * paragraphs with `mso-list` styles and a typed bullet, headings as `MsoTitle`/`MsoHeadingN`. Here each
 * becomes the tag the schema parses (strong, em, s, code, sup, sub, h1–h3, ul/ol/task lists, pre, table with
 * a header row, an image block); every style, class and comment is dropped. The input is already inert
 * (paste.ts: no script, style block, event handler or `javascript:` address).
 */

export type OfficeSource = 'google-docs' | 'word';

/**
 * Office HTML with its `style` attributes renamed, before anything parses it: Chromium checks a style attribute
 * against the Content-Security-Policy (no inline style) as it parses it, even in an inert document, so the
 * styles would be refused and unreadable. Renamed, they are text this module reads (styleOf). A `<style>` block
 * (Word's) is cut here for the same reason.
 */
export function renameStyles(html: string): string {
  return html.replace(/<style[\s\S]*?<\/style\s*>/gi, '').replace(/(<[a-z][^>]*?\s)style\s*=/gi, '$1data-office-style=');
}

/** An element's renamed style as property → value (lower case). */
function styleOf(element: Element): Map<string, string> {
  const style = new Map<string, string>();
  for (const declaration of (element.getAttribute('data-office-style') ?? '').split(';')) {
    const colon = declaration.indexOf(':');
    if (colon > 0) style.set(declaration.slice(0, colon).trim().toLowerCase(), declaration.slice(colon + 1).trim().toLowerCase());
  }
  return style;
}

/** Which office program's clipboard this HTML is, if either. */
export function officeSource(html: string): OfficeSource | null {
  if (/id=["']?docs-internal-guid-/i.test(html)) return 'google-docs';
  if (/urn:schemas-microsoft-com:office|class=["']?Mso|mso-[a-z-]+\s*:/i.test(html)) return 'word';
  return null;
}

const MONOSPACE = /courier|consolas|monaco|menlo|roboto mono|source code|inconsolata|monospace|lucida console/i;
const ORDERED_STYLE = /decimal|alpha|roman|latin|greek|armenian|georgian/i;
const ORDERED_MARKER = /^\(?([0-9]+|[a-z]{1,3}|[ivxlcdm]+)[.)]$/i;
const CHECKED_MARKER = /^[☒☑✓✔]$/;
const UNCHECKED_MARKER = /^[☐□]$/;

interface Item {
  level: number;
  kind: 'bullet' | 'ordered' | 'task';
  checked: boolean;
  content: Node[];
}

/** The clipboard HTML of Google Docs or Word as the editor's plain HTML; anything else is returned as it came. */
export function officeHtml(html: string, source = officeSource(html)): string {
  if (!source) return html;
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const body = doc.body;
  removeComments(body);
  // Word's <o:p> holds the paragraph's trailing space, its spacerun spans runs of spaces.
  for (const element of [...body.getElementsByTagName('*')]) if (element.tagName.toLowerCase() === 'o:p') element.remove();
  for (const wrapper of body.querySelectorAll('b[id^="docs-internal-guid-"]')) unwrap(wrapper);
  for (const anchor of body.querySelectorAll('a:not([href])')) unwrap(anchor);
  if (source === 'word') {
    wordHeadings(doc);
    wordLists(doc);
  } else docsLists(doc);
  for (const span of [...body.querySelectorAll('span, font')].reverse()) styledSpan(doc, span as HTMLElement);
  for (const heading of body.querySelectorAll('h4, h5, h6')) rename(doc, heading, 'h3');
  // A heading's text is its own: the bold and the size Docs and Word give it are the heading's look.
  for (const mark of body.querySelectorAll(':is(h1, h2, h3) :is(strong, b)')) unwrap(mark);
  images(doc);
  tables(doc);
  codeBlocks(doc);
  cleanup(body);
  return body.innerHTML;
}

/**
 * HTML of another source (a web page) with its `style` attributes renamed (renameStyles): a styled span's bold,
 * italic, strike, monospace and super/subscript become the tags the schema reads, as for Docs; every renamed
 * style then goes, so nothing reaches ProseMirror's parser that the Content-Security-Policy would refuse.
 */
export function webHtml(html: string): string {
  if (!html.includes('data-office-style')) return html;
  const doc = new DOMParser().parseFromString(html, 'text/html');
  for (const span of [...doc.body.querySelectorAll('span[data-office-style], font[data-office-style]')].reverse()) styledSpan(doc, span as HTMLElement);
  for (const element of doc.body.querySelectorAll('[data-office-style]')) element.removeAttribute('data-office-style');
  return doc.body.innerHTML;
}

function removeComments(root: Node): void {
  const walker = root.ownerDocument!.createTreeWalker(root, NodeFilter.SHOW_COMMENT);
  const comments: Node[] = [];
  while (walker.nextNode()) comments.push(walker.currentNode);
  for (const comment of comments) comment.parentNode?.removeChild(comment);
}

function unwrap(element: Element): void {
  element.replaceWith(...element.childNodes);
}

function rename(doc: Document, element: Element, tag: string): HTMLElement {
  const renamed = doc.createElement(tag);
  renamed.append(...element.childNodes);
  for (const name of ['data-office-style', 'class', 'aria-level']) if (element.hasAttribute(name)) renamed.setAttribute(name, element.getAttribute(name)!);
  element.replaceWith(renamed);
  return renamed;
}

function wrapChildren(doc: Document, element: Element, tag: string): void {
  const wrapper = doc.createElement(tag);
  wrapper.append(...element.childNodes);
  element.append(wrapper);
}

/** A span's styles as marks (the tags the schema reads), then the span unwrapped. Underline has no mark: dropped. */
function styledSpan(doc: Document, span: HTMLElement): void {
  const style = styleOf(span);
  if (style.has('mso-spacerun')) {
    span.replaceWith(doc.createTextNode((span.textContent || ' ').replace(/\u00a0/g, ' ')));
    return;
  }
  // Spaces at a marked run's ends stay outside the mark (Markdown cannot open `_` before a space).
  const first = span.firstChild;
  const last = span.lastChild;
  if (first?.nodeType === Node.TEXT_NODE && /^\s+/.test(first.textContent!)) {
    span.before(/^\s+/.exec(first.textContent!)![0]);
    first.textContent = first.textContent!.trimStart();
  }
  if (last?.nodeType === Node.TEXT_NODE && /\S\s+$/.test(last.textContent!)) {
    span.after(/\s+$/.exec(last.textContent!)![0]);
    last.textContent = last.textContent!.trimEnd();
  }
  const weight = style.get('font-weight') ?? '';
  if (/^bold/.test(weight) || Number(weight) >= 600) wrapChildren(doc, span, 'strong');
  if (style.get('font-style') === 'italic') wrapChildren(doc, span, 'em');
  if (/line-through/.test(`${style.get('text-decoration') ?? ''} ${style.get('text-decoration-line') ?? ''}`)) wrapChildren(doc, span, 's');
  if (MONOSPACE.test(style.get('font-family') ?? span.getAttribute('face') ?? '')) wrapChildren(doc, span, 'code');
  if (style.get('vertical-align') === 'super') wrapChildren(doc, span, 'sup');
  if (style.get('vertical-align') === 'sub') wrapChildren(doc, span, 'sub');
  unwrap(span);
}

/** Word's title and heading paragraph styles as headings (the title the first level). */
function wordHeadings(doc: Document): void {
  for (const paragraph of doc.body.querySelectorAll('p[class]')) {
    const name = paragraph.className;
    const level = /^MsoTitle$/i.test(name) ? 1 : /^MsoSubtitle$/i.test(name) ? 2 : Number(/^MsoHeading(\d)$/i.exec(name)?.[1] ?? 0);
    if (level) rename(doc, paragraph, `h${Math.min(level, 3)}`);
  }
}

/**
 * Word's list paragraphs (`mso-list:l0 level2 lfo1`): the typed bullet (`·`, `o`, `1.`, `a)`, `☐`), kept
 * between `supportLists` comments in a span styled `mso-list:Ignore`, says the kind; the level the nesting.
 */
function wordLists(doc: Document): void {
  const paragraphs = [...doc.body.querySelectorAll('p')].filter((p) => /^l\d+\s+level\d+/i.test(styleOf(p).get('mso-list') ?? ''));
  const runs: Element[][] = [];
  for (const paragraph of paragraphs) {
    const run = runs.at(-1);
    if (run && sibling(run.at(-1)!) === paragraph) run.push(paragraph);
    else runs.push([paragraph]);
  }
  for (const run of runs) {
    const items: Item[] = run.map((paragraph) => {
      const level = Number(/level(\d+)/i.exec(styleOf(paragraph).get('mso-list')!)![1]);
      const ignore = [...paragraph.querySelectorAll('span')].find((span) => styleOf(span).get('mso-list') === 'ignore');
      let marker = '';
      if (ignore) {
        let outer: Element = ignore;
        while (outer.parentElement && outer.parentElement !== paragraph) outer = outer.parentElement;
        marker = (ignore.firstChild?.textContent ?? ignore.textContent ?? '').replace(/\s|\u00a0/g, '');
        outer.remove();
      }
      const task = CHECKED_MARKER.test(marker) || UNCHECKED_MARKER.test(marker);
      return { level, kind: task ? 'task' : ORDERED_MARKER.test(marker) ? 'ordered' : 'bullet', checked: CHECKED_MARKER.test(marker), content: [...paragraph.childNodes] };
    });
    run.slice(1).forEach((paragraph) => paragraph.remove());
    run[0].replaceWith(buildLists(doc, items));
  }
}

function sibling(element: Element): Element | null {
  let next = element.nextSibling;
  while (next && next.nodeType === Node.TEXT_NODE && !next.textContent!.trim()) next = next.nextSibling;
  return next instanceof Element ? next : null;
}

/**
 * Docs' lists: `ul`/`ol` whose items carry `aria-level` and `list-style-type`, a nested list written inside
 * the outer one (or beside it); a checklist item is `role=checkbox` with `aria-checked`.
 */
function docsLists(doc: Document): void {
  const outermost = [...doc.body.querySelectorAll('ul, ol')].filter((list) => !list.parentElement?.closest('ul, ol'));
  const runs: Element[][] = [];
  for (const list of outermost) {
    const run = runs.at(-1);
    if (run && sibling(run.at(-1)!) === list) run.push(list);
    else runs.push([list]);
  }
  for (const run of runs) {
    const items: Item[] = [];
    for (const list of run)
      for (const li of list.querySelectorAll('li')) {
        const parent = li.parentElement!;
        const depth = ancestorsUntil(li, list);
        const level = Number(li.getAttribute('aria-level')) || depth;
        const type = styleOf(li).get('list-style-type') ?? styleOf(parent).get('list-style-type') ?? '';
        const checked = li.getAttribute('aria-checked');
        const kind = checked !== null || li.getAttribute('role') === 'checkbox' ? 'task' : parent.tagName === 'OL' || ORDERED_STYLE.test(type) ? 'ordered' : 'bullet';
        const content: Node[] = [];
        for (const child of [...li.childNodes]) {
          if (child instanceof Element && /^(UL|OL)$/.test(child.tagName)) continue;
          if (child instanceof Element && child.tagName === 'P') content.push(...child.childNodes);
          else content.push(child);
        }
        items.push({ level, kind, checked: checked === 'true', content });
      }
    run.slice(1).forEach((list) => list.remove());
    run[0].replaceWith(buildLists(doc, items));
  }
}

function ancestorsUntil(li: Element, list: Element): number {
  let depth = 1;
  for (let at = li.parentElement; at && at !== list; at = at.parentElement) if (/^(UL|OL)$/.test(at.tagName)) depth++;
  return depth;
}

/** Flat items with levels as nested lists: a deeper item goes into the list inside the item above it. */
function buildLists(doc: Document, items: Item[]): DocumentFragment {
  const fragment = doc.createDocumentFragment();
  const stack: Array<{ level: number; list: HTMLElement }> = [];
  for (const item of items) {
    while (stack.length && (stack.at(-1)!.level > item.level || (stack.at(-1)!.level === item.level && kindOf(stack.at(-1)!.list) !== item.kind))) stack.pop();
    let top = stack.at(-1);
    if (!top || top.level < item.level) {
      const list = doc.createElement(item.kind === 'ordered' ? 'ol' : 'ul');
      if (item.kind === 'task') list.setAttribute('data-type', 'taskList');
      const holder = top ? (top.list.lastElementChild as HTMLElement | null) : null;
      (holder ?? fragment).append(list);
      top = { level: item.level, list };
      stack.push(top);
    }
    const li = doc.createElement('li');
    if (item.kind === 'task') {
      li.setAttribute('data-type', 'taskItem');
      li.setAttribute('data-checked', String(item.checked));
    }
    const paragraph = doc.createElement('p');
    paragraph.append(...item.content);
    li.append(paragraph);
    top.list.append(li);
  }
  return fragment;
}

function kindOf(list: HTMLElement): Item['kind'] {
  return list.dataset.type === 'taskList' ? 'task' : list.tagName === 'OL' ? 'ordered' : 'bullet';
}

/**
 * A picture at an https address becomes an image block of that address, as a pasted picture address does
 * (paste.ts): the browser shows it from where it is, nothing is fetched by Quire. Word's pictures are files
 * on the writer's disk (`file:`), and `data:` or `http:` pictures have no address to keep: they are dropped.
 */
function images(doc: Document): void {
  for (const img of [...doc.body.querySelectorAll('img')]) {
    const url = safeImageUrl(img.getAttribute('src') ?? '');
    if (!url) {
      img.remove();
      continue;
    }
    const figure = doc.createElement('figure');
    figure.setAttribute('data-images', JSON.stringify(imagesBlock(url, img.getAttribute('alt') ?? '')));
    // An image block stands after the paragraph that held the picture; a table cell holds no block.
    const block = img.closest('p, h1, h2, h3, td, th');
    if (!block) img.replaceWith(figure);
    else {
      img.remove();
      if (!/^T[DH]$/.test(block.tagName)) block.after(figure);
    }
  }
}

function safeImageUrl(src: string): string | null {
  try {
    const url = new URL(src);
    return url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function imagesBlock(url: string, alt: string): object {
  const image = { object: 'block', type: 'image', data: { ref: { kind: 'url', url }, ...(alt ? { alt } : {}) }, fragments: [], isVoid: true };
  return { object: 'block', type: 'images', data: {}, nodes: [image], isVoid: false };
}

/** A table's cells hold one line of text (their paragraphs joined by breaks); the first row is the header. */
function tables(doc: Document): void {
  for (const table of doc.body.querySelectorAll('table')) {
    for (const cell of table.querySelectorAll('td, th')) {
      const paragraphs = [...cell.querySelectorAll('p, h1, h2, h3, div')];
      paragraphs.forEach((paragraph, index) => {
        if (index > 0 && paragraph.textContent!.trim()) paragraph.before(doc.createElement('br'));
        unwrap(paragraph);
      });
    }
    const first = table.querySelector('tr');
    for (const cell of first ? [...first.querySelectorAll('td')] : []) rename(doc, cell, 'th');
    table.parentElement?.tagName === 'DIV' && unwrap(table.parentElement);
  }
}

/** Paragraphs written wholly in a monospace font (now wholly `code`) are a code block, consecutive ones one block. */
function codeBlocks(doc: Document): void {
  const isCode = (element: Element | null): element is HTMLElement =>
    element?.tagName === 'P' && !!element.textContent!.trim() && [...textNodes(element)].every((text) => !text.textContent!.trim() || text.parentElement!.closest('code'));
  for (const paragraph of [...doc.body.querySelectorAll('p')]) {
    if (!paragraph.isConnected || !isCode(paragraph) || paragraph.closest('li, td, th')) continue;
    const lines: Element[] = [paragraph];
    for (let next = sibling(paragraph); isCode(next); next = sibling(next)) lines.push(next);
    const pre = doc.createElement('pre');
    const code = doc.createElement('code');
    code.textContent = lines.map((line) => lineText(line)).join('\n');
    pre.append(code);
    paragraph.replaceWith(pre);
    lines.slice(1).forEach((line) => line.remove());
  }
}

function lineText(element: Element): string {
  let out = '';
  for (const node of element.childNodes) out += node instanceof HTMLBRElement ? '\n' : node instanceof Element ? lineText(node) : node.textContent;
  return out.replace(/\u00a0/g, ' ');
}

function* textNodes(root: Node): Generator<Text> {
  for (const child of root.childNodes) {
    if (child.nodeType === Node.TEXT_NODE) yield child as Text;
    else yield* textNodes(child);
  }
}

/**
 * The end: no style, class or id is left; Docs' `<br>` between blocks (its empty lines) and Word's empty
 * paragraphs go; a non-breaking space Word wrote for a plain one is a space again.
 */
function cleanup(body: HTMLElement): void {
  for (const element of body.querySelectorAll('*')) {
    for (const attribute of [...element.attributes]) if (!['href', 'src', 'alt', 'data-images', 'data-type', 'data-checked', 'colspan', 'rowspan'].includes(attribute.name)) element.removeAttribute(attribute.name);
  }
  for (const br of [...body.querySelectorAll('br')]) if (br.parentElement === body || br.parentElement?.tagName === 'DIV') br.remove();
  for (const paragraph of [...body.querySelectorAll('p')]) if (!paragraph.textContent!.replace(/\u00a0/g, '').trim() && !paragraph.querySelector('br, img') && !paragraph.closest('li')) paragraph.remove();
  for (const text of [...textNodes(body)]) if (!text.parentElement?.closest('pre')) text.textContent = text.textContent!.replace(/\u00a0/g, ' ');
  for (const div of [...body.querySelectorAll('div')]) unwrap(div);
}
