import Paragraph from '@tiptap/extension-paragraph';
import type { DocumentBlockParagraph } from '../../../../src/content/markdown/types.ts';
import type { BlockSpec } from '../block-spec.ts';
import { inlinesToDocument, inlinesToEditor } from '../inline.ts';

/** `paragraph` (with `data.align`) ↔ the editor's paragraph. */
export const paragraph: BlockSpec = {
  documentTypes: ['paragraph'],
  nodeNames: ['paragraph'],
  extensions: [
    Paragraph.extend({
      addAttributes() {
        return { align: { default: null, renderHTML: (attrs) => (attrs.align ? { class: `align-${attrs.align}` } : {}) } };
      },
    }),
  ],
  toEditor(block) {
    const { data, nodes } = block as DocumentBlockParagraph;
    const content = inlinesToEditor(nodes);
    return { type: 'paragraph', attrs: { align: data?.align ?? null }, ...(content.length ? { content } : {}) };
  },
  toDocument(node) {
    return { object: 'block', type: 'paragraph', data: node.attrs?.align ? { align: node.attrs.align } : {}, nodes: inlinesToDocument(node.content) };
  },
};
