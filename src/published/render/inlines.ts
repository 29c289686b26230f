/**
 * Inline content → HTML: text leaves with their marks, links (to URLs, pages, anchors and files), inline
 * math and images, and the inlines without Markdown syntax that still have something to show (emoji,
 * buttons, annotations, mentions).
 */
import { blocksText } from '../../content/markdown/plain-text.ts';
import type { ContentRef, DocumentInline, DocumentInlineAnnotation, DocumentInlineButton, DocumentLeaf, DocumentMark, InlineContent } from '../../content/markdown/index.ts';
import { unreachable } from '../../content/markdown/nodes.ts';
import { iconSvg } from './icons.ts';
import type { RenderContext } from './context.ts';
import { escapeAttribute, escapeHtml } from './escape.ts';
import { renderMath } from './math.ts';
import { imageSource, pictureHtml, resolveRef, urlLabel, type Target } from './targets.ts';

const MARK_TAGS: Record<string, string> = {
  bold: 'strong', italic: 'em', strikethrough: 's', code: 'code', keyboard: 'kbd', superscript: 'sup', subscript: 'sub',
};

/** A colour name as a class suffix: `$primary` → `primary`; anything unexpected gives no class. */
function colorClass(prefix: string, color: unknown): string | undefined {
  if (typeof color !== 'string' || color === 'default') return undefined;
  const name = color.replace(/^\$/, '');
  return /^[a-z]+$/.test(name) ? `${prefix}-${name}` : undefined;
}

/** The opening and closing tags of a mark, or undefined for a mark the renderer does not know. */
function markTags(mark: DocumentMark): [string, string] | undefined {
  if (mark.type === 'color') {
    const classes = [colorClass('color', mark.data?.text), colorClass('background', mark.data?.background)].filter(Boolean);
    return classes.length > 0 ? [`<span class="${classes.join(' ')}">`, '</span>'] : undefined;
  }
  const tag = MARK_TAGS[mark.type];
  return tag ? [`<${tag}>`, `</${tag}>`] : undefined;
}

/** Text with its line breaks as `<br>`. */
export function textHtml(text: string): string {
  return escapeHtml(text).replace(/\n/g, '<br>');
}

function renderLeaf(leaf: DocumentLeaf, out: string[]): void {
  if (!leaf.text) return;
  const tags = (leaf.marks ?? []).map(markTags).filter((pair) => pair !== undefined);
  for (const [open] of tags) out.push(open);
  out.push(textHtml(leaf.text));
  for (let index = tags.length - 1; index >= 0; index--) out.push(tags[index][1]);
}

/** Content wrapped in a link to `target`: an anchor, a broken-link mark, or the bare content. */
export function linked(target: Target, content: () => void, out: string[], className?: string): void {
  const classAttribute = (extra: string | undefined) => {
    const names = [className, extra].filter(Boolean).join(' ');
    return names ? ` class="${names}"` : '';
  };
  if (target.kind === 'href') out.push(`<a href="${escapeAttribute(target.href)}"${classAttribute(undefined)}>`);
  else out.push(`<span${classAttribute(target.kind === 'broken' ? 'broken-link' : undefined)}>`);
  content();
  out.push(target.kind === 'href' ? '</a>' : '</span>');
}

/** An emoji from its code points (`1f1e8-1f1e6`); nothing for a code that is not one. */
function emoji(code: string | undefined): string {
  const parts = (code ?? '').split('-');
  if (parts.some((part) => !/^[0-9a-f]{1,6}$/i.test(part) || parseInt(part, 16) > 0x10ffff)) return '';
  return `<span class="emoji">${escapeHtml(String.fromCodePoint(...parts.map((part) => parseInt(part, 16))))}</span>`;
}

/** The title a reference shows: the page's own title for a page of the site, else what the link gives. */
function refTitle(ref: ContentRef, target: Target, ctx: RenderContext): string {
  if ((ref.kind === 'page' || ref.kind === 'anchor') && ref.page) return ctx.links.pageTitle(ref.page) ?? 'Missing page';
  if (ref.kind === 'url') return ref.url;
  return target.kind === 'href' ? urlLabel(target.href) : 'Missing link';
}

function renderButton(node: DocumentInlineButton, ctx: RenderContext, out: string[]): void {
  const kind = node.data.kind === 'secondary' ? 'secondary' : 'primary';
  const icon = node.data.icon ? iconSvg(node.data.icon) : '';
  const label = () => out.push(`${icon}${escapeHtml(node.data.label ?? '')}`);
  const action = node.data.action;
  if (action) {
    // A button that asks or searches: it leads to the site's search with its question.
    const href = `~search?q=${encodeURIComponent(action.query ?? node.data.label ?? '')}`;
    return linked({ kind: 'href', href }, label, out, `button button-${kind}`);
  }
  const target: Target = node.data.ref.kind === 'url' && node.data.ref.url === '' ? { kind: 'refused' } : resolveRef(node.data.ref, ctx.links);
  linked(target, label, out, `button button-${kind}`);
}

/**
 * An annotation: the annotated words, then a note marker that shows the note on hover and on focus
 * (content.css; readable without JavaScript, and announced through `aria-describedby`).
 */
function renderAnnotation(node: DocumentInlineAnnotation, ctx: RenderContext, out: string[]): void {
  const id = ctx.nextNoteId();
  out.push('<span class="annotation">');
  renderInlines(node.nodes ?? [], ctx, out);
  out.push(`<button type="button" class="annotation-marker" aria-describedby="${id}" aria-label="Note">${ctx.noteNumber(id)}</button>`);
  out.push(`<span class="annotation-note" role="tooltip" id="${id}">`);
  const body = (node.fragments ?? []).find((fragment) => fragment.fragment === 'annotation-body');
  const text = blocksText(body?.nodes ?? []);
  out.push(escapeHtml(text.join(' ')));
  out.push('</span></span>');
}

function renderInline(node: DocumentInline, ctx: RenderContext, out: string[]): void {
  switch (node.type) {
    case 'link':
      linked(resolveRef(node.data.ref, ctx.links), () => renderInlines(node.nodes ?? [], ctx, out), out);
      return;
    case 'inline-math':
      out.push(renderMath(node.data.formula ?? '', false));
      return;
    case 'inline-image': {
      const caption = node.data.caption ?? '';
      const src = imageSource(node.data.ref, ctx.links);
      if (src === null) out.push(`<span class="broken-link">${escapeHtml(caption)}</span>`);
      else out.push(pictureHtml(src, node.data.refDark, caption, ctx.links, [['class', node.data.size === 'line' ? 'inline-image inline-image-line' : 'inline-image']]));
      return;
    }
    case 'emoji':
      out.push(emoji(node.data.code));
      return;
    case 'icon':
      out.push(iconSvg(node.data.icon));
      return;
    case 'expression':
      // Evaluated before rendering; one left here has no value for this reader.
      return;
    case 'mention': {
      const target = resolveRef(node.data.ref, ctx.links);
      linked(target, () => out.push(escapeHtml(refTitle(node.data.ref, target, ctx))), out, 'mention');
      return;
    }
    case 'button':
      return renderButton(node, ctx, out);
    case 'annotation':
      return renderAnnotation(node, ctx, out);
    default:
      unreachable(node);
  }
}

/** Appends the HTML of inline content to `out`. */
export function renderInlines(nodes: InlineContent[], ctx: RenderContext, out: string[]): void {
  for (const node of nodes) {
    if (node.object === 'text') for (const leaf of node.leaves ?? []) renderLeaf(leaf, out);
    else if (node.object === 'inline') renderInline(node, ctx, out);
  }
}
