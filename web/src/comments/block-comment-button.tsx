import './comments.css';
import { blockComments } from './block-anchors.ts';

/**
 * "Comment on block": the block at the cursor becomes what the next comment is about, and the comment box
 * of the page takes the focus. The press does not take the focus from the editor first (mousedown), so the
 * cursor stays where it was; from the keyboard the editor keeps its selection while the button has focus.
 */
export function BlockCommentButton(props: { pageId: string }) {
  return (
    <p class="block-comment-bar">
      <button
        type="button"
        class="button"
        onMouseDown={(event) => event.preventDefault()}
        onClick={() => {
          if (!blockComments.commentOnBlockAtCursor()) return;
          document.getElementById(`new-comment-${props.pageId}`)?.focus();
        }}
      >
        Comment on block
      </button>
      <span class="meta"> Put the cursor in a block, then comment on it; the block is marked while the thread is open.</span>
    </p>
  );
}
