/**
 * HTML tables as GitBook writes them → the document's table block. GitBook writes a table as HTML when
 * Markdown cannot say it: column widths (`<th width="200">`), alignment (`align`, `style="text-align:…"`),
 * rich cells (paragraphs, lists, headings, icons), hidden columns (`data-hidden`), typed columns
 * (`data-type="content-ref" | "files" | "image" | "number" | "checkbox" | "rating" | "select" | "users"`)
 * and the cards view (`<table data-view="cards">`, `data-card-size`, `data-card-target`, `data-card-cover`).
 * Column ids are `c0`, `c1` …, records `r0`, `r1` …, text cells fragments `r<row>c<column>` (as GFM
 * tables, parse-table.ts).
 */
import type { Element, ElementContent } from 'hast';
import type { ParseContext } from './context.ts';
import { blocksOfHtmlNodes, parseHtmlFragment } from './parse-html-blocks.ts';
import { orderIndex } from './parse-table.ts';
import { fragment, paragraph } from './nodes.ts';
import { fileIdOf, linkRefOf } from './refs.ts';
import type {
  DocumentBlock,
  DocumentBlockTable,
  DocumentFragment,
  DocumentTableDefinition,
  DocumentTableRecord,
  DocumentTableValue,
  DocumentTableViewCards,
  DocumentTableViewGrid,
} from './types.ts';

function elements(nodes: ElementContent[] | undefined, name?: string): Element[] {
  return (nodes ?? []).filter((node): node is Element => node.type === 'element' && (name === undefined || node.tagName === name));
}

function attribute(element: Element, name: string): string | undefined {
  const value = element.properties?.[name];
  if (value === undefined || value === null || value === false) return undefined;
  return Array.isArray(value) ? value.join(' ') : String(value);
}

function has(element: Element, name: string): boolean {
  const value = element.properties?.[name];
  return value !== undefined && value !== null && value !== false;
}

function textOf(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element' && node.tagName !== 'select') return node.children.map(textOf).join('');
  return '';
}

type Alignment = 'left' | 'center' | 'right';

function alignmentOf(cell: Element | undefined): Alignment | undefined {
  if (!cell) return undefined;
  const align = attribute(cell, 'align') ?? /text-align:\s*(left|center|right)/.exec(attribute(cell, 'style') ?? '')?.[1];
  return align === 'left' || align === 'center' || align === 'right' ? align : undefined;
}

interface Column {
  id: string;
  head: Element;
  type: string;
  hidden: boolean;
}

/** The links of a cell (`<a href>`), in order. */
function linksOf(cell: Element): string[] {
  const found: string[] = [];
  const visit = (nodes: ElementContent[]) => {
    for (const node of nodes) {
      if (node.type !== 'element') continue;
      const href = node.tagName === 'a' ? attribute(node, 'href') : undefined;
      if (href !== undefined) found.push(href);
      else visit(node.children);
    }
  };
  visit(cell.children);
  return found;
}

function definitionOf(column: Column, rows: Element[][], index: number): DocumentTableDefinition {
  const title = textOf(column.head).trim();
  const base = { id: column.id, title };
  switch (column.type) {
    case 'content-ref':
      return { ...base, type: 'content-ref' };
    case 'files':
    case 'image':
      return { ...base, type: 'files' };
    case 'number':
      return { ...base, type: 'number' };
    case 'checkbox':
      return { ...base, type: 'checkbox' };
    case 'users':
      return { ...base, type: 'users' };
    case 'rating':
      return { ...base, type: 'rating', max: Number(attribute(column.head, 'dataMax') ?? 5) || 5 };
    case 'select': {
      const options = elements(elements(column.head.children, 'select')[0]?.children, 'option').map((option) => ({
        value: attribute(option, 'value') ?? '',
        label: attribute(option, 'label') ?? textOf(option),
        color: attribute(option, 'color') ?? 'default',
      }));
      return { ...base, type: 'select', multiple: has(column.head, 'dataMultiple'), options };
    }
    default: {
      const align = alignmentOf(column.head) ?? alignmentOf(rows.find((row) => row[index])?.[index]) ?? 'left';
      const valign = attribute(rows.find((row) => row[index])?.[index] ?? column.head, 'valign');
      return { ...base, type: 'text', textAlignment: align, ...(valign === 'top' || valign === 'middle' || valign === 'bottom' ? { verticalAlignment: valign } : {}) };
    }
  }
}

