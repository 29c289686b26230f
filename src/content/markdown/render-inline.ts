/**
 * Document inline content → inline Markdown (mdast phrasing). Leaves are nested so that each mark
 * wraps the longest run of leaves that carry it; marks Markdown has no syntax for are written as the
 * inline HTML that parse-inline.ts reads back.
 */
import type { PhrasingContent } from 'mdast';
import { escapeAttribute, writeStartTag } from './html.ts';
import { inlinePieces, normalizeInlines, sameMark } from './nodes.ts';
import { imageHref, refHref } from './refs.ts';
import type { DocumentInlineImage, DocumentLeaf, DocumentMark, InlineContent } from './types.ts';
import { inlineHtml } from './render-inline-html.ts';
import type { RenderContext } from './render-context.ts';

export type { RenderContext };

export interface PhrasingMode {
  /** Write line breaks as `<br>`, where a Markdown line break cannot go (table cells, HTML blocks). */
  breaksAsHtml?: boolean;
}

const HTML_MARKS: Record<string, string> = { keyboard: 'kbd', superscript: 'sup', subscript: 'sub' };

function lineBreak(mode: PhrasingMode): PhrasingContent {
  return mode.breaksAsHtml ? { type: 'html', value: '<br>' } : { type: 'break' };
}

/** A leaf's text, code or not, its line breaks made Markdown (or HTML) breaks. */
function leafContent(leaf: DocumentLeaf, mode: PhrasingMode): PhrasingContent[] {
  const code = leaf.marks.some((mark) => mark.type === 'code');
  return leaf.text.split('\n').flatMap((line, index): PhrasingContent[] => {
    const content: PhrasingContent[] = line === '' ? [] : [code ? { type: 'inlineCode', value: line } : { type: 'text', value: line }];
    return index === 0 ? content : [lineBreak(mode), ...content];
  });
}

function wrap(mark: DocumentMark, children: PhrasingContent[]): PhrasingContent[] {
  switch (mark.type) {
    case 'bold':
      return [{ type: 'strong', children }];
    case 'italic':
      return [{ type: 'emphasis', children }];
    case 'strikethrough':
      return [{ type: 'delete', children }];
    case 'color': {
      const style = [mark.data.text === 'default' ? '' : `color:${mark.data.text};`, mark.data.background === 'default' ? '' : `background-color:${mark.data.background};`].join('');
      return [{ type: 'html', value: style ? `<mark style="${escapeAttribute(style)}">` : '<mark>' }, ...children, { type: 'html', value: '</mark>' }];
    }
    case 'code':
      return children;
    default: {
      const tag = HTML_MARKS[mark.type];
      return [{ type: 'html', value: `<${tag}>` }, ...children, { type: 'html', value: `</${tag}>` }];
    }
  }
}

/** Nests leaves under their marks, the mark with the longest run outermost. Code stays innermost. */
function leavesToPhrasing(leaves: DocumentLeaf[], mode: PhrasingMode): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let index = 0;
  while (index < leaves.length) {
    const wrappers = leaves[index].marks.filter((mark) => mark.type !== 'code');
    if (wrappers.length === 0) {
      out.push(...leafContent(leaves[index], mode));
      index++;
      continue;
    }
    let best = wrappers[0];
    let end = index + 1;
    for (const mark of wrappers) {
      let runEnd = index;
      while (runEnd < leaves.length && leaves[runEnd].marks.some((other) => sameMark(other, mark))) runEnd++;
      if (runEnd > end) [best, end] = [mark, runEnd];
    }
    const inner = leaves.slice(index, end).map((leaf) => ({ ...leaf, marks: leaf.marks.filter((other) => !sameMark(other, best)) }));
    out.push(...wrap(best, leavesToPhrasing(inner, mode)));
    index = end;
  }
  return out;
}

/** An inline image: Markdown `![caption](src)` among other content, an `<img>` tag when alone or sized. */
function image(node: DocumentInlineImage, ctx: RenderContext, asHtml: boolean): PhrasingContent {
  const src = imageHref(node.data.ref, ctx.options);
  if (node.data.refDark) {
    const dark = writeStartTag('source', [['srcset', imageHref(node.data.refDark, ctx.options)], ['media', '(prefers-color-scheme: dark)']]);
    return { type: 'html', value: `<picture>${dark}${writeStartTag('img', [['src', src], ['alt', node.data.caption ?? ''], ['data-size', node.data.size]])}</picture>` };
  }
  if (!asHtml && node.data.size === undefined) return { type: 'image', url: src, alt: node.data.caption ?? '', title: null };
  return { type: 'html', value: writeStartTag('img', [['src', src], ['alt', node.data.caption ?? ''], ['data-size', node.data.size]]) };
}

/** Whether content is nothing but inline images (and blank text): such images are written as `<img>`, so they are not read back as an images block. */
function onlyImages(nodes: InlineContent[]): boolean {
  const images = nodes.filter((node) => node.object === 'inline' && node.type === 'inline-image');
  return images.length > 0 && nodes.every((node) => (node.object === 'text' ? node.leaves.every((l) => l.text.trim() === '') : node.type === 'inline-image'));
}

/** Converts inline content to phrasing content. */
export function inlineToPhrasing(nodes: InlineContent[], ctx: RenderContext, mode: PhrasingMode = {}, inLink = false): PhrasingContent[] {
  const lone = !inLink && onlyImages(nodes);
  const out: PhrasingContent[] = [];
  let leaves: DocumentLeaf[] = [];
  const flush = () => {
    out.push(...leavesToPhrasing(leaves, mode));
    leaves = [];
  };
  // The reader's normal form (nodes.ts), so that content written elsewhere is nested the way the reader reads it back.
  for (const piece of inlinePieces(normalizeInlines(inlinePieces(nodes)))) {
    if (piece.object === 'leaf') {
      leaves.push(piece);
      continue;
    }
    flush();
    switch (piece.type) {
      case 'link':
        out.push({ type: 'link', url: refHref(piece.data.ref, ctx.options), title: null, children: inlineToPhrasing(piece.nodes, ctx, mode, true) });
        break;
      case 'inline-image':
        out.push(image(piece, ctx, lone));
        break;
      case 'inline-math':
        out.push({ type: 'inlineMath', value: piece.data.formula });
        break;
      case 'annotation':
        out.push(...inlineToPhrasing(piece.nodes, ctx, mode, inLink), { type: 'footnoteReference', identifier: ctx.note(piece.fragments), label: null });
        break;
      default:
        out.push(...inlineHtml(piece, ctx));
    }
  }
  flush();
  // A Markdown line break right before inline HTML would make that HTML start a line, where it reads
  // as an HTML block; the writer would turn the break into a space, so it is written as `<br>`.
  return out.map((node, index): PhrasingContent => (node.type === 'break' && out[index + 1]?.type === 'html' ? { type: 'html', value: '<br>' } : node));
}
