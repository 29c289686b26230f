import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';

/**
 * Comments on a block of the page. A page's Markdown keeps no ids for its blocks, so a block is named by
 * what it is: `blk-` and a hash of its kind and text (the comment's `node`). While the block keeps its
 * words the comment finds it, and the block is marked in the editor; once they change the comment says
 * the block changed since (as a page comment says the page did).
 *
 * The open editor and the comments panel beside it meet here: the editor registers itself, "Comment on
 * block" takes the block at the cursor as the anchor of the next comment, and the panel tells which blocks
 * have open comments.
 */

/** FNV-1a, 32 bits: short and stable; a collision only marks a second block with the same words. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

export function anchorOf(node: ProseMirrorNode): string {
  return `blk-${hash(`${node.type.name}:${node.attrs.block ?? ''}:${node.textContent.slice(0, 2000)}`)}`;
}

/** A short text of a block, for the comment form and the thread. */
function previewOf(node: ProseMirrorNode): string {
  const text = node.textContent.replace(/\s+/g, ' ').trim();
  if (text) return text.length > 120 ? `${text.slice(0, 120)}…` : text;
  return `(${node.type.name === 'images' ? 'a picture' : node.type.name === 'fileBlock' ? 'a file' : `a ${node.type.name} block`})`;
}

export interface BlockAnchor {
  node: string;
  preview: string;
}

/** The transaction meta that tells the editor's marks (block-comment-marks.ts) to be drawn again. */
export const BLOCK_COMMENTS_CHANGED = 'block-comments-changed';

class BlockComments {
  editor: Editor | null = null;
  /** The block the next comment is about, chosen with "Comment on block". */
  pending: BlockAnchor | null = null;
  /** Blocks with open comments. */
  anchored = new Set<string>();
  private listeners = new Set<() => void>();

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(): void {
    for (const listener of this.listeners) listener();
    if (this.editor && !this.editor.isDestroyed) this.editor.view.dispatch(this.editor.state.tr.setMeta(BLOCK_COMMENTS_CHANGED, true));
  }

  register(editor: Editor): () => void {
    this.editor = editor;
    this.changed();
    return () => {
      if (this.editor === editor) this.editor = null;
      this.pending = null;
      this.changed();
    };
  }

  /** The top-level block at the cursor becomes the anchor of the next comment; false when there is none. */
  commentOnBlockAtCursor(): boolean {
    const editor = this.editor;
    if (!editor) return false;
    const { $from } = editor.state.selection;
    const node = $from.depth >= 1 ? $from.node(1) : editor.state.doc.nodeAt($from.pos);
    if (!node) return false;
    this.pending = { node: anchorOf(node), preview: previewOf(node) };
    this.changed();
    return true;
  }

  clearPending(): void {
    this.pending = null;
    this.changed();
  }

  setAnchored(ids: Iterable<string>): void {
    const next = new Set(ids);
    if (next.size === this.anchored.size && [...next].every((id) => this.anchored.has(id))) return;
    this.anchored = next;
    this.changed();
  }

  /** The block an anchor names, as the page is now, or null. */
  find(anchor: string): { pos: number; node: ProseMirrorNode; preview: string } | null {
    let found: { pos: number; node: ProseMirrorNode; preview: string } | null = null;
    this.editor?.state.doc.forEach((node, pos) => {
      if (!found && anchorOf(node) === anchor) found = { pos, node, preview: previewOf(node) };
    });
    return found;
  }

  /** Puts the cursor in the block and shows it. */
  reveal(anchor: string): boolean {
    const found = this.find(anchor);
    if (!found || !this.editor) return false;
    this.editor.chain().focus().setTextSelection(found.pos + 1).scrollIntoView().run();
    return true;
  }
}

export const blockComments = new BlockComments();
