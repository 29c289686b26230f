import Blockquote from '@tiptap/extension-blockquote';
import type { DocumentBlockQuote } from '../../../../src/content/markdown/types.ts';
import type { BlockSpec } from '../block-spec.ts';

/** `blockquote` ↔ blockquote (`>` and a space). */
export const blockquote: BlockSpec = {
  documentTypes: ['blockquote'],
  nodeNames: ['blockquote'],
  extensions: [Blockquote],
  toEditor(block, convert) {
    const nodes = (block as DocumentBlockQuote).nodes;
    return nodes.length ? { type: 'blockquote', content: convert.blocksToEditor(nodes) } : null;
  },
  toDocument(node, convert) {
    return { object: 'block', type: 'blockquote', data: {}, nodes: convert.blocksToDocument(node.content) };
  },
};
