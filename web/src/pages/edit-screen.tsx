import { useMemo, useState } from 'preact/hooks';
import { invalidate, useQuery } from '../api/cache.ts';
import { api } from '../api/operations.ts';
import { ApiError } from '../api/client.ts';
import type { RevisionPage } from '../api/types.ts';
import { ErrorNote } from '../app/error-note.tsx';
import { Link } from '../app/link.tsx';
import { navigate, paths } from '../app/router.ts';
import { CommentsPanel } from '../comments/comments-panel.tsx';
import { firstDocument, PageTree, type TreeMove } from './page-tree.tsx';
import { PageEditor } from './page-editor.tsx';
import { NewPageMenu, type NewKind } from './new-page-menu.tsx';
import { askEmoji, askLinkTarget, createFromMenu } from './tree-actions.ts';
import { pageById } from './tree-drop.ts';
import { useChangeRequestPresence } from '../live/tree-presence.tsx';

/** Each opening of a page in the editor loads it afresh. */
let visits = 0;

/** Writing in a change request: its page tree (create, rename, move, delete) and the chosen page's editor. */
export function EditScreen(props: { organizationId: string; spaceId: string; changeRequestId: string; pageId?: string }) {
  const { spaceId, changeRequestId } = props;
  const prefix = `cr:${spaceId}:${changeRequestId}`;
  const changeRequest = useQuery(`${prefix}:cr`, () => api.changeRequest(spaceId, changeRequestId));
  const space = useQuery(`space:${spaceId}`, () => api.space(spaceId));
  const content = useQuery(`${prefix}:content`, () => api.changeRequestContent(spaceId, changeRequestId));
  const pageId = props.pageId ?? (content.data ? firstDocument(content.data.pages)?.id : undefined);
  // The page is loaded once per opening (never reloaded under the editor): its revision is what the editor saves
  // against; "Load the latest version" opens it again.
  const [opened, setOpened] = useState(0);
  const visit = useMemo(() => ++visits, [pageId, opened]);
  const page = useQuery(pageId ? `${prefix}:page:${pageId}:visit-${visit}` : null, async () => {
    // The revision first, then the page: an edit landing in between makes the base older than the page, which
    // the server merges or refuses, never a base newer than what the editor shows.
    const current = await api.changeRequest(spaceId, changeRequestId);
    const loaded = await api.changeRequestPage(spaceId, changeRequestId, pageId!);
    return { page: loaded, revision: current.revision };
  });
  const [error, setError] = useState<string | null>(null);
  // Who is on which page of the change request (live co-editing), beside each page in the tree.
  // The tree follows the change request's: when the server says it changed (a page added, deleted, renamed or moved
  // by anyone), it is read again through the API; a page deleted while open is stopped by the server itself.
  const people = useChangeRequestPresence(props.organizationId, spaceId, changeRequestId, pageId, Boolean(changeRequest.data && changeRequest.data.status !== 'merged'), () => {
    invalidate(`${prefix}:content`);
    invalidate(`${prefix}:cr`);
  });

  const act = async (action: () => Promise<unknown>) => {
    setError(null);
    try {
      await action();
      invalidate(`${prefix}:content`);
      invalidate(`${prefix}:cr`);
    } catch (caught) {
      setError((caught as Error).message);
    }
  };
  const newPage = (parent?: string) =>
    act(async () => {
      const created = await api.createPage(spaceId, changeRequestId, { title: 'Untitled page', ...(parent ? { parent } : {}) });
      navigate(paths.edit(props.organizationId, spaceId, changeRequestId, created.id));
    });
  const createKind = (kind: NewKind) =>
    act(async () => {
      await createFromMenu(spaceId, changeRequestId, kind, content.data?.pages ?? []);
    });
  const setEmoji = (target: RevisionPage) => act(() => askEmoji(spaceId, changeRequestId, target));
  const setLinkTarget = (target: RevisionPage) => act(() => askLinkTarget(spaceId, changeRequestId, target, content.data?.pages ?? []));
  const move = (to: TreeMove) => act(() => api.updatePage(spaceId, changeRequestId, to.pageId, { parent: to.parent, position: to.position }));
  const rename = (target: RevisionPage) => {
    const title = window.prompt('New title of the page', target.title);
    if (title && title.trim() && title !== target.title) void act(() => api.updatePage(spaceId, changeRequestId, target.id, { title: title.trim() }));
  };
  const remove = (target: RevisionPage) => {
    if (!window.confirm(`Delete "${target.title}" and the pages under it from this change request?`)) return;
    void act(async () => {
      await api.deletePage(spaceId, changeRequestId, target.id);
      if (target.id === pageId) navigate(paths.edit(props.organizationId, spaceId, changeRequestId), true);
    });
  };

  // A reload that fails (the person's access taken away while a live page was open) keeps what was shown, with
  // the error above it: the page's edits that were not written stay on the screen to be copied.
  const failed = changeRequest.error ?? content.error;
  if (failed && (!changeRequest.data || !content.data)) return <main id="main" class="screen"><ErrorNote error={failed} /></main>;
  if (!changeRequest.data || !content.data) return <main id="main" class="screen" aria-busy="true"><p>Loading…</p></main>;
  const merged = changeRequest.data.status === 'merged';
  // Archived or merged: nothing in it can change (until an archived one is reopened). The page stays open
  // (read-only, live), so edits a writer made as it was archived or merged stay on the screen to be copied.
  const closed = merged || changeRequest.data.status === 'archived';
  // Access taken away while the page was open: what is on the screen stays to be copied, but nothing offers an
  // action the person may no longer take (the tree's, the review's, commenting).
  const lostAccess = failed ? accessLost(failed) : false;
  const canComment = !lostAccess && Boolean(space.data?.permissions.comment);
  const readOnly = closed || lostAccess;
  // Why nothing can be added here any more, said where it would be added (the files panel), and why the person
  // can no longer comment (access lost; a merged or archived change request is still discussed).
  const filesClosed = lostAccess
    ? { reason: 'The files of the space are not available: you no longer have access to this change request.', list: false }
    : merged
      ? { reason: 'Files can no longer be added to this change request: it is merged. Choose Edit in the space to add files.', list: true }
      : closed
        ? { reason: 'Files can no longer be added to this change request: it is archived. Reopen it to add files.', list: true }
        : undefined;
  // A group or a link has no body to write: the tree and its actions are what change it.
  const selected = pageId ? pageById(content.data.pages, pageId) : undefined;
  const bodyless = selected && selected.type !== 'document' ? selected : undefined;

  return (
    <div class="layout">
      <nav class="sidebar" aria-label="Change request">
        <p class="crumbs"><Link href={paths.space(props.organizationId, spaceId)}>← Back to the space</Link></p>
        <h2 class="sidebar-title">#{changeRequest.data.number} {changeRequest.data.subject || 'Untitled change request'}</h2>
        {!lostAccess && (
          <p>
            <Link href={paths.review(props.organizationId, spaceId, changeRequestId)} class="button">{closed ? 'See the review' : 'Review and merge'}</Link>
          </p>
        )}
        {content.data.pages.length === 0 ? (
          <p class="empty">No pages yet: create the first one.</p>
        ) : (
          <PageTree pages={content.data.pages} current={pageId} href={(id) => paths.edit(props.organizationId, spaceId, changeRequestId, id)} onMove={readOnly ? undefined : move} onRename={readOnly ? undefined : rename} onDelete={readOnly ? undefined : remove} onEmoji={readOnly ? undefined : setEmoji} onLinkTarget={readOnly ? undefined : setLinkTarget} people={people} />
        )}
        {!readOnly && (
          <>
            <p class="tree-actions"><button type="button" class="button" onClick={() => newPage()}>New page</button> <NewPageMenu onChoose={createKind} /></p>
            <p class="meta">In the tree: drag a page before, after or into another; or Alt+↑/↓ move a page, Alt+→ put it under the page above, Alt+← take it out, F2 rename, E set its emoji, L change where a link points, Delete delete.</p>
          </>
        )}
        {error && <p class="error-note" role="alert">{error}</p>}
      </nav>
      <main id="main" class="screen">
        {failed && <ReloadFailed error={failed} />}
        {merged && <p class="notice" role="status">This change request is merged; its pages are now the space's. Choose Edit in the space to change them again.</p>}
        {changeRequest.data.status === 'archived' && (
          <p class="notice" role="status">
            This change request is archived: its pages can no longer be edited. <Link href={paths.review(props.organizationId, spaceId, changeRequestId)}>Reopen it</Link> to edit them again.
          </p>
        )}
        {page.error && <ErrorNote error={page.error} />}
        {bodyless && (
          <p class="notice">
            “{bodyless.title}” is {bodyless.type === 'group' ? 'a group: a heading over the pages in it. Drag pages into it in the tree.' : 'a link page: the reader’s navigation opens where it points.'} Rename it with F2 and set its emoji with E in the tree.
          </p>
        )}
        {bodyless?.type === 'link' && !readOnly && (
          <p>
            <button type="button" class="button" onClick={() => setLinkTarget(bodyless)}>Change where it points</button>
          </p>
        )}
        {pageId && page.data && !bodyless && (
          <PageEditor
            key={`${pageId}:${opened}`}
            spaceId={spaceId}
            changeRequestId={changeRequestId}
            page={page.data.page}
            revision={page.data.revision}
            title={selected?.title}
            canComment={canComment}
            closed={filesClosed}
            onReload={() => setOpened(opened + 1)}
          />
        )}
        {pageId && page.data && !bodyless && (
          <CommentsPanel key={pageId} place={{ spaceId, changeRequestId }} page={{ id: pageId, title: page.data.page.title }} canComment={canComment} closed={lostAccess ? 'You no longer have access to this change request: you can no longer comment on it. Ask an administrator of the organization to add you again.' : undefined} />
        )}
        {!pageId && <p class="empty">Choose a page in the tree, or create one with <strong>New page</strong>.</p>}
      </main>
    </div>
  );
}

/**
 * Why the change request, once shown, could not be read again. Refused or not found now (403, 404): the person's
 * access was taken away (removed from the organization or the space) — said in their words, without the API's
 * ids, with what to do. Anything else (Quire unreachable) as it was worded.
 */
function ReloadFailed({ error }: { error: Error }) {
  if (!accessLost(error)) return <ErrorNote error={error} />;
  return (
    <p class="error-note" role="alert">
      You no longer have access to this change request: you may have been removed from its organization or space. Ask an administrator of the organization to add you again. Until then, copy the edits you want to keep from the page below.
    </p>
  );
}

/** Whether a reload failed because the person's access was taken away (refused or not found now). */
function accessLost(error: Error): boolean {
  return error instanceof ApiError && (error.status === 403 || error.status === 404);
}
