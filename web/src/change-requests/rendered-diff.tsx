import type { JSONContent } from '@tiptap/core';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Document } from '../api/types.ts';
import { documentToEditor } from '../editor/convert.ts';
import { createPageEditor, type EditorPlace } from '../editor/editor.ts';
import { alignBlocks, type Kind } from './align.ts';
import './diff.css';

export type DiffMode = 'side-by-side' | 'inline';

const STORAGE_KEY = 'quire:diff-mode';

/** How this person last chose to read diffs (remembered per person in this browser); side by side at first. */
export function useDiffMode(userId: string): [DiffMode, (mode: DiffMode) => void] {
  const key = `${STORAGE_KEY}:${userId}`;
  const read = (): DiffMode => {
    try {
      return localStorage.getItem(key) === 'inline' ? 'inline' : 'side-by-side';
    } catch {
      return 'side-by-side';
    }
  };
  const [mode, setMode] = useState<DiffMode>(read);
  const choose = (next: DiffMode) => {
    setMode(next);
    try {
      localStorage.setItem(key, next);
    } catch {
      // A browser that keeps nothing still shows the choice for this visit.
    }
  };
  return [mode, choose];
}

/** Two buttons, one pressed: how every changed page below is drawn. */
export function DiffModeToggle(props: { mode: DiffMode; onChange: (mode: DiffMode) => void }) {
  return (
    <div class="diff-mode" role="group" aria-label="How to show the changes">
      <button type="button" class="button" aria-pressed={props.mode === 'side-by-side'} onClick={() => props.onChange('side-by-side')}>Side by side</button>
      <button type="button" class="button" aria-pressed={props.mode === 'inline'} onClick={() => props.onChange('inline')}>Inline</button>
    </div>
  );
}

const blocksOf = (document: Document | undefined): JSONContent[] => (document ? documentToEditor(document).content ?? [] : []);

/** A read-only drawing of blocks with the schema the editor writes with, each block marked as kept, added or removed. */
function MarkedBlocks(props: { blocks: JSONContent[]; kinds: Kind[]; label: string; place?: EditorPlace; words: [string, string] }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!host.current) return;
    const editor = createPageEditor({ element: host.current, document: undefined, editable: false, label: props.label, place: props.place });
    editor.commands.setContent({ type: 'doc', content: props.blocks.length > 0 ? props.blocks : [{ type: 'paragraph' }] }, { emitUpdate: false });
    if (props.blocks.length > 0) {
      editor.state.doc.forEach((_node, offset, index) => {
        const element = editor.view.nodeDOM(offset);
        const kind = props.kinds[index];
        if (element instanceof HTMLElement && kind && kind !== 'same') {
          element.classList.add(`diff-block-${kind}`);
          element.setAttribute('data-diff', kind === 'added' ? props.words[1] : props.words[0]);
        }
      });
    }
    return () => editor.destroy();
  }, [props.blocks, props.kinds]);
  return <div ref={host} class="diff-render" />;
}

/**
 * A changed page drawn as readers see it, the blocks that went and came marked (in colour and in words):
 * side by side (before on the left, after on the right) or inline (one column, removed blocks above the
 * blocks that replaced them). Either side may be absent (a page added or deleted).
 */
export function RenderedDiff(props: { before?: Document; after?: Document; mode: DiffMode; title: string; place?: EditorPlace; labels?: [string, string]; words?: [string, string] }) {
  const [beforeLabel, afterLabel] = props.labels ?? ['Before', 'After'];
  // How a block only on one side is named, in words as well as in colour.
  const words = props.words ?? ['Removed', 'Added'];
  const { before, after, aligned, beforeKinds, afterKinds, inlineBlocks, inlineKinds } = useMemo(() => {
    const before = blocksOf(props.before);
    const after = blocksOf(props.after);
    const aligned = alignBlocks(before, after);
    return {
      before,
      after,
      aligned,
      beforeKinds: before.map((_, index) => aligned.find((entry) => entry.beforeIndex === index)?.kind ?? 'same'),
      afterKinds: after.map((_, index) => aligned.find((entry) => entry.afterIndex === index)?.kind ?? 'same'),
      inlineBlocks: aligned.map((entry) => entry.node),
      inlineKinds: aligned.map((entry) => entry.kind),
    };
  }, [props.before, props.after]);
  const changed = aligned.filter((entry) => entry.kind !== 'same').length;
  if (props.mode === 'inline') {
    return (
      <div class="rendered-diff inline" data-changed-blocks={changed}>
        <MarkedBlocks blocks={inlineBlocks} kinds={inlineKinds} label={`${props.title}: changes inline`} place={props.place} words={words} />
      </div>
    );
  }
  return (
    <div class="rendered-diff side-by-side" data-changed-blocks={changed}>
      <section aria-label={`${props.title}: ${beforeLabel}`}>
        <h4 class="diff-side">{beforeLabel}</h4>
        {props.before ? <MarkedBlocks blocks={before} kinds={beforeKinds} label={`${props.title}, ${beforeLabel.toLowerCase()}`} place={props.place} words={words} /> : <p class="empty">No page here.</p>}
      </section>
      <section aria-label={`${props.title}: ${afterLabel}`}>
        <h4 class="diff-side">{afterLabel}</h4>
        {props.after ? <MarkedBlocks blocks={after} kinds={afterKinds} label={`${props.title}, ${afterLabel.toLowerCase()}`} place={props.place} words={words} /> : <p class="empty">No page here.</p>}
      </section>
    </div>
  );
}

/** A document drawn read-only with the editor's schema (a run of blocks on the conflicts screen). */
export function RenderedBlocks(props: { document: Document; label: string; place?: EditorPlace }) {
  const blocks = useMemo(() => blocksOf(props.document), [props.document]);
  const kinds = useMemo(() => blocks.map((): Kind => 'same'), [blocks]);
  return <MarkedBlocks blocks={blocks} kinds={kinds} label={props.label} place={props.place} words={['', '']} />;
}
