import { useCallback, useEffect, useRef } from 'preact/hooks';
import { useQuery } from '../api/cache.ts';
import type { DocumentPage } from '../api/types.ts';
import { ErrorNote } from '../app/error-note.tsx';
import { createPageEditor } from '../editor/editor.ts';
import { domFindTarget } from '../find/dom-find.ts';
import { FindInPage } from '../find/find-bar.tsx';

/** A page read-only, drawn by the same schema the editor writes with; Ctrl/⌘-F finds in it (its title too). */
export function PageView(props: { load: () => Promise<DocumentPage>; cacheKey: string }) {
  const page = useQuery(props.cacheKey, props.load);
  const host = useRef<HTMLDivElement>(null);
  const article = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!page.data || !host.current) return;
    const editor = createPageEditor({ element: host.current, document: page.data.document, editable: false, label: page.data.title });
    return () => editor.destroy();
  }, [page.data]);
  const findTarget = useCallback(() => (article.current ? domFindTarget(article.current) : null), []);
  if (page.error) return <ErrorNote error={page.error} />;
  if (!page.data) return <p aria-busy="true">Loading the page…</p>;
  return (
    <>
      <FindInPage target={findTarget} />
      <article class="page-view" ref={article}>
        <h1>{page.data.title}</h1>
        {page.data.description && <p class="lead">{page.data.description}</p>}
        <div ref={host} />
      </article>
    </>
  );
}
