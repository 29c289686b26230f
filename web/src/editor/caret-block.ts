import { Extension } from '@tiptap/core';
import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';

/** The class editor.css keeps out of `content-visibility: auto`: the top-level blocks the selection's ends are in. */
export const CARET_BLOCK = 'caret-block';

const key = new PluginKey<DecorationSet>('caret-block');

/** The top-level blocks holding the selection's two ends (one when they share it), as [from, to] ranges. */
function caretRanges(state: EditorState): Array<[number, number]> {
  const { doc, selection } = state;
  const ranges: Array<[number, number]> = [];
  for (const position of [selection.from, selection.to]) {
    const $position = doc.resolve(position);
    const index = $position.index(0);
    if (index >= doc.childCount) continue;
    const start = $position.posAtIndex(index, 0);
    if (ranges.some(([from]) => from === start)) continue;
    ranges.push([start, start + doc.child(index).nodeSize]);
  }
  return ranges;
}

/** Node decorations on those blocks. Building a set walks the page's top-level blocks: done only when they change. */
function caretBlocks(ranges: Array<[number, number]>, state: EditorState): DecorationSet {
  return DecorationSet.create(
    state.doc,
    ranges.map(([from, to]) => Decoration.node(from, to, { class: CARET_BLOCK })),
  );
}

/** The set marks those blocks already, at their places: it serves, and the view redraws nothing. */
function marks(set: DecorationSet, ranges: Array<[number, number]>): boolean {
  const found = set.find();
  return found.length === ranges.length && found.every((decoration, index) => decoration.from === ranges[index]![0] && decoration.to === ranges[index]![1]);
}

/**
 * Marks the top-level block the caret (or each end of the selection) is in with `caret-block`. editor.css gives
 * the page's other top-level blocks `content-visibility: auto`, so Chromium skips laying out and painting those
 * away from the screen and its selection bookkeeping skips their text; the block being written in is always
 * laid out, the frame it is made in included, so what reads the caret's place (the slash and mention menus,
 * the input method, scrolling to the caret) reads a laid-out box. O(depth) per transaction while the caret
 * stays in its block (the set is mapped through the edit); rebuilt, which walks the top-level blocks, only when
 * the selection's ends reach another block.
 */
export const CaretBlock = Extension.create({
  name: 'caretBlock',
  addProseMirrorPlugins() {
    return [
      new Plugin<DecorationSet>({
        key,
        state: {
          init: (_config, state) => caretBlocks(caretRanges(state), state),
          apply: (tr, old, _oldState, state) => {
            if (!tr.docChanged && !tr.selectionSet) return old;
            const mapped = tr.docChanged ? old.map(tr.mapping, tr.doc) : old;
            const ranges = caretRanges(state);
            return marks(mapped, ranges) ? mapped : caretBlocks(ranges, state);
          },
        },
        props: { decorations: (state) => key.getState(state) },
      }),
    ];
  },
});
