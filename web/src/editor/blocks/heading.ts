import Heading from '@tiptap/extension-heading';
import type { DocumentBlockHeading, HeadingType } from '../../../../src/content/markdown/types.ts';
import type { BlockSpec } from '../block-spec.ts';
import { inlinesToDocument, inlinesToEditor } from '../inline.ts';

/**
 * `heading-1`…`heading-3` ↔ the editor's heading of level 1–3 (the page's title stands above them, so a
 * heading-1 is Markdown's `##`). `#`, `##`, `###` and a space make them.
 */
export const heading: BlockSpec = {
  documentTypes: ['heading-1', 'heading-2', 'heading-3'],
  nodeNames: ['heading'],
  extensions: [
    Heading.extend({
      addAttributes() {
        return { ...this.parent?.(), anchor: { default: null, renderHTML: () => ({}) }, align: { default: null, renderHTML: () => ({}) } };
      },
    }).configure({ levels: [1, 2, 3] }),
  ],
  toEditor(block) {
    const { type, data, nodes } = block as DocumentBlockHeading;
    const content = inlinesToEditor(nodes);
    return { type: 'heading', attrs: { level: Number(type.slice(-1)), anchor: data?.id ?? null, align: data?.align ?? null }, ...(content.length ? { content } : {}) };
  },
  toDocument(node) {
    const data: DocumentBlockHeading['data'] = {};
    if (node.attrs?.anchor) data.id = node.attrs.anchor;
    if (node.attrs?.align) data.align = node.attrs.align;
    return { object: 'block', type: `heading-${node.attrs?.level ?? 1}` as HeadingType, data, nodes: inlinesToDocument(node.content) };
  },
};
