import { Extension } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { anchorOf, BLOCK_COMMENTS_CHANGED, blockComments } from './block-anchors.ts';

// Apart from block-anchors.ts: the comments panel of the read-only space screen uses that one, and must not
// pull the editor (TipTap, ProseMirror) into the workspace's first load.

const key = new PluginKey<DecorationSet>('block-comments');

/** Marks the blocks that have open comments (class `has-comments`). */
export const BlockCommentMarks = Extension.create({
  name: 'blockCommentMarks',
  addProseMirrorPlugins() {
    const decorate = (doc: ProseMirrorNode) => {
      const marks: Decoration[] = [];
      if (blockComments.anchored.size)
        doc.forEach((node, pos) => {
          if (blockComments.anchored.has(anchorOf(node))) marks.push(Decoration.node(pos, pos + node.nodeSize, { class: 'has-comments' }));
        });
      return DecorationSet.create(doc, marks);
    };
    return [
      new Plugin<DecorationSet>({
        key,
        state: {
          init: (_, state) => decorate(state.doc),
          apply: (tr, set) => (tr.docChanged || tr.getMeta(BLOCK_COMMENTS_CHANGED) ? decorate(tr.doc) : set),
        },
        props: { decorations: (state) => key.getState(state) },
      }),
    ];
  },
});
