import { mergeAttributes, Node } from '@tiptap/core';
import type { DocumentBlockColumn, DocumentBlockColumns, Length } from '../../../../src/content/markdown/types.ts';
import type { BlockSpec } from '../block-spec.ts';
import { headerView } from '../header-view.ts';
import { childrenToDocument, childrenToEditor } from '../plain-text.ts';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    columns: { insertColumns: (count?: number) => ReturnType };
  }
}

/** A length as written in the width field: `300` (pixels), `50%`, `12rem`. */
export function lengthToText(length: Length | undefined): string {
  if (length === undefined) return '';
  return typeof length === 'number' ? String(length) : `${length.value}${length.unit}`;
}

export function textToLength(text: string): Length | undefined | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z%]*)\s*$/i.exec(text);
  if (text.trim() === '') return undefined;
  if (!match) return null;
  return match[2] ? { unit: match[2], value: Number(match[1]) } : Number(match[1]);
}

const ColumnsNode = Node.create({
  name: 'columns',
  group: 'block',
  content: 'column+',
  defining: true,
  addAttributes() {
    return { fullWidth: { default: null, renderHTML: () => ({}) } };
  },
  parseHTML: () => [{ tag: 'div[data-columns]' }],
  renderHTML: ({ HTMLAttributes }) => ['div', mergeAttributes(HTMLAttributes, { 'data-columns': '', class: 'columns' }), 0],
  addCommands() {
    return {
      insertColumns:
        (count = 2) =>
        ({ commands }) =>
          commands.insertContent({ type: 'columns', content: Array.from({ length: count }, () => ({ type: 'column', content: [{ type: 'paragraph' }] })) }),
    };
  },
});

const ColumnNode = Node.create({
  name: 'column',
  content: 'block+',
  defining: true,
  isolating: true,
  addAttributes() {
    return { width: { default: '' } };
  },
  parseHTML: () => [{ tag: 'div[data-column]' }],
  renderHTML: () => ['div', { 'data-column': '', class: 'column' }, 0],
  addNodeView() {
    return (props) =>
      headerView(props, {
        tag: 'div',
        className: 'column',
        label: 'Column',
        fields: [{ attribute: 'width', label: 'Column width', placeholder: 'auto', check: (value) => (textToLength(value) === null ? 'Write a width such as 50% or 300' : null) }],
      });
  },
});

/** `columns` of `column` (optional width) ↔ columns side by side, each holding blocks. */
export const columns: BlockSpec = {
  documentTypes: ['columns'],
  nodeNames: ['columns'],
  extensions: [ColumnsNode, ColumnNode],
  toEditor(block, convert) {
    const { nodes, data } = block as DocumentBlockColumns;
    if (nodes.length === 0 || nodes.some((column) => column.type !== 'column')) return null;
    return {
      type: 'columns',
      attrs: { fullWidth: data?.fullWidth ?? null },
      content: nodes.map((column) => ({ type: 'column', attrs: { width: lengthToText(column.data?.width) }, content: childrenToEditor(column.nodes, convert) })),
    };
  },
  toDocument(node, convert) {
    const nodes: DocumentBlockColumn[] = (node.content ?? []).map((column) => {
      const width = textToLength(String(column.attrs?.width ?? ''));
      return { object: 'block', type: 'column', data: width ? { width } : {}, nodes: childrenToDocument(convert.blocksToDocument(column.content)), isVoid: false };
    });
    const fullWidth = node.attrs?.fullWidth;
    return { object: 'block', type: 'columns', data: typeof fullWidth === 'boolean' ? { fullWidth } : {}, nodes, isVoid: false };
  },
};
