/**
 * The table block as a real `<table>`: columns in the view's order, rows in `orderIndex` order, a header
 * row unless the view hides it. Text cells hold a fragment of rich text; the other column types are
 * shown as text (checkboxes as disabled boxes, selects by their labels, files and references as links).
 */
import type { DocumentBlockTable, DocumentFragment, DocumentTableDefinition, DocumentTableRecord, DocumentTableValue } from '../../content/markdown/index.ts';
import type { RenderContext } from './context.ts';
import { escapeHtml } from './escape.ts';
import { linked, renderInlines } from './inlines.ts';
import { resolveRef, urlLabel } from './targets.ts';
import { renderCards } from './cards.ts';

const ALIGN_CLASS: Record<string, string> = { center: 'align-center', right: 'align-end' };

function alignment(definition: DocumentTableDefinition): string {
  const align = definition.type === 'text' ? ALIGN_CLASS[definition.textAlignment] : definition.type === 'number' ? 'align-end' : undefined;
  return align ? ` class="${align}"` : '';
}

/** A text cell's fragment: one paragraph inline, anything richer as blocks. */
function renderFragment(fragment: DocumentFragment, ctx: RenderContext, out: string[]): void {
  const [only] = fragment.nodes ?? [];
  if (fragment.nodes.length === 1 && only.type === 'paragraph') renderInlines(only.nodes ?? [], ctx, out);
  else ctx.blocks(fragment.nodes ?? [], out);
}

function renderFiles(ids: string[], ctx: RenderContext, out: string[]): void {
  ids.forEach((id, index) => {
    if (index > 0) out.push(', ');
    const href = ctx.links.fileUrl(id);
    linked(href === null ? { kind: 'broken' } : { kind: 'href', href }, () => out.push(escapeHtml(href === null ? 'Missing file' : urlLabel(href))), out);
  });
}

function renderValue(value: DocumentTableValue | undefined, definition: DocumentTableDefinition, fragments: Map<string, DocumentFragment>, ctx: RenderContext, out: string[]): void {
  if (value === undefined || value === null) return;
  const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
  if (fragment && definition.type === 'text') return renderFragment(fragment, ctx, out);
  if (typeof value === 'boolean' || definition.type === 'checkbox') {
    out.push(`<input type="checkbox" disabled${value === true ? ' checked' : ''}>`);
    return;
  }
  if (typeof value === 'object' && !Array.isArray(value)) {
    const target = resolveRef(value, ctx.links);
    const label = value.kind === 'url' ? value.url : target.kind !== 'href' ? 'Missing link' : value.kind === 'file' ? urlLabel(target.href) : target.href;
    linked(target, () => out.push(escapeHtml(label)), out);
    return;
  }
  const values = Array.isArray(value) ? value : [value];
  if (definition.type === 'files') return renderFiles(values.map(String), ctx, out);
  if (definition.type === 'select') {
    const labels = new Map(definition.options.map((option) => [option.value, option.label]));
    out.push(escapeHtml(values.map((item) => labels.get(String(item)) ?? String(item)).join(', ')));
    return;
  }
  // Users are ids the site cannot name; they are left out rather than shown as codes.
  if (definition.type === 'users') return;
  out.push(escapeHtml(values.map(String).join(', ')));
}

function byOrder([idA, a]: [string, DocumentTableRecord], [idB, b]: [string, DocumentTableRecord]): number {
  if (a.orderIndex !== b.orderIndex) return a.orderIndex < b.orderIndex ? -1 : 1;
  return idA < idB ? -1 : idA > idB ? 1 : 0;
}

export function renderTable(block: DocumentBlockTable, ctx: RenderContext, out: string[]): void {
  const { view, definition = {}, records = {} } = block.data ?? {};
  if (view?.type === 'cards') return renderCards(block, view, Object.entries(records).sort(byOrder), ctx, out);
  const columns = (view?.columns ?? []).filter((id) => id in definition).map((id): [string, DocumentTableDefinition] => [id, definition[id]]);
  // Cells name their fragment; one lookup table keeps large tables linear.
  const fragments = new Map((block.fragments ?? []).map((fragment) => [fragment.fragment, fragment]));
  out.push(`<div class="table-wrapper${block.data?.fullWidth ? ' full-width' : ''}"><table>`);
  const widths = view?.type === 'grid' ? view.columnWidths : undefined;
  if (widths && columns.some(([id]) => widths[id] !== undefined)) {
    // Column widths as GitBook's editor set them, in pixels (a style attribute per column).
    out.push('<colgroup>');
    for (const [id] of columns) out.push(widths[id] !== undefined && Number.isFinite(widths[id]) ? `<col style="width:${Math.round(widths[id])}px">` : '<col>');
    out.push('</colgroup>');
  }
  const hideHeader = view?.type === 'grid' ? view.hideHeader : false;
  if (!hideHeader) {
    out.push('<thead><tr>');
    for (const [, column] of columns) out.push(`<th${alignment(column)}>${escapeHtml(column.title ?? '')}</th>`);
    out.push('</tr></thead>');
  }
  out.push('<tbody>');
  for (const [, record] of Object.entries(records).sort(byOrder)) {
    out.push('<tr>');
    for (const [id, column] of columns) {
      out.push(`<td${alignment(column)}>`);
      renderValue(record.values?.[id], column, fragments, ctx, out);
      out.push('</td>');
    }
    out.push('</tr>');
  }
  out.push('</tbody></table></div>');
}
