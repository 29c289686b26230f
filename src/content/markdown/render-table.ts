/**
 * The table block → a GFM table (the reverse of parse-table.ts). Records go in `orderIndex` order and
 * columns in the view's order. A cell's fragment becomes one line of inline Markdown (its paragraphs
 * joined by `<br>`); values of other column types are written as text.
 */
import type { BlockContent, PhrasingContent, Table, TableCell } from 'mdast';
import { renderHtmlTable } from './render-html-table.ts';
import { inlineToPhrasing, type RenderContext } from './render-inline.ts';
import { captionInline } from './render-media.ts';
import { refHref } from './refs.ts';
import type { DocumentBlockTable, DocumentTableDefinition, DocumentTableValue } from './types.ts';

function cellContent(value: DocumentTableValue | undefined, definition: DocumentTableDefinition, block: DocumentBlockTable, ctx: RenderContext): PhrasingContent[] {
  if (value === undefined) return [];
  if (typeof value === 'string' && definition.type === 'text') {
    const found = block.fragments.some((fragment) => fragment.fragment === value);
    if (found) return inlineToPhrasing(captionInline(block.fragments, value), ctx, { breaksAsHtml: true });
  }
  if (typeof value === 'object' && !Array.isArray(value)) {
    const url = refHref(value, ctx.options);
    return [{ type: 'link', url, title: null, children: [{ type: 'text', value: url }] }];
  }
  return [{ type: 'text', value: Array.isArray(value) ? value.join(', ') : String(value) }];
}

/** Whether GFM can say the table: a plain grid of text columns, each cell one paragraph, no widths or hidden columns. */
function fitsGfm(block: DocumentBlockTable): boolean {
  const { view, definition, fullWidth } = block.data;
  if (view.type !== 'grid' || view.columnWidths || fullWidth !== undefined) return false;
  const ids = Object.keys(definition);
  if (ids.some((id) => !view.columns.includes(id))) return false;
  if (ids.some((id) => definition[id].type !== 'text' || (definition[id] as { verticalAlignment?: string }).verticalAlignment)) return false;
  return block.fragments.every((fragment) => fragment.nodes.length === 1 && fragment.nodes[0].type === 'paragraph');
}

/** A table as GFM when it can be said so, else as the HTML table GitBook writes (render-html-table.ts). */
export function renderTableBlock(block: DocumentBlockTable, ctx: RenderContext): BlockContent {
  return fitsGfm(block) ? renderTable(block, ctx) : { type: 'html', value: renderHtmlTable(block, ctx) };
}

export function renderTable(block: DocumentBlockTable, ctx: RenderContext): Table {
  const { view, definition, records } = block.data;
  const hideHeader = view.type === 'grid' && view.hideHeader;
  const columns = view.columns.filter((id) => id in definition);
  const header = columns.map((id): TableCell => ({ type: 'tableCell', children: hideHeader || definition[id].title === '' ? [] : [{ type: 'text', value: definition[id].title }] }));
  const ordered = Object.entries(records).sort(([idA, a], [idB, b]) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : idA < idB ? -1 : idA > idB ? 1 : 0));
  const rows = ordered.map(([, record]) => ({
    type: 'tableRow' as const,
    children: columns.map((id): TableCell => ({ type: 'tableCell', children: cellContent(record.values[id], definition[id], block, ctx) })),
  }));
  const align = columns.map((id) => {
    const column = definition[id];
    return column.type === 'text' && column.textAlignment !== 'left' ? column.textAlignment : null;
  });
  return { type: 'table', align, children: [{ type: 'tableRow', children: header }, ...rows] };
}
