import { Extension } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, type EditorState, type Transaction } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import './block-handle.css';
import { blockStart, deleteBlock, duplicateBlock, moveBlock, moveBlockBy, selectedBlock } from './block-moves.ts';

const key = new PluginKey('blockHandle');

/** The menu's actions, in order: what they say and what they do to the block at `index`. */
const ACTIONS: Array<[string, (view: EditorView, index: number) => Transaction | null]> = [
  ['Move up', (view, index) => moveBlockBy(view.state, index, -1)],
  ['Move down', (view, index) => moveBlockBy(view.state, index, 1)],
  ['Duplicate', (view, index) => duplicateBlock(view.state, index)],
  ['Delete', (view, index) => deleteBlock(view.state, index)],
];

/**
 * One handle for the page, beside the top-level block under the mouse, else the one holding the caret: a button
 * that drags the block to another place among the top-level blocks (a line shows where), and opens a menu (move
 * up, move down, duplicate, delete) from the keyboard or a click. It is placed after the editor, so Tab from the
 * text reaches it. Placed with CSSOM (element.style), which the Content-Security-Policy allows; no markup styles.
 *
 * Typing must not lay the page out twice a keystroke: after an edit the handle measures its block only when it
 * may have moved (another block, or a change above it or to its kind), and then in the next animation frame,
 * reading before it writes `top`, and writing only a changed value; the frame's own layout serves the read.
 * What moves blocks without an edit (a picture loading above, the window resized, text rewrapping) changes the
 * editor's size: a ResizeObserver measures then, after the frame's layout.
 */
class BlockHandleView {
  private readonly host: HTMLElement;
  private readonly button: HTMLButtonElement;
  private readonly line: HTMLElement;
  private menu: HTMLElement | null = null;
  /** The block the handle is beside, as an index among the top-level blocks. */
  private index = 0;
  private hovered: number | null = null;
  /** The block being dragged by the handle. */
  dragging: number | null = null;
  private readonly listeners: Array<[EventTarget, string, EventListener]> = [];
  /** The document and block the handle was last measured beside: unchanged blocks above it, no measuring. */
  private measuredDoc: PMNode | null = null;
  private measuredIndex = -1;
  /** The `top` written last, and the animation frame that measures next (0: none asked). */
  private top = '';
  private frame = 0;
  private label = '';
  private readonly resized = new ResizeObserver(() => {
    if (!this.menu && this.dragging === null) this.measure();
  });

  constructor(private readonly view: EditorView) {
    this.host = view.dom.parentElement!;
    this.host.classList.add('block-handle-host');
    this.button = document.createElement('button');
    this.button.type = 'button';
    this.button.className = 'block-handle';
    this.button.draggable = true;
    this.button.setAttribute('aria-haspopup', 'menu');
    this.button.setAttribute('aria-expanded', 'false');
    this.button.title = 'Drag to move; click for the block menu';
    const grip = document.createElement('span');
    grip.setAttribute('aria-hidden', 'true');
    grip.textContent = '⠿';
    this.button.append(grip);
    this.line = document.createElement('div');
    this.line.className = 'block-drop-line';
    this.line.hidden = true;
    view.dom.after(this.button, this.line);
    this.on(view.dom, 'mousemove', (event) => this.hover((event as MouseEvent).clientY));
    this.on(this.host, 'mouseleave', () => this.hover(null));
    this.on(this.button, 'click', () => (this.menu ? this.closeMenu(true) : this.openMenu()));
    this.on(this.button, 'dragstart', (event) => this.dragStart(event as DragEvent));
    this.on(this.button, 'dragend', () => this.dragEnd());
    // On the document while a block is dragged: the pointer may be over the handles' column, outside the text.
    this.on(document, 'dragover', (event) => this.dragOver(event as DragEvent));
    this.on(document, 'drop', (event) => this.drop(event as DragEvent));
    this.place();
    this.resized.observe(view.dom);
  }

  private on(target: EventTarget, type: string, listener: EventListener): void {
    target.addEventListener(type, listener);
    this.listeners.push([target, type, listener]);
  }

  update(view: EditorView, previous: EditorState): void {
    // The block under the mouse may have moved or gone: the caret's block until the mouse moves again.
    if (view.state.doc !== previous.doc && !view.state.doc.eq(previous.doc)) this.hovered = null;
    if (!this.menu) this.place(false);
  }

  destroy(): void {
    this.resized.disconnect();
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    for (const [target, type, listener] of this.listeners) target.removeEventListener(type, listener);
    this.closeMenu(false);
    this.button.remove();
    this.line.remove();
    this.host.classList.remove('block-handle-host');
  }

