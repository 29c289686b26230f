import { mergeAttributes, Node } from '@tiptap/core';
import type { DocumentBlockHint, HintStyle } from '../../../../src/content/markdown/types.ts';
import type { BlockSpec } from '../block-spec.ts';

export const HINT_STYLES: HintStyle[] = ['info', 'success', 'warning', 'danger'];

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    hint: { insertHint: (style: HintStyle) => ReturnType };
  }
}

const HintNode = Node.create({
  name: 'hint',
  group: 'block',
  content: 'block+',
  defining: true,
  addAttributes() {
    return { style: { default: 'info', renderHTML: () => ({}) }, icon: { default: null, renderHTML: () => ({}) } };
  },
  parseHTML: () => [{ tag: 'div[data-hint]', getAttrs: (element) => ({ style: (element as HTMLElement).dataset.hint }) }],
  renderHTML({ node, HTMLAttributes }) {
    return ['div', mergeAttributes(HTMLAttributes, { 'data-hint': node.attrs.style, class: `hint hint-${node.attrs.style}`, role: 'note', 'aria-label': `${node.attrs.style} hint` }), 0];
  },
  addCommands() {
    return {
      insertHint:
        (style) =>
        ({ commands }) =>
          commands.insertContent({ type: 'hint', attrs: { style }, content: [{ type: 'paragraph' }] }),
    };
  },
});

/** `hint` (four styles, optional icon) ↔ a hint node holding blocks. */
export const hint: BlockSpec = {
  documentTypes: ['hint'],
  nodeNames: ['hint'],
  extensions: [HintNode],
  toEditor(block, convert) {
    const { data, nodes } = block as DocumentBlockHint;
    return nodes.length ? { type: 'hint', attrs: { style: data.style, icon: data.icon ?? null }, content: convert.blocksToEditor(nodes) } : null;
  },
  toDocument(node, convert) {
    const data: DocumentBlockHint['data'] = { style: node.attrs?.style ?? 'info' };
    if (node.attrs?.icon) data.icon = node.attrs.icon;
    return { object: 'block', type: 'hint', data, nodes: convert.blocksToDocument(node.content) };
  },
};
