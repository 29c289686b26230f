/**
 * Blocks and inlines written as HTML, as GitBook writes them inside HTML tables: `<strong>`, `<em>`,
 * `<code>`, `<a href>`, `<br>` between lines, `<p>` around paragraphs when a cell holds more than one
 * block, `<ul>`/`<ol>`, `<h2>`–`<h4>`, `<pre><code>`; characters that would read as HTML escaped the way
 * GitBook escapes them (`&#x3C;`, `&#x26;`).
 */
import { escapeAttribute, writeStartTag } from './html.ts';
import { inlinePieces, normalizeInlines, sameMark } from './nodes.ts';
import type { RenderContext } from './render-inline.ts';
import { inlineHtml } from './render-inline-html.ts';
import { imageHref, refHref } from './refs.ts';
import type { DocumentBlock, DocumentLeaf, DocumentMark, InlineContent } from './types.ts';

export function escapeHtmlText(text: string): string {
  return text.replace(/&/g, '&#x26;').replace(/</g, '&#x3C;');
}

const MARK_TAGS: Record<string, string> = { bold: 'strong', italic: 'em', strikethrough: 's', code: 'code', keyboard: 'kbd', superscript: 'sup', subscript: 'sub' };

function open(mark: DocumentMark): string {
  if (mark.type !== 'color') return `<${MARK_TAGS[mark.type]}>`;
  const style = [mark.data.text === 'default' ? '' : `color:${mark.data.text};`, mark.data.background === 'default' ? '' : `background-color:${mark.data.background};`].join('');
  return style ? `<mark style="${escapeAttribute(style)}">` : '<mark>';
}

function close(mark: DocumentMark): string {
  return mark.type === 'color' ? '</mark>' : `</${MARK_TAGS[mark.type]}>`;
}

function leavesHtml(leaves: DocumentLeaf[]): string {
  let out = '';
  let index = 0;
  while (index < leaves.length) {
    const [mark] = leaves[index].marks;
    if (!mark) {
      out += escapeHtmlText(leaves[index].text).replace(/\n/g, '<br>');
      index++;
      continue;
    }
    let end = index;
    while (end < leaves.length && leaves[end].marks.some((other) => sameMark(other, mark))) end++;
    const inner = leaves.slice(index, end).map((leaf) => ({ ...leaf, marks: leaf.marks.filter((other) => !sameMark(other, mark)) }));
    out += open(mark) + leavesHtml(inner) + close(mark);
    index = end;
  }
  return out;
}

/** Inline content as HTML. */
export function inlineToHtml(nodes: InlineContent[], ctx: RenderContext): string {
  let out = '';
  let leaves: DocumentLeaf[] = [];
  const flush = () => {
    out += leavesHtml(leaves);
    leaves = [];
  };
  for (const piece of inlinePieces(normalizeInlines(inlinePieces(nodes)))) {
    if (piece.object === 'leaf') {
      leaves.push(piece);
      continue;
    }
    flush();
    switch (piece.type) {
      case 'link':
        out += `<a href="${escapeAttribute(refHref(piece.data.ref, ctx.options))}">${inlineToHtml(piece.nodes, ctx)}</a>`;
        break;
      case 'inline-image':
        out += writeStartTag('img', [['src', imageHref(piece.data.ref, ctx.options)], ['alt', piece.data.caption ?? ''], ['data-size', piece.data.size]]);
        break;
      case 'inline-math':
        out += `$$${piece.data.formula}$$`;
        break;
      case 'annotation':
        out += inlineToHtml(piece.nodes, ctx);
        break;
      default:
        out += inlineHtml(piece, ctx).map((node) => ('value' in node ? node.value : '')).join('');
    }
  }
  flush();
  return out;
}

function blockHtml(block: DocumentBlock, ctx: RenderContext): string {
  switch (block.type) {
    case 'paragraph':
      return `<p>${inlineToHtml(block.nodes, ctx)}</p>`;
    case 'heading-1':
    case 'heading-2':
    case 'heading-3': {
      const level = block.type === 'heading-1' ? 2 : block.type === 'heading-2' ? 3 : 4;
      return `<h${level}>${inlineToHtml(block.nodes, ctx)}</h${level}>`;
    }
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks': {
      const tag = block.type === 'list-ordered' ? 'ol' : 'ul';
      return `<${tag}>${block.nodes.map((item) => `<li>${cellHtml(item.nodes, ctx)}</li>`).join('')}</${tag}>`;
    }
    case 'code': {
      const text = block.nodes.map((line) => line.nodes.map((node) => (node.object === 'text' ? node.leaves.map((leaf) => leaf.text).join('') : '')).join('')).join('\n');
      const language = block.data.syntax ? ` class="language-${escapeAttribute(block.data.syntax)}"` : '';
      return `<pre${language}><code>${escapeHtmlText(text)}</code></pre>`;
    }
    case 'divider':
      return '<hr>';
    default:
      return ctx.blocksMarkdown([block]);
  }
}

/**
 * The content of a cell: one paragraph as its inline HTML alone; anything else as blocks of HTML (a
 * paragraph then a list is `<p>…</p><ul>…</ul>`).
 */
export function cellHtml(blocks: DocumentBlock[], ctx: RenderContext): string {
  const [only] = blocks;
  if (blocks.length === 1 && only.type === 'paragraph') return inlineToHtml(only.nodes, ctx);
  return blocks.map((block) => blockHtml(block, ctx)).join('');
}