  /** The top-level block at a height on the screen: blocks stack down the page, so a binary search. */
  private blockAt(y: number): number | null {
    const count = this.view.state.doc.childCount;
    let low = 0;
    let high = count - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      const box = this.blockElement(middle)?.getBoundingClientRect();
      if (box && box.bottom < y) low = middle + 1;
      else high = middle;
    }
    return count ? low : null;
  }

  private hover(y: number | null): void {
    if (this.menu || this.dragging !== null) return;
    const hovered = y === null ? null : this.blockAt(y);
    if (hovered === this.hovered) return;
    this.hovered = hovered;
    // The search above has just laid the page out: measuring now costs nothing more.
    this.place(true);
  }

  private blockElement(index: number): HTMLElement | null {
    const node = this.view.nodeDOM(blockStart(this.view.state.doc, index));
    return node instanceof HTMLElement ? node : null;
  }

  /**
   * Beside the hovered block, else the caret's; the name says which block and what it is. `now`: measured at
   * once (after the mouse moved, a menu closed, a drag ended), else in the next frame, and only if it may have moved.
   */
  private place(now = true): void {
    const { doc } = this.view.state;
    this.index = Math.min(this.hovered ?? selectedBlock(this.view.state), doc.childCount - 1);
    const element = this.blockElement(this.index);
    const hidden = !element || !this.view.editable;
    if (this.button.hidden !== hidden) this.button.hidden = hidden;
    if (!element) return;
    const type = doc.child(this.index).type.name;
    const label = `Block ${this.index + 1} of ${doc.childCount} (${type === 'opaqueBlock' ? 'read-only block' : name(type)}): drag to move, or open the block menu`;
    if (label !== this.label) this.button.setAttribute('aria-label', (this.label = label));
    const still = this.index === this.measuredIndex && this.measuredDoc !== null && sameAbove(this.measuredDoc, doc, this.index);
    this.measuredDoc = doc;
    this.measuredIndex = this.index;
    if (now) this.measure();
    else if (!still && !this.frame) {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.measure();
      });
    }
  }

  /** Reads the block's place, then writes the handle's `top` if it differs: no read follows the write. */
  private measure(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    if (this.index >= this.view.state.doc.childCount) return;
    const element = this.blockElement(this.index);
    if (!element) return;
    const top = `${element.getBoundingClientRect().top - this.host.getBoundingClientRect().top}px`;
    if (top !== this.top) this.button.style.top = this.top = top;
  }

  private apply(tr: Transaction | null): void {
    if (tr) this.view.dispatch(tr);
  }

  private openMenu(): void {
    const menu = document.createElement('div');
    menu.className = 'block-menu';
    menu.setAttribute('role', 'menu');
    menu.setAttribute('aria-label', 'Block');
    const count = this.view.state.doc.childCount;
    ACTIONS.forEach(([label, action], position) => {
      const item = document.createElement('button');
      item.type = 'button';
      item.setAttribute('role', 'menuitem');
      item.tabIndex = -1;
      item.textContent = label;
      const disabled = (position === 0 && this.index === 0) || (position === 1 && this.index === count - 1);
      if (disabled) item.setAttribute('aria-disabled', 'true');
      item.addEventListener('click', () => {
        if (disabled) return;
        const index = this.index;
        this.closeMenu(false);
        this.view.focus();
        this.apply(action(this.view, index));
      });
      menu.append(item);
    });
    menu.addEventListener('keydown', (event) => this.menuKey(event));
    menu.addEventListener('focusout', (event) => {
      if (!menu.contains(event.relatedTarget as Node | null) && event.relatedTarget !== this.button) this.closeMenu(false);
    });
    // A measure still waiting for its frame is done first: the menu opens under the handle where it will be.
    if (this.frame) this.measure();
    menu.style.top = `${this.button.offsetTop + this.button.offsetHeight}px`;
    this.button.after(menu);
    this.menu = menu;
    this.button.setAttribute('aria-expanded', 'true');
    (menu.querySelector<HTMLElement>('[role=menuitem]:not([aria-disabled])') ?? (menu.firstElementChild as HTMLElement)).focus();
  }

  private menuKey(event: KeyboardEvent): void {
    const items = [...this.menu!.querySelectorAll<HTMLElement>('[role=menuitem]')];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const go = (index: number) => items[(index + items.length) % items.length].focus();
    if (event.key === 'ArrowDown') go(at + 1);
    else if (event.key === 'ArrowUp') go(at - 1);
    else if (event.key === 'Home') go(0);
    else if (event.key === 'End') go(items.length - 1);
    else if (event.key === 'Enter' || event.key === ' ') items[at]?.click();
    else if (event.key === 'Escape') this.closeMenu(true);
    else if (event.key === 'Tab') this.closeMenu(false);
    else return;
    if (event.key !== 'Tab') event.preventDefault();
  }

  private closeMenu(focusHandle: boolean): void {
    const menu = this.menu;
    if (!menu) return;
    // Cleared first: removing the menu blurs its focused item, and its focusout closes the menu again.
    this.menu = null;
    menu.remove();
    this.button.setAttribute('aria-expanded', 'false');
    if (focusHandle) this.button.focus();
    this.place();
  }

  private dragStart(event: DragEvent): void {
    this.closeMenu(false);
    this.dragging = this.index;
    const element = this.blockElement(this.index);
    if (event.dataTransfer) {
      event.dataTransfer.effectAllowed = 'move';
      event.dataTransfer.setData('application/x-quire-block', String(this.index));
      // A drag with no text is not dropped by some browsers; the block's text, were it dropped elsewhere.
      event.dataTransfer.setData('text/plain', this.view.state.doc.child(this.index).textContent);
      if (element) event.dataTransfer.setDragImage(element, 0, 0);
    }
    document.documentElement.classList.add('block-moving');
  }

  private dragEnd(): void {
    this.dragging = null;
    this.line.hidden = true;
    document.documentElement.classList.remove('block-moving');
    this.place();
  }

  /** The gap between top-level blocks nearest the pointer: blocks stack down the page, so a binary search. */
  private gapAt(y: number): number {
    let low = 0;
    let high = this.view.state.doc.childCount;
    while (low < high) {
      const middle = (low + high) >> 1;
      const box = this.blockElement(middle)?.getBoundingClientRect();
      if (box && box.top + box.height / 2 < y) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Over the page's text or its handles' column, beside it. */
  private over(event: DragEvent): boolean {
    const box = this.host.getBoundingClientRect();
    return this.dragging !== null && event.clientX >= box.left - 48 && event.clientX <= box.right && event.clientY >= box.top - 24 && event.clientY <= box.bottom + 24;
  }

  private dragOver(event: DragEvent): void {
    if (!this.over(event)) {
      this.line.hidden = true;
      return;
    }
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'move';
    const gap = this.gapAt(event.clientY);
    const count = this.view.state.doc.childCount;
    const box = this.blockElement(Math.min(gap, count - 1))?.getBoundingClientRect();
    if (!box) return;
    this.line.hidden = false;
    this.line.style.top = `${(gap < count ? box.top : box.bottom) - this.host.getBoundingClientRect().top}px`;
  }

  private drop(event: DragEvent): void {
    if (!this.over(event)) return;
    event.preventDefault();
    const index = this.dragging!;
    const gap = this.gapAt(event.clientY);
    this.dragEnd();
    this.view.focus();
    this.apply(moveBlock(this.view.state, index, gap));
  }
}

/**
 * Whether the block at `index` of `after` stands where it stood in `before`: the blocks above it are the same
 * nodes (an edit makes new nodes only along its path) and it is of the same kind and attributes (a heading's
 * margins differ from a paragraph's). An edit inside the block or below it does not move its top.
 */
function sameAbove(before: PMNode, after: PMNode, index: number): boolean {
  if (before === after) return true;
  if (index >= before.childCount || index >= after.childCount) return false;
  for (let i = 0; i < index; i++) if (before.child(i) !== after.child(i)) return false;
  return before.child(index).sameMarkup(after.child(index));
}

/** A node type's name as a person reads it: `codeBlock` is "code block". */
function name(type: string): string {
  return type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/**
 * Block handles and moves (decision 0129): the handle beside each top-level block, and Ctrl/⌘ Shift ↑ / ↓
 * moving the top-level block the caret is in, as the page tree's Alt ↑ / ↓ moves a page.
 */
export const BlockHandle = Extension.create({
  name: 'blockHandle',
  addKeyboardShortcuts() {
    const by = (step: -1 | 1) => () => {
      const tr = moveBlockBy(this.editor.state, selectedBlock(this.editor.state), step);
      if (tr) this.editor.view.dispatch(tr);
      return true;
    };
    return { 'Mod-Shift-ArrowUp': by(-1), 'Mod-Shift-ArrowDown': by(1) };
  },
  addProseMirrorPlugins() {
    let handle: BlockHandleView | null = null;
    return [
      new Plugin({
        key,
        view: (view) => (handle = new BlockHandleView(view)),
        props: {
          // A block dragged by the handle is dropped by the handle (between top-level blocks), not by ProseMirror.
          handleDOMEvents: { drop: () => handle?.dragging != null },
        },
      }),
    ];
  },
});
