import { InputRule, Node, type Editor, type Range } from '@tiptap/core';
import { NodeSelection, TextSelection } from '@tiptap/pm/state';
import type { DocumentInline } from '../../../../src/content/markdown/types.ts';
import { askForm } from '../dialog.ts';
import { focusEditor } from '../editor-focus.ts';
import { placeData } from '../place.ts';
import { emojiByName, emojiCode, loadEmoji } from './emoji.ts';
import { INLINE_KIND, type InlineKind } from './kinds.ts';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    inlineItem: { insertInline: (inline: DocumentInline) => ReturnType };
  }
}

/** Asks for an inline's fields; the inline made, or null when cancelled or when the answers make none. */
export async function askInline(editor: Editor, kind: InlineKind, inline: DocumentInline, confirm: string): Promise<DocumentInline | null> {
  const values = await askForm(kind.title, kind.fields(inline as never, placeData(editor)), confirm, () => focusEditor(editor));
  return values ? ((await kind.apply(inline as never, values)) as DocumentInline | null) : null;
}

/** The slash menu's and the `@` shortcut's way in: asks, then puts the inline where `range` was. */
export async function insertInlineOf(editor: Editor, kind: InlineKind, range: Range | null): Promise<void> {
  const inline = await askInline(editor, kind, kind.blank() as DocumentInline, 'Insert');
  const chain = editor.chain().focus();
  if (range) chain.deleteRange(range);
  if (inline) chain.insertInline(inline);
  chain.run();
}

function editSelected(editor: Editor, position: number, json: string): void {
  const inline = JSON.parse(json) as DocumentInline;
  const kind = INLINE_KIND.get(inline.type);
  if (!kind) return;
  void askInline(editor, kind, inline, 'Apply').then((changed) => {
    // The caret after the inline changed: a key typed next writes on, rather than replacing the inline.
    if (changed) {
      const tr = editor.state.tr.setNodeAttribute(position, 'json', JSON.stringify(changed));
      editor.view.dispatch(tr.setSelection(TextSelection.create(tr.doc, position + 1)));
    }
    editor.commands.focus();
  });
}

/**
 * An inline written as one piece (INLINE_KINDS), holding the inline's JSON: drawn as the reader shows it,
 * changed through its dialog (double-click, or Enter when selected), moved and deleted like a character.
 * Shortcuts as in GitBook: `:name:` makes an emoji, `$$formula$$` inline math, `@` asks whom to mention.
 */
export const InlineItem = Node.create({
  name: 'inlineItem',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  draggable: true,
  addAttributes() {
    return { json: { default: '{}' } };
  },
  parseHTML: () => [{ tag: 'span[data-inline]', getAttrs: (element) => ({ json: (element as HTMLElement).dataset.inline }) }],
  renderHTML: ({ node }) => ['span', { 'data-inline': node.attrs.json }],
  onCreate() {
    if (this.editor.isEditable && typeof window !== 'undefined') void loadEmoji().catch(() => undefined);
  },
  addCommands() {
    return {
      insertInline:
        (inline) =>
        ({ commands }) =>
          commands.insertContent({ type: 'inlineItem', attrs: { json: JSON.stringify(inline) } }),
    };
  },
  addKeyboardShortcuts() {
    return {
      Enter: ({ editor }) => {
        const { selection } = editor.state;
        if (!(selection instanceof NodeSelection) || selection.node.type.name !== 'inlineItem') return false;
        editSelected(editor, selection.from, selection.node.attrs.json);
        return true;
      },
    };
  },
  addInputRules() {
    const type = this.type;
    const editor = this.editor;
    return [
      new InputRule({
        find: /:([a-z0-9_+-]+):$/,
        handler: ({ state, range, match }) => {
          const found = emojiByName(match[1]);
          if (!found) return null;
          state.tr.replaceWith(range.from, range.to, type.create({ json: JSON.stringify({ object: 'inline', type: 'emoji', data: { code: emojiCode(found) }, isVoid: true }) }));
        },
      }),
      new InputRule({
        find: /\$\$([^$\n]+)\$\$$/,
        handler: ({ state, range, match }) => {
          state.tr.replaceWith(range.from, range.to, type.create({ json: JSON.stringify({ object: 'inline', type: 'inline-math', data: { formula: match[1] }, isVoid: true }) }));
        },
      }),
      new InputRule({
        find: /(?:^|\s)@$/,
        handler: ({ range }) => {
          // The "@" is typed as usual; the mention chosen then takes its place.
          const at = range.to;
          const kind = INLINE_KIND.get('mention')!;
          setTimeout(() => {
            void insertInlineOf(editor, kind, editor.state.doc.textBetween(at, Math.min(at + 1, editor.state.doc.content.size)) === '@' ? { from: at, to: at + 1 } : null);
          });
          return null;
        },
      }),
    ];
  },
  addNodeView() {
    return ({ node, editor, getPos }) => {
      const dom = document.createElement('span');
      let current = node;
      const draw = () => {
        const inline = JSON.parse(current.attrs.json) as DocumentInline;
        dom.className = `inline-item inline-${inline.type}`;
        dom.replaceChildren();
        INLINE_KIND.get(inline.type)?.draw(inline as never, dom, placeData(editor));
      };
      dom.contentEditable = 'false';
      draw();
      if (editor.isEditable)
        dom.addEventListener('dblclick', () => {
          const position = typeof getPos === 'function' ? getPos() : undefined;
          if (position !== undefined) editSelected(editor, position, current.attrs.json);
        });
      return {
        dom,
        ignoreMutation: () => true,
        update: (updated) => {
          if (updated.type !== current.type) return false;
          const changed = updated.attrs.json !== current.attrs.json;
          current = updated;
          if (changed) draw();
          return true;
        },
      };
    };
  },
});
