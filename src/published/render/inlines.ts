/**
 * Inline content → HTML: text leaves with their marks, links (to URLs, pages, anchors and files), inline
 * math and images, and the inlines without Markdown syntax that still have something to show (emoji,
 * buttons, annotations, mentions).
 */
import { blocksText } from '../../content/markdown/plain-text.ts';
import type { ContentRef, DocumentBlock, DocumentInline, DocumentInlineOpaque, DocumentLeaf, DocumentMark, InlineContent, JsonValue } from '../../content/markdown/index.ts';
import type { RenderContext } from './context.ts';
import { escapeAttribute, escapeHtml } from './escape.ts';
import { renderMath } from './math.ts';
import { imageSource, pictureHtml, resolveRef, type Target } from './targets.ts';

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

function field(node: DocumentInlineOpaque, key: string): JsonValue | undefined {
  const data = node.data;
  return data && typeof data === 'object' && !Array.isArray(data) ? data[key] : undefined;
}

function stringField(node: DocumentInlineOpaque, key: string): string | undefined {
  const value = field(node, key);
  return typeof value === 'string' ? value : undefined;
}

const REF_FIELDS: Record<string, string> = { url: 'url', page: 'page', anchor: 'anchor', file: 'file' };

/** A reference found in an opaque node's JSON, when it has the field its kind needs (else it leads nowhere). */
function asRef(value: JsonValue | undefined): ContentRef | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value) || typeof value.kind !== 'string') return undefined;
  const needed = REF_FIELDS[value.kind];
  return needed && typeof value[needed] === 'string' ? (value as unknown as ContentRef) : undefined;
}

/** An emoji from its code points (`1f1e8-1f1e6`); nothing for a code that is not one. */
function emoji(code: string | undefined): string {
  const parts = (code ?? '').split('-');
  if (parts.some((part) => !/^[0-9a-f]{1,6}$/i.test(part) || parseInt(part, 16) > 0x10ffff)) return '';
  return `<span class="emoji">${escapeHtml(String.fromCodePoint(...parts.map((part) => parseInt(part, 16))))}</span>`;
}

/** Inlines without Markdown syntax, kept as they came (see opaque.ts); their shapes follow the client's schema. */
function renderOpaque(node: DocumentInlineOpaque, ctx: RenderContext, out: string[]): void {
  switch (node.type) {
    case 'emoji':
      out.push(emoji(stringField(node, 'code')));
      return;
    case 'button': {
      const ref = asRef(field(node, 'ref'));
      const target: Target = ref ? resolveRef(ref, ctx.links) : { kind: 'broken' };
      const kind = stringField(node, 'kind') === 'secondary' ? 'secondary' : 'primary';
      linked(target, () => out.push(escapeHtml(stringField(node, 'label') ?? '')), out, `button button-${kind}`);
      return;
    }
    case 'annotation': {
      // The note's text becomes a tooltip; the annotated words stay in the flow.
      const fragments = Array.isArray(node.fragments) ? node.fragments : [];
      const body = fragments.flatMap((fragment) => (fragment && typeof fragment === 'object' && !Array.isArray(fragment) && Array.isArray(fragment.nodes) ? blocksText(fragment.nodes as unknown as DocumentBlock[]) : []));
      out.push(`<span class="annotation" title="${escapeAttribute(body.join('\n'))}">`);
      renderInlines((Array.isArray(node.nodes) ? node.nodes : []) as unknown as InlineContent[], ctx, out);
      out.push('</span>');
      return;
    }
    default:
      // Icons need an icon set the site does not have; expressions and mentions are resolved (or not)
      // before rendering, and a mention carries no name of its own to show.
      return;
  }
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
    default:
      renderOpaque(node, ctx, out);
  }
}

/** Appends the HTML of inline content to `out`. */
export function renderInlines(nodes: InlineContent[], ctx: RenderContext, out: string[]): void {
  for (const node of nodes) {
    if (node.object === 'text') for (const leaf of node.leaves ?? []) renderLeaf(leaf, out);
    else if (node.object === 'inline') renderInline(node, ctx, out);
  }
}
