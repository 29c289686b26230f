import { mergeAttributes, Node } from '@tiptap/core';
import type { DocumentBlockTabs, DocumentBlockTabsItem } from '../../../../src/content/markdown/types.ts';
import type { BlockSpec } from '../block-spec.ts';
import { isEmptyParagraph } from '../plain-text.ts';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    tabs: { insertTabs: () => ReturnType };
  }
}

const TabsNode = Node.create({
  name: 'tabs',
  group: 'block',
  content: 'tabsItem+',
  defining: true,
  parseHTML: () => [{ tag: 'div[data-tabs]' }],
  renderHTML: ({ HTMLAttributes }) => ['div', mergeAttributes(HTMLAttributes, { 'data-tabs': '', class: 'tabs' }), 0],
  addCommands() {
    return {
      insertTabs:
        () =>
        ({ commands }) =>
          commands.insertContent({
            type: 'tabs',
            content: [
              { type: 'tabsItem', attrs: { title: 'First tab' }, content: [{ type: 'paragraph' }] },
              { type: 'tabsItem', attrs: { title: 'Second tab' }, content: [{ type: 'paragraph' }] },
            ],
          }),
    };
  },
});

const TabsItem = Node.create({
  name: 'tabsItem',
  content: 'block+',
  defining: true,
  addAttributes() {
    return { title: { default: '' }, icon: { default: null } };
  },
  parseHTML: () => [{ tag: 'section[data-tab]', getAttrs: (element) => ({ title: (element as HTMLElement).dataset.tab ?? '' }) }],
  renderHTML: ({ node }) => ['section', { 'data-tab': node.attrs.title, class: 'tabs-item' }, 0],
  addNodeView() {
    return ({ node, editor, getPos }) => {
      const dom = document.createElement('section');
      dom.className = 'tabs-item';
      const title = document.createElement('input');
      title.className = 'tabs-item-title';
      title.value = node.attrs.title;
      title.setAttribute('aria-label', 'Tab title');
      title.readOnly = !editor.isEditable;
      title.addEventListener('input', () => {
        const position = typeof getPos === 'function' ? getPos() : undefined;
        if (position !== undefined) editor.view.dispatch(editor.view.state.tr.setNodeAttribute(position, 'title', title.value));
      });
      const contentDOM = document.createElement('div');
      contentDOM.className = 'tabs-item-body';
      dom.append(title, contentDOM);
      return {
        dom,
        contentDOM,
        stopEvent: (event) => event.target === title,
        ignoreMutation: (mutation) => mutation.target === title || (mutation.type === 'attributes' && mutation.target === dom),
        update: (updated) => {
          if (updated.type.name !== 'tabsItem') return false;
          if (title.value !== updated.attrs.title) title.value = updated.attrs.title;
          return true;
        },
      };
    };
  },
});

/** `tabs` of `tabs-item` (title, icon, blocks) ↔ tabs of tabsItem nodes, each with its title in a field. */
export const tabs: BlockSpec = {
  documentTypes: ['tabs'],
  nodeNames: ['tabs'],
  extensions: [TabsNode, TabsItem],
  toEditor(block, convert) {
    const items = (block as DocumentBlockTabs).nodes;
    if (items.length === 0 || items.some((item) => item.type !== 'tabs-item')) return null;
    return {
      type: 'tabs',
      // An empty tab holds one empty line in the editor (which needs a block), and is empty again when saved.
      content: items.map((item) => ({ type: 'tabsItem', attrs: { title: item.data.title ?? '', icon: item.data.icon ?? null }, content: item.nodes.length ? convert.blocksToEditor(item.nodes) : [{ type: 'paragraph' }] })),
    };
  },
  toDocument(node, convert) {
    const nodes: DocumentBlockTabsItem[] = (node.content ?? []).map((item) => {
      const data: DocumentBlockTabsItem['data'] = { title: String(item.attrs?.title ?? '') };
      if (item.attrs?.icon) data.icon = item.attrs.icon;
      const nodes = convert.blocksToDocument(item.content);
      return { object: 'block', type: 'tabs-item', data, nodes: nodes.length === 1 && isEmptyParagraph(nodes[0]) ? [] : nodes };
    });
    return { object: 'block', type: 'tabs', data: {}, nodes };
  },
};
