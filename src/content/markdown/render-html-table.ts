/**
 * The table block → the HTML table GitBook writes when Markdown cannot say it (the reverse of
 * parse-html-table.ts): one line, `<table …><thead><tr><th …>…</th>…</tr></thead><tbody>…</tbody></table>`.
 */
import { escapeAttribute } from './html.ts';
import type { RenderContext } from './render-inline.ts';
import { cellHtml, escapeHtmlText } from './render-html.ts';
import { fileHref, refHref } from './refs.ts';
import type { DocumentBlockTable, DocumentTableDefinition, DocumentTableValue } from './types.ts';

function attributes(pairs: Array<[string, string | boolean | undefined]>): string {
  return pairs
    .filter((pair): pair is [string, string | true] => pair[1] !== undefined && pair[1] !== false)
    .map(([name, value]) => (value === true ? ` ${name}` : ` ${name}="${escapeAttribute(value)}"`))
    .join('');
}

function baseName(url: string): string {
  return url.split('#')[0].replace(/\/$/, '').split('/').pop() || '.';
}

const TYPE_ATTRIBUTE: Partial<Record<DocumentTableDefinition['type'], string>> = {
  'content-ref': 'content-ref', files: 'files', number: 'number', checkbox: 'checkbox', rating: 'rating', select: 'select', users: 'users',
};

function headerCell(id: string, block: DocumentBlockTable, visible: boolean): string {
  const { view, definition } = block.data;
  const column = definition[id];
  const width = view.type === 'grid' ? view.columnWidths?.[id] : undefined;
  const align = column.type === 'text' && column.textAlignment !== 'left' ? column.textAlignment : undefined;
  const cards = view.type === 'cards' ? view : undefined;
  const attrs = attributes([
    ['width', width === undefined ? undefined : String(width)],
    ['align', align],
    ['data-hidden', !visible],
    ['data-card-target', cards?.targetDefinition === id],
    ['data-card-cover', cards?.coverDefinition === id],
    ['data-type', TYPE_ATTRIBUTE[column.type]],
    ['data-multiple', column.type === 'select' && column.multiple],
    ['data-max', column.type === 'rating' ? String(column.max) : undefined],
  ]);
  const options = column.type === 'select'
    ? `<select>${column.options.map((option) => `<option value="${escapeAttribute(option.value)}" label="${escapeAttribute(option.label)}" color="${escapeAttribute(option.color)}"></option>`).join('')}</select>`
    : '';
  return `<th${attrs}>${escapeHtmlText(column.title)}${options}</th>`;
}

function valueHtml(value: DocumentTableValue | undefined, column: DocumentTableDefinition, block: DocumentBlockTable, ctx: RenderContext): string {
  if (value === undefined) return '';
  switch (column.type) {
    case 'text': {
      const fragment = typeof value === 'string' ? block.fragments.find((candidate) => candidate.fragment === value) : undefined;
      return fragment ? cellHtml(fragment.nodes, ctx) : escapeHtmlText(String(value));
    }
    case 'content-ref': {
      if (typeof value !== 'object' || Array.isArray(value)) return escapeHtmlText(String(value));
      const url = refHref(value, ctx.options);
      return `<a href="${escapeAttribute(url)}">${escapeHtmlText(ctx.options.refTitle?.(value) ?? baseName(url))}</a>`;
    }
    case 'files':
      return (Array.isArray(value) ? value : [String(value)])
        .map((file) => {
          const url = fileHref(file, ctx.options);
          return `<a href="${escapeAttribute(url)}">${escapeHtmlText(baseName(url))}</a>`;
        })
        .join('');
    case 'select': {
      const chosen = Array.isArray(value) ? value : [String(value)];
      return chosen.map((id) => `<span data-option="${escapeAttribute(id)}">${escapeHtmlText(column.options.find((option) => option.value === id)?.label ?? id)}</span>`).join('');
    }
    default:
      return escapeHtmlText(Array.isArray(value) ? value.join(', ') : String(value));
  }
}

export function renderHtmlTable(block: DocumentBlockTable, ctx: RenderContext): string {
  const { view, definition, records, fullWidth } = block.data;
  const visible = view.columns.filter((id) => id in definition);
  const columns = [...visible, ...Object.keys(definition).filter((id) => !visible.includes(id))];
  const cards = view.type === 'cards' ? view : undefined;
  const tableAttrs = attributes([
    ['data-card-size', cards && cards.cardSize !== 'medium' ? cards.cardSize : undefined],
    ['data-column-title-hidden', cards?.hideColumnTitle === true],
    ['data-full-width', fullWidth === undefined ? undefined : String(fullWidth)],
    ['data-header-hidden', view.type === 'grid' && view.hideHeader && columns.some((id) => definition[id].title !== '')],
    ['data-view', cards ? 'cards' : undefined],
  ]);
  const head = columns.map((id) => headerCell(id, block, visible.includes(id))).join('');
  const ordered = Object.entries(records).sort(([idA, a], [idB, b]) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : idA < idB ? -1 : idA > idB ? 1 : 0));
  const rows = ordered
    .map(([, record]) => {
      const cells = columns.map((id) => {
        const column = definition[id];
        const align = column.type === 'text' && column.textAlignment !== 'left' ? column.textAlignment : undefined;
        const valign = column.type === 'text' ? column.verticalAlignment : undefined;
        return `<td${attributes([['align', align], ['valign', valign]])}>${valueHtml(record.values[id], column, block, ctx)}</td>`;
      });
      return `<tr>${cells.join('')}</tr>`;
    })
    .join('');
  return `<table${tableAttrs}><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}
