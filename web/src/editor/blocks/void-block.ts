import { Node, type Editor } from '@tiptap/core';
import { NodeSelection } from '@tiptap/pm/state';
import type { DocumentBlock, DocumentFragment } from '../../../../src/content/markdown/types.ts';
import { fragment, paragraph, textNode } from '../../../../src/content/markdown/nodes.ts';
import type { BlockSpec } from '../block-spec.ts';
import { askForm, type FormField, type FormValues } from '../dialog.ts';
import { focusEditor } from '../editor-focus.ts';
import { placeData, type PlaceData } from '../place.ts';
import { plainText } from '../plain-text.ts';

/**
 * A block that holds no text of its own (an embed, a file, an OpenAPI operation…): kept whole in one
 * attribute (`block`, its JSON), shown as a card saying what it is, and changed through a dialog of its fields
 * (the card's "Edit" button, or Enter when the block is selected). Fields it does not show are kept as read.
 */
export interface VoidKind<B extends DocumentBlock = DocumentBlock> {
  type: B['type'];
  /** The editor's node name. */
  node: string;
  /** What the block is, for people: "Embed", "File". */
  title: string;
  /** Words the slash menu also matches. */
  keywords: string;
  /** A new block, before its dialog is filled. */
  blank(): B;
  fields(block: B, data: PlaceData | null): FormField[];
  apply(block: B, values: FormValues): B;
  /** What the card shows under its title. */
  describe(block: B, dom: HTMLElement, data: PlaceData | null): void;
}

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    voidBlock: { insertVoidBlock: (block: DocumentBlock) => ReturnType };
  }
}

/** A block's caption (the `caption` fragment's text), and the fragments with a caption written. */
export function captionOf(block: { fragments?: DocumentFragment[] }): string {
  return plainText(block.fragments?.find((item) => item.fragment === 'caption')?.nodes ?? []);
}

export function withCaption(fragments: DocumentFragment[] | undefined, caption: string): DocumentFragment[] {
  const others = (fragments ?? []).filter((item) => item.fragment !== 'caption');
  // A caption left as it was keeps its marks and links.
  if (caption === captionOf({ fragments })) return fragments ?? [];
  return caption.trim() ? [...others, fragment('caption', caption.split(/\n+/).map((line) => paragraph([textNode(line)])))] : others;
}

export async function editVoidBlock(editor: Editor, kind: VoidKind, block: DocumentBlock, confirm: string): Promise<DocumentBlock | null> {
  const values = await askForm(`${kind.title}`, kind.fields(block as never, placeData(editor)), confirm, () => focusEditor(editor));
  return values ? kind.apply(block as never, values) : null;
}

export type VoidBlockSpec = BlockSpec & { kind: VoidKind };

export function voidBlockSpec<B extends DocumentBlock>(kind: VoidKind<B>): VoidBlockSpec {
  const VoidNode = Node.create({
    name: kind.node,
    group: 'block',
    atom: true,
    selectable: true,
    draggable: true,
    addAttributes() {
      return { block: { default: '{}' } };
    },
    parseHTML: () => [{ tag: `div[data-block="${kind.type}"]`, getAttrs: (element) => ({ block: (element as HTMLElement).dataset.json ?? '{}' }) }],
    renderHTML: ({ node }) => ['div', { 'data-block': kind.type, 'data-json': node.attrs.block }],
    addKeyboardShortcuts() {
      return {
        Enter: ({ editor }) => {
          const { selection } = editor.state;
          if (!(selection instanceof NodeSelection) || selection.node.type.name !== kind.node) return false;
          const position = selection.from;
          void editVoidBlock(editor, kind as unknown as VoidKind, JSON.parse(selection.node.attrs.block), 'Apply').then((block) => {
            if (block) editor.view.dispatch(editor.state.tr.setNodeAttribute(position, 'block', JSON.stringify(block)));
            editor.commands.focus();
          });
          return true;
        },
      };
    },
    addNodeView() {
      return ({ node, editor, getPos }) => {
        const dom = document.createElement('div');
        dom.className = `void-block void-${kind.type}`;
        dom.contentEditable = 'false';
        const head = document.createElement('div');
        head.className = 'void-head';
        const title = document.createElement('span');
        title.className = 'void-title';
        title.textContent = kind.title;
        head.append(title);
        const body = document.createElement('div');
        body.className = 'void-body';
        let current = node;
        const draw = () => {
          body.replaceChildren();
          kind.describe(JSON.parse(current.attrs.block) as B, body, placeData(editor));
        };
        if (editor.isEditable) {
          const edit = document.createElement('button');
          edit.type = 'button';
          edit.className = 'void-edit';
          edit.textContent = 'Edit';
          edit.setAttribute('aria-label', `Edit ${kind.title.toLowerCase()}`);
          edit.addEventListener('click', () => {
            void editVoidBlock(editor, kind as unknown as VoidKind, JSON.parse(current.attrs.block), 'Apply').then((block) => {
              const position = typeof getPos === 'function' ? getPos() : undefined;
              if (block && position !== undefined) editor.view.dispatch(editor.state.tr.setNodeAttribute(position, 'block', JSON.stringify(block)));
            });
          });
          head.append(edit);
        }
        dom.append(head, body);
        draw();
        return {
          dom,
          stopEvent: (event) => event.target instanceof HTMLButtonElement || (event.target instanceof HTMLElement && event.target.closest('a') !== null),
          ignoreMutation: () => true,
          update: (updated) => {
            if (updated.type !== current.type) return false;
            if (updated.attrs.block !== current.attrs.block) {
              current = updated;
              draw();
            }
            current = updated;
            return true;
          },
        };
      };
    },
  });
  return {
    kind: kind as unknown as VoidKind,
    documentTypes: [kind.type],
    nodeNames: [kind.node],
    extensions: [VoidNode],
    toEditor: (block) => ({ type: kind.node, attrs: { block: JSON.stringify(block) } }),
    toDocument: (node) => JSON.parse(String(node.attrs?.block)) as DocumentBlock,
  };
}

/** A line of text in a card, or a link that opens in a new tab. */
export function line(dom: HTMLElement, text: string, href?: string): void {
  const p = document.createElement('p');
  if (href && /^https?:\/\//.test(href)) {
    const a = document.createElement('a');
    a.href = href;
    a.target = '_blank';
    a.rel = 'noopener noreferrer';
    a.textContent = text;
    p.append(a);
  } else p.textContent = text;
  dom.append(p);
}
