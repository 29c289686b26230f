import { mergeAttributes, Node } from '@tiptap/core';
import type { DocumentBlockUpdate, DocumentBlockUpdates } from '../../../../src/content/markdown/types.ts';
import type { BlockSpec } from '../block-spec.ts';
import { headerView } from '../header-view.ts';
import { childrenToDocument, childrenToEditor } from '../plain-text.ts';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    updates: { insertUpdates: () => ReturnType };
  }
}

const UpdatesNode = Node.create({
  name: 'updates',
  group: 'block',
  content: 'update+',
  defining: true,
  addAttributes() {
    return { format: { default: null, renderHTML: () => ({}) } };
  },
  parseHTML: () => [{ tag: 'div[data-updates]' }],
  renderHTML: ({ HTMLAttributes }) => ['div', mergeAttributes(HTMLAttributes, { 'data-updates': '', class: 'updates' }), 0],
  addCommands() {
    return {
      insertUpdates:
        () =>
        ({ commands }) =>
          commands.insertContent({ type: 'updates', content: [{ type: 'update', attrs: { date: new Date().toISOString().slice(0, 10) }, content: [{ type: 'paragraph' }] }] }),
    };
  },
});

const UpdateNode = Node.create({
  name: 'update',
  content: 'block+',
  defining: true,
  addAttributes() {
    return { date: { default: '' }, title: { default: '' }, tags: { default: '' }, keep: { default: '' } };
  },
  parseHTML: () => [{ tag: 'section[data-update]' }],
  renderHTML: () => ['section', { 'data-update': '', class: 'update' }, 0],
  addNodeView() {
    return (props) =>
      headerView(props, {
        className: 'update',
        label: 'Update',
        fields: [
          { attribute: 'date', label: 'Date', placeholder: '2026-01-31' },
          { attribute: 'title', label: 'Title' },
          { attribute: 'tags', label: 'Tags', placeholder: 'comma, separated' },
        ],
      });
  },
});

/** `updates` (a timeline) of `update` (date, title, tags, blocks) ↔ the same, each update's fields above its blocks. */
export const updates: BlockSpec = {
  documentTypes: ['updates'],
  nodeNames: ['updates'],
  extensions: [UpdatesNode, UpdateNode],
  toEditor(block, convert) {
    const { nodes, data } = block as DocumentBlockUpdates;
    if (nodes.length === 0 || nodes.some((update) => update.type !== 'update')) return null;
    return {
      type: 'updates',
      attrs: { format: data?.format ?? null },
      content: nodes.map((update) => ({
        type: 'update',
        // Which fields were written at all (an empty title is not a missing one).
        attrs: { date: update.data.date ?? '', title: update.data.title ?? '', tags: (update.data.tags ?? []).join(', '), keep: Object.keys(update.data).join(',') },
        content: childrenToEditor(update.nodes, convert),
      })),
    };
  },
  toDocument(node, convert) {
    const nodes: DocumentBlockUpdate[] = (node.content ?? []).map((update) => {
      const attrs = update.attrs ?? {};
      const kept = String(attrs.keep ?? '').split(',');
      const data: DocumentBlockUpdate['data'] = {};
      if (attrs.date || kept.includes('date')) data.date = String(attrs.date ?? '');
      if (attrs.tags || kept.includes('tags')) data.tags = String(attrs.tags ?? '').split(',').map((tag) => tag.trim()).filter(Boolean);
      if (attrs.title || kept.includes('title')) data.title = String(attrs.title ?? '');
      return { object: 'block', type: 'update', data, nodes: childrenToDocument(convert.blocksToDocument(update.content)), isVoid: false };
    });
    return { object: 'block', type: 'updates', data: node.attrs?.format ? { format: String(node.attrs.format) } : {}, nodes, isVoid: false };
  },
};
