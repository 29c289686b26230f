import type { JSONContent } from '@tiptap/core';
import { ListItem, TaskItem } from '@tiptap/extension-list';
import type { DocumentBlock, DocumentBlockListItem } from '../../../../src/content/markdown/types.ts';
import type { Convert } from '../block-spec.ts';

/**
 * `list-item` ↔ the editor's listItem (in bulleted and numbered lists) or taskItem (in task lists, with
 * `data.checked`). The editor wants an item to start with a paragraph; an item that does not (a code block
 * first) cannot be modelled, and its list is kept whole instead (null).
 */
export const listItemExtensions = [ListItem, TaskItem.configure({ nested: true })];

export function itemsToEditor(items: DocumentBlock[], convert: Convert, task: boolean): JSONContent[] | null {
  const out: JSONContent[] = [];
  for (const item of items) {
    if (item.type !== 'list-item' || item.nodes[0]?.type !== 'paragraph') return null;
    const content = convert.blocksToEditor(item.nodes);
    out.push(task ? { type: 'taskItem', attrs: { checked: Boolean(item.data?.checked) }, content } : { type: 'listItem', content });
  }
  return out;
}

export function itemsToDocument(items: JSONContent[] | undefined, convert: Convert): DocumentBlockListItem[] {
  return (items ?? []).map((item) => ({
    object: 'block',
    type: 'list-item',
    data: item.type === 'taskItem' ? { checked: Boolean(item.attrs?.checked) } : {},
    nodes: convert.blocksToDocument(item.content),
  }));
}
