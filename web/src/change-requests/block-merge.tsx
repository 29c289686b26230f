import { useRef, useState } from 'preact/hooks';
import { useQuery } from '../api/cache.ts';
import { ErrorNote } from '../app/error-note.tsx';
import { historyApi, type BlockChoice, type PageConflict, type RunSide } from '../history/api.ts';
import { BlockEditor } from './block-editor.tsx';
import { RenderedBlocks } from './rendered-diff.tsx';

type Run = PageConflict['runs'][number];

/** What a run taken without a choice says about itself. */
const SETTLED: Record<Exclude<Run['status'], 'conflict'>, string> = {
  unchanged: 'Unchanged',
  space: 'Already merged: changed in the space only',
  'change-request': 'Already merged: changed in this change request only',
  merged: 'Already merged: both changed it, in different lines',
};

/** The choices of one page, kept by the panel: one per conflicting run, and the aligned page they were made on. */
export interface BlockChoices {
  conflict: PageConflict;
  choices: BlockChoice[];
}

/**
 * A page's body aligned block by block (getChangeRequestPageConflict): runs changed on one side or merged
 * are shown as merged; each conflicting run shows the common version, the space's and this change
 * request's side by side, with "keep the space's", "keep mine", "keep both" and "edit". The server says
 * which runs conflict; the browser only collects the choices, and the preview is the server's too.
 */
export function BlockMerge(props: { spaceId: string; changeRequestId: string; pageId: string; title: string; value?: BlockChoices; onChange: (value: BlockChoices) => void }) {
  const key = `conflict:${props.spaceId}:${props.changeRequestId}:${props.pageId}:blocks`;
  const aligned = useQuery(key, () => historyApi.pageConflict(props.spaceId, props.changeRequestId, props.pageId));
  const [preview, setPreview] = useState<RunSide | null>(null);
  const [previewError, setPreviewError] = useState<Error | null>(null);
  if (aligned.error) return <ErrorNote error={aligned.error} />;
  if (!aligned.data) return <p aria-busy="true">Aligning the page block by block…</p>;
  const conflict = aligned.data;
  const value = props.value?.conflict === conflict ? props.value : { conflict, choices: conflict.runs.filter((run) => run.status === 'conflict').map((): BlockChoice => ({ take: 'change-request' })) };
  const choose = (index: number, choice: BlockChoice) => {
    setPreview(null);
    props.onChange({ conflict, choices: value.choices.map((old, at) => (at === index ? choice : old)) });
  };
  const place = { spaceId: props.spaceId, changeRequestId: props.changeRequestId };
  const showPreview = async () => {
    setPreviewError(null);
    try {
      setPreview(await historyApi.previewBlocks(props.spaceId, props.changeRequestId, props.pageId, value.choices, conflict.revisions));
    } catch (caught) {
      setPreviewError(caught as Error);
    }
  };
  return (
    <div class="block-merge" data-conflicts={conflict.conflicts}>
      <p class="meta">
        {conflict.conflicts === 1 ? 'One run of blocks conflicts' : `${conflict.conflicts} runs of blocks conflict`}; the rest is already merged.
      </p>
      {conflict.runs.map((run, index) =>
        run.status === 'conflict' ? (
          <ConflictRun key={index} run={run} number={run.conflict!} title={props.title} pageId={props.pageId} choice={value.choices[run.conflict!]} onChoose={(choice) => choose(run.conflict!, choice)} place={place} />
        ) : (
          <section key={index} class={`block-run settled run-${run.status}`} aria-label={`${props.title}: ${SETTLED[run.status]}`}>
            <h4 class="diff-side">{SETTLED[run.status]}</h4>
            <RenderedBlocks document={(run.result ?? run.changeRequest).document} label={`${props.title}, ${SETTLED[run.status].toLowerCase()}`} place={place} />
          </section>
        ),
      )}
      <button type="button" class="button" onClick={showPreview}>Preview the merged page</button>
      {previewError && <ErrorNote error={previewError} />}
      {preview && (
        <section class="block-run preview" aria-label={`${props.title}: the merged page`}>
          <h4 class="diff-side">The merged page, as it will be</h4>
          <RenderedBlocks document={preview.document} label={`${props.title}, merged`} place={place} />
        </section>
      )}
    </div>
  );
}

function ConflictRun(props: { run: Run; number: number; title: string; pageId: string; choice: BlockChoice; onChoose: (choice: BlockChoice) => void; place: { spaceId: string; changeRequestId: string } }) {
  const name = `block-${props.pageId}-${props.number}`;
  const label = `Conflict ${props.number + 1}`;
  const side = (which: 'base' | 'space' | 'changeRequest', heading: string) => (
    <section aria-label={`${props.title}, ${label}: ${heading}`}>
      <h5 class="diff-side">{heading}</h5>
      {props.run[which].markdown === '' ? <p class="empty">No blocks here.</p> : <RenderedBlocks document={props.run[which].document} label={`${props.title}, ${label}, ${heading.toLowerCase()}`} place={props.place} />}
    </section>
  );
  // "Edit" opens the page editor on my side of the run; "Markdown" is the text instead. Each starts from my side.
  const mine = props.run.changeRequest;
  const choose = (take: BlockChoice['take']) =>
    props.onChoose(take === 'edited' ? (props.choice.take === 'edited' ? props.choice : { take, document: mine.document }) : { take });
  const asMarkdown = props.choice.take === 'edited' && props.choice.document === undefined;
  const editRadio = useRef<HTMLInputElement>(null);
  return (
    <section class="block-run conflicting" aria-labelledby={`${name}-title`} data-conflict={props.number}>
      <h4 id={`${name}-title`}>{label}: both changed these blocks</h4>
      <div class="block-sides">
        {side('base', 'Before either change')}
        {side('space', "The space's")}
        {side('changeRequest', 'Mine (this change request)')}
      </div>
      <fieldset>
        <legend>Keep for {label.toLowerCase()}</legend>
        <label><input type="radio" name={name} value="space" checked={props.choice.take === 'space'} onChange={() => choose('space')} /> Keep the space's</label>{' '}
        <label><input type="radio" name={name} value="change-request" checked={props.choice.take === 'change-request'} onChange={() => choose('change-request')} /> Keep mine</label>{' '}
        <label><input type="radio" name={name} value="both" checked={props.choice.take === 'both'} onChange={() => choose('both')} /> Keep both (mine first)</label>{' '}
        <label><input ref={editRadio} type="radio" name={name} value="edited" checked={props.choice.take === 'edited'} onChange={() => choose('edited')} /> Edit</label>
      </fieldset>
      {props.choice.take === 'edited' && (
        <div class="block-edit">
          <button type="button" class="button" aria-pressed={asMarkdown} onClick={() => props.onChoose(asMarkdown ? { take: 'edited', document: mine.document } : { take: 'edited', markdown: mine.markdown })}>
            {asMarkdown ? 'Edit in the editor (starts again from mine)' : 'Edit as Markdown (starts again from mine)'}
          </button>
          {asMarkdown ? (
            <label>
              The blocks' text (Markdown)
              <textarea value={props.choice.markdown ?? ''} onInput={(event) => props.onChoose({ take: 'edited', markdown: event.currentTarget.value })} />
            </label>
          ) : (
            <BlockEditor
              key="editor"
              document={mine.document}
              label={`${props.title}, ${label}: the blocks to keep (Escape leaves the editor)`}
              place={props.place}
              onChange={(document) => props.onChoose({ take: 'edited', document })}
              onLeave={() => editRadio.current?.focus()}
            />
          )}
        </div>
      )}
    </section>
  );
}
