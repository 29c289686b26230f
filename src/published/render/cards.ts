/**
 * A table in the cards view: a responsive grid of cards (content.css), one per record. A card shows its
 * cover (the cover column's first image file), then its visible text columns; the whole card links to
 * the target column's reference when it has one. Hidden columns show nothing.
 */
import type { DocumentBlockTable, DocumentFragment, DocumentTableRecord, DocumentTableViewCards } from '../../content/markdown/index.ts';
import { inlineText } from '../../content/markdown/nodes.ts';
import type { RenderContext } from './context.ts';
import { escapeAttribute, escapeHtml } from './escape.ts';
import { renderInlines } from './inlines.ts';
import { resolveRef } from './targets.ts';

function renderCell(fragment: DocumentFragment, ctx: RenderContext, out: string[]): void {
  const [only] = fragment.nodes ?? [];
  if (fragment.nodes.length === 1 && only.type === 'paragraph') {
    out.push('<p>');
    renderInlines(only.nodes ?? [], ctx, out);
    out.push('</p>');
  } else ctx.blocks(fragment.nodes ?? [], out);
}

function coverOf(record: DocumentTableRecord, view: DocumentTableViewCards, ctx: RenderContext): string | null {
  const value = view.coverDefinition ? record.values?.[view.coverDefinition] : undefined;
  const file = Array.isArray(value) ? value[0] : typeof value === 'object' && value !== null && value.kind === 'file' ? value.file : undefined;
  return typeof file === 'string' ? ctx.links.fileUrl(file) : null;
}

interface CardTarget {
  href: string;
  /** The title of the page the card leads to, when it leads to a page of the site. */
  title: string | null;
}

function targetOf(record: DocumentTableRecord, view: DocumentTableViewCards, ctx: RenderContext): CardTarget | null {
  const value = view.targetDefinition ? record.values?.[view.targetDefinition] : undefined;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const target = resolveRef(value, ctx.links);
  if (target.kind !== 'href') return null;
  const title = (value.kind === 'page' || (value.kind === 'anchor' && value.page)) ? ctx.links.pageTitle(value.page ?? '') : null;
  return { href: target.href, title };
}

/** Whether a cell shows anything: a fragment of empty paragraphs shows nothing. */
function showsText(fragment: DocumentFragment): boolean {
  return (fragment.nodes ?? []).some((node) => node.type !== 'paragraph' || inlineText(node.nodes ?? []).trim() !== '');
}

export function renderCards(block: DocumentBlockTable, view: DocumentTableViewCards, records: Array<[string, DocumentTableRecord]>, ctx: RenderContext, out: string[]): void {
  const definition = block.data.definition ?? {};
  const fragments = new Map((block.fragments ?? []).map((fragment) => [fragment.fragment, fragment]));
  const columns = (view.columns ?? []).filter((id) => id in definition && definition[id].type === 'text');
  out.push(`<div class="cards cards-${view.cardSize === 'large' ? 'large' : 'medium'}">`);
  for (const [, record] of records) {
    const target = targetOf(record, view, ctx);
    out.push(target ? `<a class="card-item" href="${escapeAttribute(target.href)}">` : '<div class="card-item">');
    const cover = coverOf(record, view, ctx);
    if (cover) out.push(`<img class="card-cover" src="${escapeAttribute(cover)}" alt="" loading="lazy" decoding="async">`);
    out.push('<div class="card-content">');
    const cells = columns.flatMap((id) => {
      const value = record.values?.[id];
      const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
      return fragment && showsText(fragment) ? [fragment] : [];
    });
    for (const fragment of cells) renderCell(fragment, ctx, out);
    // A card that says nothing but leads to a page is named by that page, as a content reference is.
    if (cells.length === 0 && target?.title) out.push(`<p class="card-title">${escapeHtml(target.title)}</p>`);
    out.push(target ? '</div></a>' : '</div></div>');
  }
  out.push('</div>');
}