function valueOf(column: Column, cell: Element, name: string, ctx: ParseContext, fragments: DocumentFragment[]): DocumentTableValue | undefined {
  const text = textOf(cell).trim();
  switch (column.type) {
    case 'content-ref': {
      const [href] = linksOf(cell);
      return href === undefined ? undefined : linkRefOf(href, ctx.options);
    }
    case 'files':
    case 'image': {
      const files = linksOf(cell).map((href) => fileIdOf(href, ctx.options) ?? href);
      return files.length > 0 ? files : undefined;
    }
    case 'number':
    case 'rating':
      return text === '' || !Number.isFinite(Number(text)) ? undefined : Number(text);
    case 'checkbox':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'select': {
      const chosen = elements(cell.children, 'span').map((span) => attribute(span, 'dataOption')).filter((value): value is string => value !== undefined);
      return chosen.length > 0 ? chosen : undefined;
    }
    case 'users':
      return text === '' ? undefined : text.split(',').map((user) => user.trim());
    default: {
      const blocks: DocumentBlock[] = blocksOfHtmlNodes(cell.children, ctx);
      if (blocks.length === 0) return undefined;
      fragments.push(fragment(name, blocks.length > 0 ? blocks : [paragraph()]));
      return name;
    }
  }
}

/** The table an HTML block holds, when it holds exactly one table and nothing else. */
export function readHtmlTable(html: string, ctx: ParseContext): DocumentBlockTable | undefined {
  const root = parseHtmlFragment(html);
  const content = (root.children as ElementContent[]).filter((node) => !(node.type === 'text' && node.value.trim() === ''));
  const [table] = content;
  if (content.length !== 1 || table.type !== 'element' || table.tagName !== 'table') return undefined;
  const sections = elements(table.children);
  const head = elements(sections.find((section) => section.tagName === 'thead')?.children, 'tr')[0];
  const bodyRows = sections.flatMap((section) => (section.tagName === 'tbody' ? elements(section.children, 'tr') : section.tagName === 'tr' ? [section] : []));
  const headCells = head ? elements(head.children).filter((cell) => cell.tagName === 'th' || cell.tagName === 'td') : [];
  const rows = bodyRows.map((row) => elements(row.children).filter((cell) => cell.tagName === 'td' || cell.tagName === 'th'));
  const width = Math.max(headCells.length, ...rows.map((row) => row.length), 0);
  if (width === 0) return undefined;
  const columns: Column[] = Array.from({ length: width }, (_, index) => {
    const cell = headCells[index] ?? { type: 'element', tagName: 'th', properties: {}, children: [] };
    return { id: `c${index}`, head: cell, type: attribute(cell, 'dataType') ?? 'text', hidden: has(cell, 'dataHidden') };
  });
  const definition: Record<string, DocumentTableDefinition> = {};
  columns.forEach((column, index) => (definition[column.id] = definitionOf(column, rows, index)));
  const records: Record<string, DocumentTableRecord> = {};
  const fragments: DocumentFragment[] = [];
  rows.forEach((row, rowIndex) => {
    const values: DocumentTableRecord['values'] = {};
    row.forEach((cell, columnIndex) => {
      const value = valueOf(columns[columnIndex], cell, `r${rowIndex}c${columnIndex}`, ctx, fragments);
      if (value !== undefined) values[columns[columnIndex].id] = value;
    });
    records[`r${rowIndex}`] = { orderIndex: orderIndex(rowIndex, rows.length), values };
  });
  const visible = columns.filter((column) => !column.hidden).map((column) => column.id);
  const widths: Record<string, number> = {};
  for (const column of columns) {
    const value = Number(attribute(column.head, 'width'));
    if (attribute(column.head, 'width') !== undefined && Number.isFinite(value)) widths[column.id] = value;
  }
  let view: DocumentTableViewGrid | DocumentTableViewCards;
  if (attribute(table, 'dataView') === 'cards') {
    const size = attribute(table, 'dataCardSize');
    view = { type: 'cards', columns: visible, cardSize: size === 'large' ? 'large' : 'medium' };
    const target = columns.find((column) => has(column.head, 'dataCardTarget'));
    const cover = columns.find((column) => has(column.head, 'dataCardCover'));
    if (target) view.targetDefinition = target.id;
    if (cover) view.coverDefinition = cover.id;
    if (has(table, 'dataColumnTitleHidden')) view.hideColumnTitle = true;
  } else {
    const hideHeader = has(table, 'dataHeaderHidden') || columns.every((column) => textOf(column.head).trim() === '');
    view = { type: 'grid', columns: visible, hideHeader };
    if (Object.keys(widths).length > 0) view.columnWidths = widths;
  }
  const data: DocumentBlockTable['data'] = { view, records, definition };
  const fullWidth = attribute(table, 'dataFullWidth');
  if (fullWidth === 'true' || fullWidth === 'false') data.fullWidth = fullWidth === 'true';
  return { object: 'block', type: 'table', data, fragments, isVoid: true };
}
