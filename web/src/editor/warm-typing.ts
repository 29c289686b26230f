import { Extension, type AnyExtension, type Editor } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import * as Y from 'yjs';
import { Awareness } from 'y-protocols/awareness';
import { createPageEditor } from './editor.ts';
import { WARM_KEYS, WARM_MARK, type WarmReport } from './warm-typing-report.ts';
import './warm-typing.css';

/**
 * Warming the typing path (issue 26, decision 0154). The first keys typed after a page opens cost two to three
 * times a later key: V8 has not yet optimised the code a key runs (ProseMirror's DOM read and transaction, every
 * plugin's `apply` and view update, the live binding's sync into Yjs). Nothing but typing warms it. So, once per
 * load of the app, when the browser is idle after the first page editor opened, an editor built with the same
 * extensions types into a page of its own: in a hidden, inert, aria-hidden box, on a Yjs document of its own
 * with no provider, its keys handed to the editor's handlers directly (no event is dispatched, so no listener
 * outside it hears them). It stops at once when the person presses a key, clicks or leaves the page.
 */

// Every `SPLIT_EVERY`th key is Enter, and Backspace follows it.
const SPLIT_EVERY = 20;
/** Leaves this much of an idle period unused, so a frame or an input due at its end is not delayed. */
const IDLE_MARGIN_MS = 3;

let started = false;

export interface WarmOptions {
  /** The live binding's extensions for a Yjs document and awareness of the warm-up's own (absent: not live). */
  live?: (doc: Y.Doc, awareness: Awareness) => AnyExtension[];
  /** The screen's own extensions, as the real editor has them (none that reach the server). */
  extensions?: AnyExtension[];
}

const NoScroll = Extension.create({
  name: 'warmUpNoScroll',
  addProseMirrorPlugins() {
    return [new Plugin({ key: new PluginKey('warmUpNoScroll'), props: { handleScrollToSelection: () => true } })];
  },
});

/**
 * Schedules the warm-up for the browser's next idle periods, at most once per load of the app. Returns what
 * stops it (the screen's cleanup calls it: leaving the page stops the warm-up).
 */
export function warmTypingPath(options: WarmOptions): () => void {
  if (started || typeof requestIdleCallback !== 'function') return () => {};
  started = true;
  let stopped = false;
  let ended = false;
  let editor: Editor | null = null;
  let host: HTMLElement | null = null;
  let doc: Y.Doc | null = null;
  let awareness: Awareness | null = null;
  let idle = 0;
  let typed = 0;
  let startLength = 0;
  let grew = 0;
  let failed = false;
  let cpuMs = 0;
  const personActs = () => stop();
  const events = ['keydown', 'pointerdown', 'beforeinput', 'wheel', 'touchstart'] as const;
  const finish = () => {
    for (const type of events) window.removeEventListener(type, personActs, true);
    if (idle) cancelIdleCallback(idle);
    if (editor) grew = editor.state.doc.textContent.length - startLength;
    editor?.destroy();
    host?.remove();
    awareness?.destroy();
    doc?.destroy();
    editor = host = doc = awareness = null;
    const report: WarmReport = { keys: typed, grew, cpuMs: Math.round(cpuMs * 10) / 10, stopped, failed };
    // For the keystroke tools (scripts/keys-tail.ts): what the warm-up did and cost, as a performance mark.
    performance.mark(WARM_MARK, { detail: report });
  };
  const stop = () => {
    if (stopped || ended) return;
    stopped = true;
    finish();
  };
  for (const type of events) window.addEventListener(type, personActs, { capture: true, passive: true });
  const step = (deadline: IdleDeadline) => {
    idle = 0;
    if (stopped || ended) return;
    const begun = performance.now();
    try {
      if (!editor) {
        ({ editor, host, doc, awareness } = open(options));
        startLength = editor.state.doc.textContent.length;
      } else {
        while (typed < WARM_KEYS && deadline.timeRemaining() > IDLE_MARGIN_MS) typeKey(editor.view, typed++);
      }
    } catch {
      // A warm-up that fails costs the person nothing but the time: the real editor is apart from it.
      failed = true;
    }
    cpuMs += performance.now() - begun;
    if (typed >= WARM_KEYS || failed) {
      ended = true;
      finish();
      return;
    }
    idle = requestIdleCallback(step);
  };
  idle = requestIdleCallback(step);
  return stop;
}

/**
 * The warm-up's editor: hidden, out of the accessibility tree and of focus, on a document of its own, with a
 * small page as a writer's (a heading, paragraphs, a list) and the caret at the end of its last paragraph. If
 * making it fails, what was made is taken away again.
 */
function open(options: WarmOptions): { editor: Editor; host: HTMLElement; doc: Y.Doc; awareness: Awareness } {
  const host = document.createElement('div');
  host.className = 'typing-warm-up';
  host.setAttribute('aria-hidden', 'true');
  host.inert = true;
  const doc = new Y.Doc();
  const awareness = new Awareness(doc);
  let editor: Editor | null = null;
  try {
    document.body.append(host);
    editor = createPageEditor({
      element: host,
      document: undefined,
      editable: true,
      label: 'Typing warm-up',
      className: 'typing-warm-up-body',
      live: options.live?.(doc, awareness),
      extensions: [NoScroll, ...(options.extensions ?? [])],
    });
    const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
    editor.commands.setContent([
      { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Warm-up' }] },
      ...Array.from({ length: 12 }, (_, n) => paragraph(`Paragraph ${n} of the warm-up, a line as long as a writer's.`)),
      { type: 'bulletList', content: [{ type: 'listItem', content: [paragraph('An item')] }] },
      paragraph('Typing goes here'),
    ], { emitUpdate: false });
    editor.commands.setTextSelection(editor.state.doc.content.size - 1);
    return { editor, host, doc, awareness };
  } catch (error) {
    editor?.destroy();
    host.remove();
    awareness.destroy();
    doc.destroy();
    throw error;
  }
}

const LETTERS = 'the quick brown fox jumps over a lazy dog ';

/**
 * One key as the browser delivers it to ProseMirror: the keydown and keypress handlers (keymaps, input rules'
 * shortcuts, the selection read), then the browser's own edit of the text, read back by ProseMirror's DOM
 * observer. Enter and Backspace split and join paragraphs through the keymap.
 */
function typeKey(view: EditorView, n: number): void {
  const key = n % SPLIT_EVERY === SPLIT_EVERY - 1 ? 'Enter' : n % SPLIT_EVERY === 0 && n > 0 ? 'Backspace' : LETTERS[n % LETTERS.length]!;
  const keydown = new KeyboardEvent('keydown', { key, code: key.length === 1 ? `Key${key.toUpperCase()}` : key, keyCode: key === 'Enter' ? 13 : key === 'Backspace' ? 8 : key.toUpperCase().charCodeAt(0) });
  if (view.someProp('handleKeyDown', (f) => f(view, keydown))) return;
  if (key.length !== 1) return;
  const keypress = new KeyboardEvent('keypress', { key, charCode: key.charCodeAt(0) });
  if (view.someProp('handleKeyPress', (f) => f(view, keypress))) return;
  // The browser's insertion of the character into the text where the caret is, read back as typing is.
  const { node, offset } = view.domAtPos(view.state.selection.head);
  if (node.nodeType === Node.TEXT_NODE) {
    (node as Text).insertData(offset, key);
    (view as unknown as { domObserver: { flush(): void } }).domObserver.flush();
  } else {
    view.dispatch(view.state.tr.insertText(key));
  }
}
