import { InputRule, Node } from '@tiptap/core';
import type { DocumentBlockMath } from '../../../../src/content/markdown/types.ts';
import type { BlockSpec } from '../block-spec.ts';
import { FieldView } from '../field-view.ts';
import { renderTex } from '../tex.ts';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    math: { insertMath: (formula?: string) => ReturnType };
  }
}

const MathNode = Node.create({
  name: 'math',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: true,
  addAttributes() {
    return { formula: { default: '' } };
  },
  parseHTML: () => [{ tag: 'div[data-math]', getAttrs: (element) => ({ formula: (element as HTMLElement).textContent ?? '' }) }],
  renderHTML: ({ node }) => ['div', { 'data-math': '', class: 'math-block' }, node.attrs.formula],
  addNodeView() {
    return (props) => new FieldView(props, { label: 'TeX formula', attribute: 'formula', className: 'math-block', multiline: true, preview: (element, formula) => renderTex(element, formula, true) });
  },
  addCommands() {
    return {
      insertMath:
        (formula = '') =>
        ({ commands }) =>
          commands.insertContent({ type: 'math', attrs: { formula } }),
    };
  },
  addInputRules() {
    // `$$` and a space on an empty line makes a formula block, as GitBook's `$$…$$` in Markdown.
    return [
      new InputRule({
        find: /^\$\$\s$/,
        handler: ({ state, range }) => {
          const $from = state.doc.resolve(range.from);
          state.tr.replaceWith($from.before(), $from.after(), this.type.create({ formula: '' }));
        },
      }),
    ];
  },
});

/** `math` (a TeX formula, KaTeX on the published site) ↔ a math node edited as its TeX source. */
export const math: BlockSpec = {
  documentTypes: ['math'],
  nodeNames: ['math'],
  extensions: [MathNode],
  toEditor: (block) => ({ type: 'math', attrs: { formula: (block as DocumentBlockMath).data.formula } }),
  toDocument: (node) => ({ object: 'block', type: 'math', data: { formula: String(node.attrs?.formula ?? '') }, isVoid: true }),
};
