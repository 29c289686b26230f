import { useEffect, useRef, useState } from 'preact/hooks';
import { useQuery } from '../api/cache.ts';
import { ErrorNote } from '../app/error-note.tsx';
import { historyApi, type MergeConflict, type Resolution } from '../history/api.ts';
import { RenderedDiff, type DiffMode } from './rendered-diff.tsx';
import { BlockMerge, type BlockChoices } from './block-merge.tsx';

/** Kinds of conflict the person can settle here by choosing a version of the page; the others are settled in the editor. */
const RESOLVABLE = new Set(['body', 'title', 'settings']);

type Choice = Resolution['take'];

/**
 * The conflicts a merge or an update from the space met: per conflicting page, the space's version and the
 * change request's, drawn side by side or inline, and a choice of one of them or an edited text. "Resolve"
 * updates the change request from the space with those choices (resolveChangeRequestConflicts), after which
 * it merges without them.
 */
export function ConflictsPanel(props: { spaceId: string; changeRequestId: string; conflicts: MergeConflict[]; mode: DiffMode; canEdit: boolean; onResolved: () => void }) {
  const pages = [...new Map(props.conflicts.filter((conflict) => conflict.pageId && RESOLVABLE.has(conflict.kind)).map((conflict) => [conflict.pageId!, conflict])).values()];
  const others = props.conflicts.filter((conflict) => !conflict.pageId || !RESOLVABLE.has(conflict.kind));
  // The change request's own version until the person chooses another.
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const [edits, setEdits] = useState<Record<string, { title: string; markdown: string }>>({});
  const [blockChoices, setBlockChoices] = useState<Record<string, BlockChoices>>({});
  // A page whose text conflicts is settled block by block at first; title and settings keep the page's choices.
  const bodyConflict = (pageId: string) => props.conflicts.some((conflict) => conflict.pageId === pageId && conflict.kind === 'body');
  const choiceOf = (pageId: string): Choice => choices[pageId] ?? (bodyConflict(pageId) ? 'blocks' : 'change-request');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [left, setLeft] = useState<MergeConflict[] | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // The panel opens after a refused merge or update: the keyboard and screen readers are taken to it.
  useEffect(() => heading.current?.focus(), []);

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      let revisions: { space: string; changeRequest: string } | undefined;
      const resolutions: Resolution[] = pages.map((conflict) => {
        const take = choiceOf(conflict.pageId!);
        const edit = edits[conflict.pageId!];
        if (take === 'blocks') {
          const chosen = blockChoices[conflict.pageId!];
          if (!chosen) throw new Error(`“${conflict.title}” is still being aligned block by block: wait a moment and resolve again.`);
          revisions = chosen.conflict.revisions;
          const title = edits[conflict.pageId!]?.title;
          return { pageId: conflict.pageId!, take, blocks: chosen.choices, ...(title ? { title } : {}) };
        }
        return take === 'edited' ? { pageId: conflict.pageId!, take, title: edit.title, markdown: edit.markdown } : { pageId: conflict.pageId!, take };
      });
      const answer = await historyApi.resolve(props.spaceId, props.changeRequestId, resolutions, revisions && { space: revisions.space, changeRequest: revisions.changeRequest });
      if (answer.result === 'conflicts') setLeft(answer.conflicts ?? []);
      else props.onResolved();
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="conflicts-title" class="conflicts">
      <h2 id="conflicts-title" tabIndex={-1} ref={heading}>Conflicts with the space</h2>
      <p>
        The space changed the same parts of {props.conflicts.length === 1 ? 'this page' : 'these pages'} since this change request started. Choose which version to keep, or
        edit the result; the change request is then updated with the space's other changes and can be merged.
      </p>
      {left && left.length > 0 && (
        <div class="error-note" role="alert">
          Some conflicts are still there: {left.map((conflict) => `“${conflict.title}” (${conflict.detail})`).join('; ')}.
        </div>
      )}
      {others.length > 0 && (
        <ul>
          {others.map((conflict, index) => (
            <li key={index}>
              <strong>{conflict.title}</strong>: {conflict.detail} Settle this one in the editor (restore or delete the page there), then update from the space again.
            </li>
          ))}
        </ul>
      )}
      {pages.length > 0 && (
        <form onSubmit={submit}>
          {pages.map((conflict) => (
            <ConflictingPage
              key={conflict.pageId}
              spaceId={props.spaceId}
              changeRequestId={props.changeRequestId}
              conflict={conflict}
              mode={props.mode}
              choice={choiceOf(conflict.pageId!)}
              edit={edits[conflict.pageId!]}
              blocks={bodyConflict(conflict.pageId!) ? blockChoices[conflict.pageId!] : undefined}
              canBlocks={bodyConflict(conflict.pageId!)}
              titleConflict={props.conflicts.some((other) => other.pageId === conflict.pageId && other.kind === 'title')}
              onBlocks={(value) => setBlockChoices((old) => ({ ...old, [conflict.pageId!]: value }))}
              onChoose={(choice) => setChoices({ ...choices, [conflict.pageId!]: choice })}
              onEdit={(edit) => setEdits({ ...edits, [conflict.pageId!]: edit })}
            />
          ))}
          {error && <p class="error-note" role="alert">{error}</p>}
          {props.canEdit ? (
            <button type="submit" class="button primary" disabled={busy}>{busy ? 'Resolving…' : 'Resolve and update the change request'}</button>
          ) : (
            <p class="meta">You need the edit level on this space to resolve conflicts.</p>
          )}
        </form>
      )}
    </section>
  );
}

