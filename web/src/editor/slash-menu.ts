import { Extension, type Editor, type Range } from '@tiptap/core';
import { NodeSelection, Plugin, PluginKey } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import { VOID_BLOCKS } from './convert.ts';
import { editVoidBlock } from './blocks/void-block.ts';
import { insertInlineOf } from './inlines/inline-item.ts';
import { INLINE_KINDS } from './inlines/kinds.ts';
import { pickLink } from './inlines/link-picker.ts';

/** One entry of the slash menu: what it makes, and how. */
interface SlashCommand {
  title: string;
  keywords: string;
  run: (editor: Editor, range: Range) => void;
}

const at = (editor: Editor, range: Range) => editor.chain().focus().deleteRange(range);

/**
 * After a block that holds no text (an image, a formula), the cursor goes to the line after it (made if need
 * be) instead of leaving the block selected, where the next key typed would replace it.
 */
function continueAfterBlock(editor: Editor): void {
  const { selection, doc } = editor.state;
  if (!(selection instanceof NodeSelection)) return;
  const after = selection.to;
  const next = doc.resolve(after).nodeAfter;
  if (next?.isTextblock) editor.chain().setTextSelection(after + 1).run();
  else editor.chain().insertContentAt(after, { type: 'paragraph' }).setTextSelection(after + 1).run();
}

/** A line after the block the cursor is in when that block ends the page, so writing can go on below it. */
function lineAfter(editor: Editor): void {
  const { doc, selection } = editor.state;
  if (selection.$from.depth < 1 || selection.$from.index(0) !== doc.childCount - 1 || doc.lastChild?.type.name === 'paragraph') return;
  editor.view.dispatch(editor.state.tr.insert(doc.content.size, editor.schema.nodes.paragraph.create()));
}

/** Inserts a block that holds blocks, then puts the cursor in its first line (not after its last). */
const container = (insert: (editor: Editor, range: Range) => void) => (editor: Editor, range: Range) => {
  const start = range.from;
  insert(editor, range);
  lineAfter(editor);
  let first: number | null = null;
  editor.state.doc.nodesBetween(Math.max(0, start - 1), editor.state.doc.content.size, (node, position) => {
    if (first !== null) return false;
    if (node.isTextblock && position >= start - 1) {
      first = position + 1;
      return false;
    }
    return true;
  });
  if (first !== null) editor.commands.setTextSelection(first);
};

