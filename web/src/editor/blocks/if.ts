import { mergeAttributes, Node } from '@tiptap/core';
import type { DocumentBlockIf } from '../../../../src/content/markdown/types.ts';
import { parse } from '../../../../src/expressions/parser.ts';
import { PAGE_DIALECT } from '../../../../src/expressions/page.ts';
import type { BlockSpec } from '../block-spec.ts';
import { headerView } from '../header-view.ts';
import { childrenToDocument, childrenToEditor } from '../plain-text.ts';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    ifBlock: { insertIf: (expression?: string) => ReturnType };
  }
}

/** What is wrong with a condition, in the words the server uses (the one expression language, src/expressions/). */
export function conditionProblem(source: string): string | null {
  try {
    parse(source, PAGE_DIALECT);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

const IfNode = Node.create({
  name: 'ifBlock',
  group: 'block',
  content: 'block+',
  defining: true,
  addAttributes() {
    return { expression: { default: '' } };
  },
  parseHTML: () => [{ tag: 'div[data-if]', getAttrs: (element) => ({ expression: (element as HTMLElement).dataset.if ?? '' }) }],
  renderHTML: ({ node, HTMLAttributes }) => ['div', mergeAttributes(HTMLAttributes, { 'data-if': node.attrs.expression, class: 'if-block' }), 0],
  addNodeView() {
    return (props) => headerView(props, { tag: 'div', className: 'if-block', label: 'Adaptive content', fields: [{ attribute: 'expression', label: 'Shown when', placeholder: 'visitor.claims.plan == "pro"', check: conditionProblem }] });
  },
  addCommands() {
    return {
      insertIf:
        (expression = '') =>
        ({ commands }) =>
          commands.insertContent({ type: 'ifBlock', attrs: { expression }, content: [{ type: 'paragraph' }] }),
    };
  },
});

/** `if` (adaptive content: its blocks shown when the condition holds) ↔ an ifBlock node with its condition in a checked field. */
export const ifBlock: BlockSpec = {
  documentTypes: ['if'],
  nodeNames: ['ifBlock'],
  extensions: [IfNode],
  toEditor: (block, convert) => ({ type: 'ifBlock', attrs: { expression: (block as DocumentBlockIf).data.expression }, content: childrenToEditor((block as DocumentBlockIf).nodes, convert) }),
  toDocument: (node, convert) => ({ object: 'block', type: 'if', data: { expression: String(node.attrs?.expression ?? '') }, nodes: childrenToDocument(convert.blocksToDocument(node.content)) }),
};
