import { useEffect, useState } from 'preact/hooks';
import { lazy, Suspense } from 'preact/compat';
import { useSession } from '../account/session.ts';
import { useQuery } from '../api/cache.ts';
import { api } from '../api/operations.ts';
import type { RevisionPage } from '../api/types.ts';
import { ErrorNote } from '../app/error-note.tsx';
import { Link } from '../app/link.tsx';
import { navigate, paths } from '../app/router.ts';
import { openOrContinueChangeRequest } from '../change-requests/open-edit.ts';
import { CommentsPanel } from '../comments/comments-panel.tsx';
import { firstDocument, PageTree } from '../pages/page-tree.tsx';
import { emojiOf } from './home-screen.tsx';
import { StarButton, useFavoriteSpaces } from './favorites.tsx';
import { rememberSpace } from './recent-spaces.ts';

const PageView = lazy(() => import('../pages/page-view.tsx').then((module) => ({ default: module.PageView })));

function findPage(pages: RevisionPage[], id: string): RevisionPage | undefined {
  for (const page of pages) {
    if (page.id === id) return page;
    const found = page.pages ? findPage(page.pages, id) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** A space as it is (its live content): the page tree, the chosen page, and "Edit". */
export function SpaceScreen(props: { organizationId: string; spaceId: string; pageId?: string }) {
  const session = useSession();
  const space = useQuery(`space:${props.spaceId}`, () => api.space(props.spaceId));
  const content = useQuery(`space:${props.spaceId}:content`, () => api.spaceContent(props.spaceId));
  const [error, setError] = useState<string | null>(null);
  const [opening, setOpening] = useState(false);
  const favorites = useFavoriteSpaces();
  // Opened: the home screen's "Recently opened" lists it (in this browser).
  const opened = space.data ? { id: space.data.id, organization: space.data.organization } : null;
  useEffect(() => {
    if (opened) rememberSpace(session.user.id, opened);
  }, [opened?.id]);
  if (space.error || content.error) return <main id="main" class="screen"><ErrorNote error={(space.error ?? content.error)!} /></main>;
  if (!space.data || !content.data) return <main id="main" class="screen" aria-busy="true"><p>Loading…</p></main>;
  const pages = content.data.pages;
  const pageId = props.pageId ?? firstDocument(pages)?.id;
  const pageTitle = pageId ? findPage(pages, pageId)?.title : undefined;

  const edit = async () => {
    setOpening(true);
    setError(null);
    try {
      const changeRequest = await openOrContinueChangeRequest(props.spaceId, session.user.id, session.user.displayName);
      navigate(paths.edit(props.organizationId, props.spaceId, changeRequest.id, pageId));
    } catch (caught) {
      setError((caught as Error).message);
      setOpening(false);
    }
  };

  return (
    <div class="layout">
      <nav class="sidebar" aria-label="Space">
        <p class="crumbs"><Link href={paths.organization(props.organizationId)}>← Spaces</Link></p>
        <h2 class="sidebar-title"><span aria-hidden="true">{emojiOf(space.data.emoji)}</span> {space.data.title}</h2>
        {favorites.data && <p><StarButton space={space.data} starred={favorites.data.items.some((favorite) => favorite.id === props.spaceId)} /></p>}
        {pages.length === 0 ? (
          <p class="empty">This space has no pages. Choose <strong>Edit</strong> to write the first one in a change request.</p>
        ) : (
          <PageTree pages={pages} current={pageId} href={(id) => paths.space(props.organizationId, props.spaceId, id)} />
        )}
      </nav>
      <main id="main" class="screen">
        <div class="section-head">
          <p class="meta">Live content · {inProgress(space.data.changeRequestsOpen + space.data.changeRequestsDraft)}</p>
          <Link href={paths.history(props.organizationId, props.spaceId)} class="button">History</Link>
          <Link href={paths.spaceSettings(props.organizationId, props.spaceId)} class="button">{space.data.permissions.admin ? 'Share and settings' : 'Share'}</Link>
          {space.data.permissions.edit && (
            <button type="button" class="button primary" onClick={edit} disabled={opening}>{opening ? 'Opening…' : 'Edit'}</button>
          )}
        </div>
        {error && <p class="error-note" role="alert">{error}</p>}
        {pageId ? (
          <Suspense fallback={<p aria-busy="true">Loading the page…</p>}>
            <PageView key={pageId} load={() => api.spacePage(props.spaceId, pageId)} cacheKey={`space:${props.spaceId}:page:${pageId}`} />
          </Suspense>
        ) : (
          <p class="empty">{space.data.permissions.edit ? <>Nothing to show yet: <strong>Edit</strong> opens a change request to write the first page.</> : 'Nothing to show yet: the pages show here once someone writes them.'}</p>
        )}
        {pageId && pageTitle ? (
          <CommentsPanel key={pageId} place={{ spaceId: props.spaceId }} page={{ id: pageId, title: pageTitle }} canComment={space.data.permissions.comment} />
        ) : null}
      </main>
    </div>
  );
}

function inProgress(count: number): string {
  return count === 0 ? 'no change request in progress' : count === 1 ? '1 change request in progress' : `${count} change requests in progress`;
}
