/**
 * A table in the cards view: a responsive grid of cards (content.css), one per record. A card shows its
 * cover (the cover column's first image file), then its visible text columns; the whole card links to
 * the target column's reference when it has one. Hidden columns show nothing.
 */
import type { DocumentBlockTable, DocumentFragment, DocumentTableRecord, DocumentTableViewCards } from '../../content/markdown/index.ts';
import type { RenderContext } from './context.ts';
import { escapeAttribute } from './escape.ts';
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

function targetOf(record: DocumentTableRecord, view: DocumentTableViewCards, ctx: RenderContext): string | null {
  const value = view.targetDefinition ? record.values?.[view.targetDefinition] : undefined;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const target = resolveRef(value, ctx.links);
  return target.kind === 'href' ? target.href : null;
}

export function renderCards(block: DocumentBlockTable, view: DocumentTableViewCards, records: Array<[string, DocumentTableRecord]>, ctx: RenderContext, out: string[]): void {
  const definition = block.data.definition ?? {};
  const fragments = new Map((block.fragments ?? []).map((fragment) => [fragment.fragment, fragment]));
  const columns = (view.columns ?? []).filter((id) => id in definition && definition[id].type === 'text');
  out.push(`<div class="cards cards-${view.cardSize === 'large' ? 'large' : 'medium'}">`);
  for (const [, record] of records) {
    const href = targetOf(record, view, ctx);
    out.push(href ? `<a class="card-item" href="${escapeAttribute(href)}">` : '<div class="card-item">');
    const cover = coverOf(record, view, ctx);
    if (cover) out.push(`<img class="card-cover" src="${escapeAttribute(cover)}" alt="" loading="lazy" decoding="async">`);
    out.push('<div class="card-content">');
    for (const id of columns) {
      const value = record.values?.[id];
      const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
      if (fragment) renderCell(fragment, ctx, out);
    }
    out.push(href ? '</div></a>' : '</div></div>');
  }
  out.push('</div>');
}
