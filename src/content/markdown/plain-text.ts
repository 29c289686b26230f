/**
 * The text of a document, for search: every block's words in reading order, blocks on lines of their
 * own, headings included. Table cells follow row order; code, formulas, captions, image descriptions and
 * tab titles count as text; references contribute nothing (their targets are indexed where they live).
 */
import { inlineText, unreachable } from './nodes.ts';
import type { DocumentBlock, DocumentBlockTable, DocumentFragment } from './types.ts';

function fragmentsText(fragments: DocumentFragment[] | undefined, names?: string[]): string[] {
  return (fragments ?? []).filter((fragment) => !names || names.includes(fragment.fragment)).flatMap((fragment) => blocksText(fragment.nodes));
}

function tableText(block: DocumentBlockTable): string[] {
  const { view, definition, records } = block.data;
  const columns = view.columns.filter((id) => id in definition);
  const lines = [columns.map((id) => definition[id].title).join(' ').trim()];
  const ordered = Object.values(records).sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0));
  for (const record of ordered) {
    const cells = columns.map((id) => {
      const value = record.values[id];
      const fragment = typeof value === 'string' ? block.fragments.find((candidate) => candidate.fragment === value) : undefined;
      if (fragment) return blocksText(fragment.nodes).join(' ');
      if (value === undefined || (typeof value === 'object' && !Array.isArray(value))) return '';
      return Array.isArray(value) ? value.join(' ') : String(value);
    });
    lines.push(cells.join(' ').trim());
  }
  return lines.filter((line) => line !== '');
}

/** The text lines of one block. */
export function blockText(block: DocumentBlock): string[] {
  switch (block.type) {
    case 'paragraph':
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
      return [inlineText(block.nodes)];
    case 'code':
      return block.nodes.map((line) => line.nodes.map((node) => (node.object === 'text' ? node.leaves.map((l) => l.text).join('') : '')).join(''));
    case 'code-line':
      return [block.nodes.map((node) => (node.object === 'text' ? node.leaves.map((l) => l.text).join('') : '')).join('')];
    case 'math':
      return [block.data.formula];
    case 'divider':
    case 'content-ref':
    case 'reusable-content':
    case 'drawing':
    case 'integration':
    case 'swagger':
    case 'openapi-operation':
    case 'openapi-schemas':
    case 'openapi-webhook':
      return [];
    case 'table':
      return tableText(block);
    case 'image':
      return [block.data.alt ?? '', ...fragmentsText(block.fragments)];
    case 'file':
    case 'embed':
      return fragmentsText(block.fragments);
    case 'expandable':
      return fragmentsText(block.fragments, ['expandable-title', 'expandable-body']);
    case 'tabs-item':
      return [block.data.title ?? '', ...blocksText(block.nodes)];
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks':
    case 'list-item':
    case 'blockquote':
    case 'hint':
    case 'images':
    case 'tabs':
    case 'stepper':
    case 'stepper-step':
    case 'columns':
    case 'column':
    case 'updates':
      return blocksText(block.nodes);
    case 'if':
      // Shown only to some readers: never indexed, so search cannot reveal it to the others.
      return [];
    case 'update':
      return [block.data.title ?? '', ...blocksText(block.nodes)];
    default:
      return unreachable(block);
  }
}


/** The text lines of blocks, empty lines dropped. */
export function blocksText(blocks: DocumentBlock[]): string[] {
  return blocks.flatMap(blockText).map((line) => line.trim()).filter((line) => line !== '');
}