export const SLASH_COMMANDS: SlashCommand[] = [
  { title: 'Text', keywords: 'paragraph plain', run: (editor, range) => at(editor, range).setParagraph().run() },
  { title: 'Heading 1', keywords: 'h1 title large', run: (editor, range) => at(editor, range).setHeading({ level: 1 }).run() },
  { title: 'Heading 2', keywords: 'h2 subtitle', run: (editor, range) => at(editor, range).setHeading({ level: 2 }).run() },
  { title: 'Heading 3', keywords: 'h3', run: (editor, range) => at(editor, range).setHeading({ level: 3 }).run() },
  { title: 'Bulleted list', keywords: 'ul unordered bullet', run: (editor, range) => at(editor, range).toggleBulletList().run() },
  { title: 'Numbered list', keywords: 'ol ordered number', run: (editor, range) => at(editor, range).toggleOrderedList().run() },
  { title: 'Task list', keywords: 'todo checkbox tasks', run: (editor, range) => at(editor, range).toggleTaskList().run() },
  { title: 'Quote', keywords: 'blockquote citation', run: (editor, range) => at(editor, range).setBlockquote().run() },
  { title: 'Code block', keywords: 'pre fence snippet', run: (editor, range) => at(editor, range).setCodeBlock().run() },
  { title: 'Hint: info', keywords: 'callout note', run: (editor, range) => at(editor, range).insertHint('info').run() },
  { title: 'Hint: success', keywords: 'callout tip', run: (editor, range) => at(editor, range).insertHint('success').run() },
  { title: 'Hint: warning', keywords: 'callout caution', run: (editor, range) => at(editor, range).insertHint('warning').run() },
  { title: 'Hint: danger', keywords: 'callout error', run: (editor, range) => at(editor, range).insertHint('danger').run() },
  { title: 'Expandable', keywords: 'details toggle collapse', run: (editor, range) => at(editor, range).insertExpandable().run() },
  { title: 'Tabs', keywords: 'tabbed', run: (editor, range) => at(editor, range).insertTabs().run() },
  {
    title: 'Math',
    keywords: 'formula tex katex equation',
    run: (editor, range) => {
      at(editor, range).insertMath('').run();
      continueAfterBlock(editor);
      // The formula is written in the block's own field.
      editor.view.dom.querySelectorAll<HTMLTextAreaElement>('.math-block textarea').forEach((field) => field.value === '' && field.focus());
    },
  },
  { title: 'Divider', keywords: 'hr rule line', run: (editor, range) => at(editor, range).setHorizontalRule().run() },
  {
    title: 'Image',
    keywords: 'picture figure img',
    run: (editor, range) => {
      const url = window.prompt('Address of the image (https://…)');
      if (!url) return;
      const alt = window.prompt('Describe the image for people who cannot see it') ?? '';
      at(editor, range).insertImage({ url, alt, caption: '' }).run();
      continueAfterBlock(editor);
    },
  },
  { title: 'Table', keywords: 'grid rows columns spreadsheet', run: container((editor, range) => at(editor, range).insertTable().run()) },
  { title: 'Cards', keywords: 'card grid gallery table view', run: container((editor, range) => at(editor, range).insertTable({ rows: 2, columns: 2, cards: true }).run()) },
  { title: 'Stepper', keywords: 'steps procedure howto', run: container((editor, range) => at(editor, range).insertStepper().run()) },
  { title: 'Columns', keywords: 'side by side layout two', run: container((editor, range) => at(editor, range).insertColumns(2).run()) },
  { title: 'Adaptive content', keywords: 'if condition visitor claims conditional', run: container((editor, range) => at(editor, range).insertIf().run()) },
  { title: 'Updates', keywords: 'changelog timeline release notes', run: container((editor, range) => at(editor, range).insertUpdates().run()) },
  ...VOID_BLOCKS.map(
    ({ kind }): SlashCommand => ({
      title: kind.title,
      keywords: kind.keywords,
      run: (editor, range) => {
        at(editor, range).run();
        void editVoidBlock(editor, kind, kind.blank(), 'Insert').then((block) => {
          if (!block) return void editor.commands.focus();
          editor.chain().focus().insertContent({ type: kind.node, attrs: { block: JSON.stringify(block) } }).run();
          continueAfterBlock(editor);
        });
      },
    }),
  ),
  ...INLINE_KINDS.map((kind): SlashCommand => ({ title: kind.title, keywords: `inline ${kind.keywords}`, run: (editor, range) => void insertInlineOf(editor, kind, range) })),
  {
    title: 'Link',
    keywords: 'page anchor url address hyperlink',
    run: (editor, range) => {
      at(editor, range).run();
      void pickLink(editor);
    },
  },
];

/** The commands matching every word typed: those whose title matches first, then those matched by a keyword. */
export function matchCommands(query: string): SlashCommand[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const matching = SLASH_COMMANDS.filter((command) => words.every((word) => `${command.title} ${command.keywords}`.toLowerCase().includes(word)));
  const byTitle = (command: SlashCommand) => words.every((word) => command.title.toLowerCase().includes(word));
  return [...matching.filter(byTitle), ...matching.filter((command) => !byTitle(command))];
}

interface MenuState {
  range: Range;
  query: string;
}

const key = new PluginKey<MenuState | null>('slash-menu');

