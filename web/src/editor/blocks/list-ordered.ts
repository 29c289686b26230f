import { OrderedList } from '@tiptap/extension-list';
import type { DocumentBlockListOrdered } from '../../../../src/content/markdown/types.ts';
import type { BlockSpec } from '../block-spec.ts';
import { itemsToDocument, itemsToEditor } from './list-item.ts';

/** `list-ordered` (`data.start`) ↔ orderedList (`1.` and a space). */
export const listOrdered: BlockSpec = {
  documentTypes: ['list-ordered'],
  nodeNames: ['orderedList'],
  extensions: [OrderedList],
  toEditor(block, convert) {
    const list = block as DocumentBlockListOrdered;
    const content = itemsToEditor(list.nodes, convert, false);
    return content && { type: 'orderedList', attrs: { start: list.data?.start ?? 1 }, content };
  },
  toDocument(node, convert) {
    const start = Number(node.attrs?.start ?? 1);
    return { object: 'block', type: 'list-ordered', data: start !== 1 ? { start } : {}, nodes: itemsToDocument(node.content, convert) };
  },
};
