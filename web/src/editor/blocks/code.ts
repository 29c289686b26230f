import CodeBlock from '@tiptap/extension-code-block';
import type { DocumentBlockCode, DocumentBlockCodeLine } from '../../../../src/content/markdown/types.ts';
import type { BlockSpec } from '../block-spec.ts';

/**
 * `code` ↔ codeBlock: the lines are the block's text joined by newlines; `syntax`, `title`, `overflow`,
 * `lineNumbers`, `fullWidth` and the highlighted lines are attributes. Lines holding anything but text are
 * beyond the editor's code block (the block is kept whole).
 */
export const code: BlockSpec = {
  documentTypes: ['code'],
  nodeNames: ['codeBlock'],
  extensions: [
    CodeBlock.extend({
      addAttributes() {
        return {
          ...this.parent?.(),
          title: { default: null, renderHTML: (attrs) => (attrs.title ? { 'data-title': attrs.title } : {}) },
          overflow: { default: null, renderHTML: () => ({}) },
          lineNumbers: { default: null, renderHTML: () => ({}) },
          fullWidth: { default: null, renderHTML: () => ({}) },
          highlighted: { default: null, renderHTML: () => ({}) },
        };
      },
    }),
  ],
  toEditor(block) {
    const { data, nodes } = block as DocumentBlockCode;
    const lines: string[] = [];
    const highlighted: number[] = [];
    for (const [index, line] of nodes.entries()) {
      if (!line.nodes.every((node) => node.object === 'text')) return null;
      lines.push(line.nodes.map((node) => (node.object === 'text' ? node.leaves.map((leaf) => leaf.text).join('') : '')).join(''));
      if (line.data?.highlighted) highlighted.push(index);
    }
    const text = lines.join('\n');
    return {
      type: 'codeBlock',
      attrs: { language: data.syntax ?? null, title: data.title ?? null, overflow: data.overflow ?? null, lineNumbers: data.lineNumbers ?? null, fullWidth: data.fullWidth ?? null, highlighted: highlighted.length ? highlighted : null },
      ...(text ? { content: [{ type: 'text', text }] } : {}),
    };
  },
  toDocument(node) {
    const attrs = node.attrs ?? {};
    const text = (node.content ?? []).map((child) => child.text ?? '').join('');
    const highlighted = new Set<number>(Array.isArray(attrs.highlighted) ? attrs.highlighted : []);
    const data: DocumentBlockCode['data'] = {};
    if (attrs.language) data.syntax = attrs.language;
    if (attrs.title) data.title = attrs.title;
    if (attrs.overflow) data.overflow = attrs.overflow;
    if (attrs.lineNumbers !== null && attrs.lineNumbers !== undefined) data.lineNumbers = attrs.lineNumbers;
    if (attrs.fullWidth) data.fullWidth = attrs.fullWidth;
    const nodes: DocumentBlockCodeLine[] = text.split('\n').map((line, index) => ({
      object: 'block',
      type: 'code-line',
      data: highlighted.has(index) ? { highlighted: true } : {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: line, marks: [] }] }],
    }));
    return { object: 'block', type: 'code', data, nodes };
  },
};
