import { Extension } from '@tiptap/core';
import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';

/** The class editor.css keeps out of `content-visibility: auto`: the top-level blocks the selection's ends are in. */
export const CARET_BLOCK = 'caret-block';

const key = new PluginKey<DecorationSet>('caret-block');

/** Node decorations on the top-level blocks holding the selection's two ends (one block when they share it). */
function caretBlocks(state: EditorState): DecorationSet {
  const { doc, selection } = state;
  const decorations: Decoration[] = [];
  const seen = new Set<number>();
  for (const position of [selection.from, selection.to]) {
    const $position = doc.resolve(position);
    const index = $position.index(0);
    if (index >= doc.childCount || seen.has(index)) continue;
    seen.add(index);
    const start = $position.posAtIndex(index, 0);
    decorations.push(Decoration.node(start, start + doc.child(index).nodeSize, { class: CARET_BLOCK }));
  }
  return DecorationSet.create(doc, decorations);
}

/** Same top-level blocks as before, at the same places: the old set serves, and the view redraws nothing. */
function sameBlocks(old: DecorationSet, next: DecorationSet): boolean {
  const a = old.find();
  const b = next.find();
  return a.length === b.length && a.every((decoration, index) => decoration.from === b[index].from && decoration.to === b[index].to);
}

/**
 * Marks the top-level block the caret (or each end of the selection) is in with `caret-block`. editor.css gives
 * the page's other top-level blocks `content-visibility: auto`, so Chromium skips laying out and painting those
 * away from the screen and its selection bookkeeping skips their text; the block being written in is always
 * laid out, the frame it is made in included, so what reads the caret's place (the slash and mention menus,
 * the input method, scrolling to the caret) reads a laid-out box. O(depth) per transaction: only the
 * selection's ends are resolved, never the whole document.
 */
export const CaretBlock = Extension.create({
  name: 'caretBlock',
  addProseMirrorPlugins() {
    return [
      new Plugin<DecorationSet>({
        key,
        state: {
          init: (_config, state) => caretBlocks(state),
          apply: (tr, old, _oldState, state) => {
            if (!tr.docChanged && !tr.selectionSet) return old;
            const mapped = old.map(tr.mapping, tr.doc);
            const next = caretBlocks(state);
            return sameBlocks(mapped, next) ? mapped : next;
          },
        },
        props: { decorations: (state) => key.getState(state) },
      }),
    ];
  },
});
