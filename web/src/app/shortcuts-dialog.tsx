import { Fragment } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

const SHORTCUTS: Array<[string, string, string[]]> = [
  ['Anywhere', 'Search every space', ['Ctrl/⌘ K']],
  ['Anywhere', 'This list of shortcuts', ['?']],
  ['Page tree', 'Move between pages; open one', ['↑', '↓', 'Enter']],
  ['Page tree', 'Move a page among its siblings', ['Alt ↑', 'Alt ↓']],
  ['Page tree', 'Put a page under the one above; take it out', ['Alt →', 'Alt ←']],
  ['Page tree', 'Rename; delete', ['F2', 'Delete']],
  ['A page', 'Find in the page (Enter, Shift Enter: next, previous; Escape closes)', ['Ctrl/⌘ F']],
  ['Editor', 'Save now', ['Ctrl/⌘ S']],
  ['Editor', 'Block menu', ['/']],
  ['Editor', 'Headings, lists, quote, code, math, divider', ['#', '-', '1.', '[ ]', '>', '```', '$$', '---']],
  ['Editor', 'Bold, italic, code', ['**…**', '_…_', '`…`']],
  ['Editor', 'Undo; redo', ['Ctrl/⌘ Z', 'Ctrl/⌘ Shift Z', 'Ctrl/⌘ Y']],
  ['Editor', 'Move the block the caret is in up; down', ['Ctrl/⌘ Shift ↑', 'Ctrl/⌘ Shift ↓']],
  ['Editor', "The block's handle (move, duplicate, delete): Tab from the text, then", ['Enter']],
  ['Comments', 'Send a comment or reply', ['Ctrl/⌘ Enter']],
];

/** Typing in a field, a text box or the editor: `?` is a character there, not a shortcut. */
function typing(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

/** `?` (outside text) opens the list of the workspace's keyboard shortcuts; Escape closes it. */
export function ShortcutsDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const keys = (event: KeyboardEvent) => {
      if (event.key === '?' && !event.ctrlKey && !event.metaKey && !event.altKey && !typing(event.target)) {
        event.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', keys);
    return () => window.removeEventListener('keydown', keys);
  }, []);
  useEffect(() => {
    const element = dialog.current;
    if (open && element && !element.open) element.showModal();
    else if (!open && element?.open) element.close();
  }, [open]);
  let group = '';
  return (
    <dialog ref={dialog} class="search-dialog" aria-labelledby="shortcuts-title" onClose={() => setOpen(false)}>
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <table class="shortcuts">
        <tbody>
          {SHORTCUTS.map(([where, what, keys]) => {
            const head = where !== group ? where : null;
            group = where;
            return (
              <Fragment key={what}>
                {head && (
                  <tr>
                    <th colSpan={2} scope="colgroup">{head}</th>
                  </tr>
                )}
                <tr>
                  <td>{what}</td>
                  <td>{keys.map((key, index) => <kbd key={index}>{key}</kbd>)}</td>
                </tr>
              </Fragment>
            );
          })}
        </tbody>
      </table>
      <p>
        <button type="button" class="button" onClick={() => setOpen(false)}>Close</button>
      </p>
    </dialog>
  );
}
