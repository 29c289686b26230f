import { useEffect, useState } from 'preact/hooks';
import { blockComments } from './block-anchors.ts';

/** On a thread about a block: the block's words as the page has them now, and a way to it; or that it changed. */
export function BlockAnchorNote(props: { node: string }) {
  const [, setTick] = useState(0);
  useEffect(() => blockComments.subscribe(() => setTick((n) => n + 1)), []);
  const found = blockComments.editor ? blockComments.find(props.node) : null;
  if (!blockComments.editor) return <p class="meta comment-anchor-note">On a block of the page.</p>;
  if (!found) return <p class="meta comment-anchor-note">On a block that has changed since.</p>;
  return (
    <p class="comment-anchor-note">
      <span class="meta">On the block </span>
      <q>{found.preview}</q>{' '}
      <button type="button" class="link-button" onClick={() => blockComments.reveal(props.node)}>
        Show the block
      </button>
    </p>
  );
}
