import type { Editor } from '@tiptap/core';
import type { ContentRef, DocumentTableDefinition, DocumentTableRecord } from '../../../../src/content/markdown/types.ts';
import { askForm } from '../dialog.ts';
import { focusEditor } from '../editor-focus.ts';
import { placeData } from '../place.ts';

/** What the table node keeps beside its cells: the view's settings, the width, the hidden columns' definitions. */
export interface TableMeta {
  view: Record<string, unknown> & { type: string; targetDefinition?: string; coverDefinition?: string };
  fullWidth?: boolean;
  hidden?: DocumentTableDefinition[];
}

/**
 * The card the cursor is in: its link (a page of the space, or an address) and its cover (a picture of the
 * space's files), the cards view's target and cover columns, made when first used.
 */
export function editCard(editor: Editor): boolean {
  const { $from } = editor.state.selection;
  let depth = $from.depth;
  while (depth > 0 && $from.node(depth).type.name !== 'tableRow') depth--;
  if (depth === 0) return false;
  const rowPosition = $from.before(depth);
  const tablePosition = $from.before(depth - 1);
  const row = $from.node(depth);
  const tableNode = $from.node(depth - 1);
  const meta = JSON.parse(tableNode.attrs.meta) as TableMeta;
  const values = JSON.parse(row.attrs.hidden) as DocumentTableRecord['values'];
  const target = meta.view.targetDefinition ? (values[meta.view.targetDefinition] as ContentRef | undefined) : undefined;
  const cover = meta.view.coverDefinition ? (values[meta.view.coverDefinition] as string[] | undefined) : undefined;
  const data = placeData(editor);
  void askForm(
    'Card',
    [
      { name: 'page', label: 'Link to page', kind: 'select', value: target?.kind === 'page' ? target.page : '', choices: async () => [{ label: '(an address, or none)', value: '' }, ...(data ? await data.pages() : [])] },
      { name: 'url', label: 'Or an address', kind: 'url', value: target?.kind === 'url' ? target.url : '' },
      {
        name: 'cover',
        label: 'Cover picture',
        kind: 'select',
        value: cover?.[0] ?? '',
        choices: async () => [{ label: '(none)', value: '' }, ...(data ? (await data.files()).filter((file) => file.contentType.startsWith('image/')).map((file) => ({ label: file.name, value: file.id })) : cover?.[0] ? [{ label: cover[0], value: cover[0] }] : [])],
      },
    ],
    'Apply',
    () => focusEditor(editor),
  ).then((answer) => {
    if (!answer) return void editor.commands.focus();
    const hidden = [...(meta.hidden ?? [])];
    const view = { ...meta.view };
    if (!view.targetDefinition) {
      view.targetDefinition = 'target';
      hidden.push({ id: 'target', title: '', type: 'content-ref' });
    }
    if (!view.coverDefinition) {
      view.coverDefinition = 'cover';
      hidden.push({ id: 'cover', title: '', type: 'files' });
    }
    const next = { ...values };
    const link: ContentRef | null = answer.page ? { kind: 'page', page: String(answer.page) } : String(answer.url ?? '').trim() ? { kind: 'url', url: String(answer.url).trim() } : null;
    if (link) next[view.targetDefinition] = link;
    else delete next[view.targetDefinition];
    if (answer.cover) next[view.coverDefinition] = [String(answer.cover)];
    else delete next[view.coverDefinition];
    editor.view.dispatch(
      editor.state.tr.setNodeAttribute(rowPosition, 'hidden', JSON.stringify(next)).setNodeAttribute(tablePosition, 'meta', JSON.stringify({ ...meta, view, hidden })),
    );
    editor.commands.focus();
  });
  return true;
}
