import { TaskList } from '@tiptap/extension-list';
import type { DocumentBlockListTasks } from '../../../../src/content/markdown/types.ts';
import type { BlockSpec } from '../block-spec.ts';
import { itemsToDocument, itemsToEditor } from './list-item.ts';

/** `list-tasks` ↔ taskList of taskItems (`[ ]` or `[x]` and a space). */
export const listTasks: BlockSpec = {
  documentTypes: ['list-tasks'],
  nodeNames: ['taskList'],
  extensions: [TaskList],
  toEditor(block, convert) {
    const content = itemsToEditor((block as DocumentBlockListTasks).nodes, convert, true);
    return content && { type: 'taskList', content };
  },
  toDocument(node, convert) {
    return { object: 'block', type: 'list-tasks', data: {}, nodes: itemsToDocument(node.content, convert) };
  },
};
