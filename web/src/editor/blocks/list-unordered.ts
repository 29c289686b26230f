import { BulletList } from '@tiptap/extension-list';
import type { DocumentBlockListUnordered } from '../../../../src/content/markdown/types.ts';
import type { BlockSpec } from '../block-spec.ts';
import { itemsToDocument, itemsToEditor, listItemExtensions } from './list-item.ts';

/** `list-unordered` ↔ bulletList (`-` or `*` and a space). */
export const listUnordered: BlockSpec = {
  documentTypes: ['list-unordered'],
  nodeNames: ['bulletList'],
  extensions: [BulletList, ...listItemExtensions],
  toEditor(block, convert) {
    const content = itemsToEditor((block as DocumentBlockListUnordered).nodes, convert, false);
    return content && { type: 'bulletList', content };
  },
  toDocument(node, convert) {
    return { object: 'block', type: 'list-unordered', data: {}, nodes: itemsToDocument(node.content, convert) };
  },
};
