import { mergeAttributes, Node } from '@tiptap/core';
import type { DocumentBlockExpandable, DocumentBlockParagraph } from '../../../../src/content/markdown/types.ts';
import type { BlockSpec } from '../block-spec.ts';
import { inlinesToDocument, inlinesToEditor } from '../inline.ts';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    expandable: { insertExpandable: () => ReturnType };
  }
}

const ExpandableNode = Node.create({
  name: 'expandable',
  group: 'block',
  content: 'expandableTitle expandableBody',
  defining: true,
  parseHTML: () => [{ tag: 'div[data-expandable]' }],
  renderHTML: ({ HTMLAttributes }) => ['div', mergeAttributes(HTMLAttributes, { 'data-expandable': '', class: 'expandable' }), 0],
  addCommands() {
    return {
      insertExpandable:
        () =>
        ({ commands }) =>
          commands.insertContent({ type: 'expandable', content: [{ type: 'expandableTitle' }, { type: 'expandableBody', content: [{ type: 'paragraph' }] }] }),
    };
  },
});
const ExpandableTitle = Node.create({
  name: 'expandableTitle',
  content: 'inline*',
  defining: true,
  parseHTML: () => [{ tag: 'div[data-expandable-title]' }],
  renderHTML: () => ['div', { 'data-expandable-title': '', class: 'expandable-title' }, 0],
});
const ExpandableBody = Node.create({
  name: 'expandableBody',
  content: 'block+',
  defining: true,
  parseHTML: () => [{ tag: 'div[data-expandable-body]' }],
  renderHTML: () => ['div', { 'data-expandable-body': '', class: 'expandable-body' }, 0],
});

/**
 * `expandable` (a void block of two fragments: `expandable-title`, one paragraph, and `expandable-body`,
 * blocks) ↔ an expandable node holding a title line and a body.
 */
export const expandable: BlockSpec = {
  documentTypes: ['expandable'],
  nodeNames: ['expandable'],
  extensions: [ExpandableNode, ExpandableTitle, ExpandableBody],
  toEditor(block, convert) {
    const { fragments } = block as DocumentBlockExpandable;
    const title = fragments.find((fragment) => fragment.fragment === 'expandable-title');
    const body = fragments.find((fragment) => fragment.fragment === 'expandable-body');
    if (fragments.length !== 2 || !title || !body || title.nodes.length !== 1 || title.nodes[0].type !== 'paragraph' || body.nodes.length === 0) return null;
    const titleContent = inlinesToEditor((title.nodes[0] as DocumentBlockParagraph).nodes);
    return {
      type: 'expandable',
      content: [
        { type: 'expandableTitle', ...(titleContent.length ? { content: titleContent } : {}) },
        { type: 'expandableBody', content: convert.blocksToEditor(body.nodes) },
      ],
    };
  },
  toDocument(node, convert) {
    const [title, body] = node.content ?? [];
    return {
      object: 'block',
      type: 'expandable',
      data: {},
      isVoid: true,
      fragments: [
        { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: inlinesToDocument(title?.content) }] },
        { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: convert.blocksToDocument(body?.content) },
      ],
    };
  },
};