function ConflictingPage(props: {
  spaceId: string;
  changeRequestId: string;
  conflict: MergeConflict;
  mode: DiffMode;
  choice: Choice;
  edit?: { title: string; markdown: string };
  blocks?: BlockChoices;
  canBlocks: boolean;
  titleConflict: boolean;
  onBlocks: (value: BlockChoices) => void;
  onChoose: (choice: Choice) => void;
  onEdit: (edit: { title: string; markdown: string }) => void;
}) {
  const pageId = props.conflict.pageId!;
  const key = `conflict:${props.spaceId}:${props.changeRequestId}:${pageId}`;
  const space = useQuery(`${key}:space`, () => historyApi.spacePage(props.spaceId, pageId, 'document'));
  const mine = useQuery(`${key}:cr`, () => historyApi.changeRequestPage(props.spaceId, props.changeRequestId, pageId, 'document'));
  const mineText = useQuery(`${key}:cr-markdown`, () => historyApi.changeRequestPage(props.spaceId, props.changeRequestId, pageId, 'markdown'));
  const name = `conflict-${pageId}`;
  const failed = space.error ?? mine.error ?? mineText.error;
  const choose = (choice: Choice) => {
    props.onChoose(choice);
    if (choice === 'edited' && !props.edit && mineText.data) props.onEdit({ title: mineText.data.title, markdown: mineText.data.markdown ?? '' });
  };
  // Block by block, the page's title is asked for only when both sides renamed it.
  useEffect(() => {
    if (props.choice === 'blocks' && props.titleConflict && !props.edit && mineText.data) props.onEdit({ title: mineText.data.title, markdown: mineText.data.markdown ?? '' });
  }, [props.choice, mineText.data]);
  return (
    <article class="conflict" aria-labelledby={`${name}-title`}>
      <h3 id={`${name}-title`}>{props.conflict.title}</h3>
      <p class="meta">{props.conflict.detail}</p>
      {failed ? (
        <ErrorNote error={failed} />
      ) : props.choice === 'blocks' ? (
        <BlockMerge spaceId={props.spaceId} changeRequestId={props.changeRequestId} pageId={pageId} title={props.conflict.title} value={props.blocks} onChange={props.onBlocks} />
      ) : !space.data || !mine.data ? (
        <p aria-busy="true">Loading both versions…</p>
      ) : (
        <RenderedDiff title={props.conflict.title} mode={props.mode} before={space.data.document} after={mine.data.document} labels={['The space', 'This change request']} words={['Only in the space', 'Only in this change request']} place={{ spaceId: props.spaceId, changeRequestId: props.changeRequestId }} />
      )}
      <fieldset>
        <legend>Keep for “{props.conflict.title}”</legend>
        {props.canBlocks && (
          <>
            <label><input type="radio" name={name} value="blocks" checked={props.choice === 'blocks'} onChange={() => choose('blocks')} /> Block by block</label>{' '}
          </>
        )}
        <label><input type="radio" name={name} value="change-request" checked={props.choice === 'change-request'} onChange={() => choose('change-request')} /> This change request's version</label>{' '}
        <label><input type="radio" name={name} value="space" checked={props.choice === 'space'} onChange={() => choose('space')} /> The space's version</label>{' '}
        <label><input type="radio" name={name} value="edited" checked={props.choice === 'edited'} disabled={!mineText.data} onChange={() => choose('edited')} /> An edited version</label>
      </fieldset>
      {props.choice === 'blocks' && props.titleConflict && props.edit && (
        <label class="conflict-edit">
          Title (both sides renamed the page)
          <input type="text" value={props.edit.title} onInput={(event) => props.onEdit({ ...props.edit!, title: event.currentTarget.value })} />
        </label>
      )}
      {props.choice === 'edited' && props.edit && (
        <div class="conflict-edit">
          <label>
            Title
            <input type="text" value={props.edit.title} onInput={(event) => props.onEdit({ ...props.edit!, title: event.currentTarget.value })} />
          </label>
          <label>
            Text (Markdown)
            <textarea value={props.edit.markdown} onInput={(event) => props.onEdit({ ...props.edit!, markdown: event.currentTarget.value })} />
          </label>
        </div>
      )}
    </article>
  );
}
