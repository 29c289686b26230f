/**
 * GFM tables → the document's table block. The mapping, the simplest that keeps everything a GFM table
 * can say:
 *
 * - one text column (`definition`) per column, ids `c0`, `c1`, …; its `title` is the plain text of the
 *   header cell and its `textAlignment` the column's alignment (`left` when the delimiter row gives none);
 * - one record per body row, ids `r0`, `r1`, … with `orderIndex` `a0000`, `a0001`, … (they sort as text);
 * - a cell's rich text is a fragment of the block, named `r<row>c<column>`, holding one paragraph; the
 *   record's value for the column is that fragment's name (how the client's document links text cells);
 *   empty cells have no value and no fragment;
 * - the view is a grid of all columns in order; `hideHeader` is true when every header cell is empty.
 */
import type { Table } from 'mdast';
import type { ParseContext } from './context.ts';
import { convertInline } from './parse-inline.ts';
import { fragment, inlineText, isBlankInline, paragraph } from './nodes.ts';
import type { DocumentBlockTable, DocumentFragment, DocumentTableDefinition, DocumentTableRecord } from './types.ts';

/** An order index that sorts as text in row order. */
export function orderIndex(row: number, rows: number): string {
  return `a${String(row).padStart(Math.max(4, String(rows).length), '0')}`;
}

export function convertTable(node: Table, ctx: ParseContext): DocumentBlockTable {
  const [header, ...rows] = node.children;
  const width = Math.max(node.align?.length ?? 0, ...node.children.map((row) => row.children.length));
  const columns = Array.from({ length: width }, (_, index) => `c${index}`);
  const titles = columns.map((_, index) => {
    const cell = header?.children[index];
    return cell ? inlineText(convertInline(cell.children, ctx)).trim() : '';
  });
  const definition: Record<string, DocumentTableDefinition> = {};
  columns.forEach((id, index) => {
    definition[id] = { id, title: titles[index], type: 'text', textAlignment: node.align?.[index] ?? 'left' };
  });
  const records: Record<string, DocumentTableRecord> = {};
  const fragments: DocumentFragment[] = [];
  rows.forEach((row, rowIndex) => {
    const values: DocumentTableRecord['values'] = {};
    row.children.forEach((cell, columnIndex) => {
      const nodes = convertInline(cell.children, ctx);
      if (isBlankInline(nodes)) return;
      const name = `r${rowIndex}c${columnIndex}`;
      values[columns[columnIndex]] = name;
      fragments.push(fragment(name, [paragraph(nodes)]));
    });
    records[`r${rowIndex}`] = { orderIndex: orderIndex(rowIndex, rows.length), values };
  });
  return {
    object: 'block',
    type: 'table',
    data: { view: { type: 'grid', columns, hideHeader: titles.every((title) => title === '') }, records, definition },
    fragments,
    isVoid: true,
  };
}