/** The "/" at the start of an empty line, and the text typed after it, while the cursor stays there. */
function findSlash(view: EditorView): MenuState | null {
  const { selection } = view.state;
  if (!selection.empty) return null;
  const $from = selection.$from;
  if ($from.parent.type.name !== 'paragraph') return null;
  const before = $from.parent.textBetween(0, $from.parentOffset, undefined, '\ufffc');
  // At the start of a line, or after a space (for inlines: an emoji, a mention, a formula in a sentence).
  const match = /(^|\s)\/([\w ]{0,30})$/.exec(before);
  if (!match) return null;
  return { range: { from: $from.start() + match.index + match[1].length, to: $from.pos }, query: match[2] };
}

/**
 * The slash menu: typing "/" at the start of a line lists the blocks the editor makes, filtered by what
 * follows; ↑/↓ choose, Enter or a click inserts, Escape closes. An ARIA listbox tied to the editor with
 * aria-activedescendant, so screen readers follow the choice while focus stays in the text.
 */
export const SlashMenu = Extension.create({
  name: 'slashMenu',
  addProseMirrorPlugins() {
    const editor = this.editor;
    let menu: HTMLElement | null = null;
    let choices: SlashCommand[] = [];
    let active = 0;
    let state: MenuState | null = null;
    let dismissed: number | null = null;

    const close = () => {
      menu?.remove();
      menu = null;
      state = null;
      editor.view.dom.removeAttribute('aria-activedescendant');
      editor.view.dom.removeAttribute('aria-controls');
    };
    const choose = (index: number) => {
      const command = choices[index];
      const range = state?.range;
      close();
      if (command && range) command.run(editor, range);
    };
    const draw = (view: EditorView) => {
      if (!state) return;
      if (!menu) {
        menu = document.createElement('ul');
        menu.id = 'slash-menu';
        menu.className = 'slash-menu';
        menu.setAttribute('role', 'listbox');
        menu.setAttribute('aria-label', 'Insert a block');
        document.body.append(menu);
      }
      menu.replaceChildren(
        ...(choices.length
          ? choices.map((command, index) => {
              const item = document.createElement('li');
              item.id = `slash-${index}`;
              item.setAttribute('role', 'option');
              item.setAttribute('aria-selected', String(index === active));
              item.textContent = command.title;
              item.addEventListener('mousedown', (event) => {
                event.preventDefault();
                choose(index);
              });
              return item;
            })
          : [Object.assign(document.createElement('li'), { textContent: 'No block matches; Escape closes this list', className: 'slash-empty' })]),
      );
      const coords = view.coordsAtPos(state.range.from);
      menu.style.top = `${coords.bottom + window.scrollY + 4}px`;
      menu.style.left = `${coords.left + window.scrollX}px`;
      view.dom.setAttribute('aria-controls', 'slash-menu');
      if (choices.length) view.dom.setAttribute('aria-activedescendant', `slash-${active}`);
    };

    return [
      new Plugin({
        key,
        view: () => ({
          update: (view) => {
            const found = findSlash(view);
            if (!found || (dismissed !== null && dismissed === found.range.from)) {
              if (!found) dismissed = null;
              if (menu) close();
              return;
            }
            if (!state || state.query !== found.query) active = 0;
            state = found;
            choices = matchCommands(found.query);
            draw(view);
          },
          destroy: close,
        }),
        props: {
          handleKeyDown: (_view, event) => {
            if (!menu || !state) return false;
            if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
              if (choices.length) active = (active + (event.key === 'ArrowDown' ? 1 : choices.length - 1)) % choices.length;
              draw(editor.view);
              return true;
            }
            if (event.key === 'Enter' || event.key === 'Tab') {
              if (!choices.length) return false;
              choose(active);
              return true;
            }
            if (event.key === 'Escape') {
              dismissed = state.range.from;
              close();
              return true;
            }
            return false;
          },
        },
      }),
    ];
  },
});
