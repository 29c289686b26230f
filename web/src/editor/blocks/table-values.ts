import type { DocumentTableDefinition, DocumentTableValue } from '../../../../src/content/markdown/types.ts';

/**
 * The values of a table's typed columns (numbers, checkboxes, ratings, people, files, options, links) as the
 * editor keeps them: in the cell's `value` attribute, as JSON ('' when the cell is empty). These are the
 * document model's own values, written back as read; only the types listed here are edited.
 */
export type TypedColumn = Exclude<DocumentTableDefinition, { type: 'text' }>;

const TYPED = new Set<string>(['number', 'checkbox', 'rating', 'users', 'files', 'select', 'content-ref']);

/** Whether a column holds values the editor edits with a control (not text). */
export function isTyped(column: DocumentTableDefinition | null | undefined): column is TypedColumn {
  return column !== null && column !== undefined && TYPED.has(column.type);
}

/** Whether `value` is what a column of this type holds (as the importer reads it), so it can be edited and written back. */
export function fitsColumn(column: TypedColumn, value: DocumentTableValue): boolean {
  switch (column.type) {
    case 'number':
    case 'rating':
      return typeof value === 'number' && Number.isFinite(value);
    case 'checkbox':
      return typeof value === 'boolean';
    case 'users':
    case 'files':
    case 'select':
      return Array.isArray(value) && value.every((item) => typeof item === 'string' && item !== '');
    case 'content-ref':
      return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { kind?: unknown }).kind === 'string';
  }
  return false;
}

/** A cell's `value` attribute → the document's value (undefined for an empty cell). */
export function readValue(attribute: unknown): DocumentTableValue | undefined {
  if (typeof attribute !== 'string' || attribute === '') return undefined;
  const value = JSON.parse(attribute) as DocumentTableValue | null;
  if (value === null || (Array.isArray(value) && value.length === 0)) return undefined;
  return value;
}

/** The document's value → a cell's `value` attribute. */
export function writeValue(value: DocumentTableValue | undefined): string {
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return '';
  return JSON.stringify(value);
}

/** A cell's `column` attribute (its column's definition, as JSON) → the definition, or null for a new column. */
export function readColumn(attribute: unknown): DocumentTableDefinition | null {
  return typeof attribute === 'string' && attribute !== '' ? (JSON.parse(attribute) as DocumentTableDefinition) : null;
}
