import { Extension, type Editor } from '@tiptap/core';
import type { ContentRef } from '../../../../src/content/markdown/types.ts';
import { askForm } from '../dialog.ts';
import { focusEditor } from '../editor-focus.ts';
import { placeData } from '../place.ts';

/**
 * Links to a page of the space, an anchor (a heading's id, on this page or another), or an address: a
 * dialog (Mod-K, or the slash menu) with a picker of the space's pages. The link mark keeps the document's
 * reference, so a page link stays a page link (and follows the page when it moves).
 */
export async function pickLink(editor: Editor): Promise<void> {
  const data = placeData(editor);
  const { from, to, empty } = editor.state.selection;
  const current = editor.getAttributes('link');
  const ref = typeof current.ref === 'string' && current.ref ? (JSON.parse(current.ref) as ContentRef) : current.href ? ({ kind: 'url', url: String(current.href) } as ContentRef) : null;
  const values = await askForm(
    'Link',
    [
      ...(empty ? [{ name: 'text', label: 'Text', required: true }] : []),
      { name: 'page', label: 'Page', kind: 'select', value: ref?.kind === 'page' ? ref.page : ref?.kind === 'anchor' ? (ref.page ?? '') : '', choices: async () => [{ label: '(this page, or an address)', value: '' }, ...(data ? await data.pages() : [])] },
      { name: 'anchor', label: 'Anchor (a heading’s id)', value: ref?.kind === 'anchor' ? ref.anchor : '' },
      { name: 'url', label: 'Or an address', kind: 'url', value: ref?.kind === 'url' ? ref.url : '' },
    ],
    ref ? 'Apply' : 'Insert',
    () => focusEditor(editor),
  );
  if (!values) return void editor.commands.focus();
  const page = String(values.page ?? '');
  const anchor = String(values.anchor ?? '').trim().replace(/^#/, '');
  const url = String(values.url ?? '').trim();
  const target: ContentRef | null = anchor ? { kind: 'anchor', anchor, ...(page ? { page } : {}) } : page ? { kind: 'page', page } : url ? { kind: 'url', url } : null;
  const chain = editor.chain().focus().setTextSelection({ from, to });
  if (!target) return void chain.unsetLink().run();
  const mark = { href: target.kind === 'url' ? target.url : '#', ref: JSON.stringify(target) };
  if (empty) chain.insertContent({ type: 'text', text: String(values.text), marks: [{ type: 'link', attrs: mark }] }).run();
  else chain.extendMarkRange('link').setLink(mark as never).run();
}

export const LinkPicker = Extension.create({
  name: 'linkPicker',
  addKeyboardShortcuts() {
    return {
      'Mod-k': ({ editor }) => {
        void pickLink(editor);
        return true;
      },
    };
  },
});
