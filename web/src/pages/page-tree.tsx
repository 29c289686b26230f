import { useRef } from 'preact/hooks';
import type { RevisionPage } from '../api/types.ts';
import { followLink } from '../app/router.ts';
import { emojiOf } from '../spaces/home-screen.tsx';
import type { Person } from '../live/live-document.ts';
import { TreePeople } from '../live/tree-presence.tsx';

/** The moves a keyboard can ask of the tree (Alt+arrows), carried out by the screen through the API. */
export type TreeMove = { pageId: string; parent: string | null; position: number };

interface Placed {
  page: RevisionPage;
  parent: string | null;
  index: number;
  siblings: RevisionPage[];
}

function flatten(pages: RevisionPage[], parent: string | null = null, into: Placed[] = []): Placed[] {
  pages.forEach((page, index) => {
    into.push({ page, parent, index, siblings: pages });
    if (page.pages?.length) flatten(page.pages, page.id, into);
  });
  return into;
}

/**
 * The page tree as an ARIA tree: arrows move between pages, Enter opens one; when the tree is editable,
 * Alt+↑/↓ move a page among its siblings, Alt+→ puts it under the page above, Alt+← takes it out of its
 * parent, F2 renames and Delete deletes (each through the callbacks, which write through the API).
 */
export function PageTree(props: {
  pages: RevisionPage[];
  current?: string;
  href: (pageId: string) => string;
  onMove?: (move: TreeMove) => void;
  onRename?: (page: RevisionPage) => void;
  onDelete?: (page: RevisionPage) => void;
  /** Who else has each page open (live co-editing), shown beside it. */
  people?: Map<string, Person[]>;
}) {
  const tree = useRef<HTMLUListElement>(null);
  const placed = flatten(props.pages);

  const focusPage = (pageId: string) => {
    tree.current?.querySelector<HTMLElement>(`[data-page="${CSS.escape(pageId)}"]`)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent, at: Placed) => {
    const position = placed.indexOf(at);
    if (event.altKey && props.onMove) {
      const { page, parent, index, siblings } = at;
      if (event.key === 'ArrowUp' && index > 0) props.onMove({ pageId: page.id, parent, position: index - 1 });
      else if (event.key === 'ArrowDown' && index < siblings.length - 1) props.onMove({ pageId: page.id, parent, position: index + 1 });
      else if (event.key === 'ArrowRight' && index > 0) props.onMove({ pageId: page.id, parent: siblings[index - 1].id, position: siblings[index - 1].pages?.length ?? 0 });
      else if (event.key === 'ArrowLeft' && parent !== null) {
        const owner = placed.find((entry) => entry.page.id === parent)!;
        props.onMove({ pageId: page.id, parent: owner.parent, position: owner.index + 1 });
      } else return;
      event.preventDefault();
      return;
    }
    if (event.key === 'ArrowDown' && position < placed.length - 1) focusPage(placed[position + 1].page.id);
    else if (event.key === 'ArrowUp' && position > 0) focusPage(placed[position - 1].page.id);
    else if (event.key === 'F2' && props.onRename) props.onRename(at.page);
    else if (event.key === 'Delete' && props.onDelete) props.onDelete(at.page);
    else return;
    event.preventDefault();
  };

  const render = (pages: RevisionPage[], level: number) =>
    pages.map((page) => {
      const at = placed.find((entry) => entry.page.id === page.id)!;
      const selected = page.id === props.current;
      const href = props.href(page.id);
      return (
        <li key={page.id} role="none">
          <a
            role="treeitem"
            aria-level={level}
            aria-selected={selected}
            aria-current={selected ? 'page' : undefined}
            aria-expanded={page.pages?.length ? true : undefined}
            tabIndex={selected || (!props.current && at === placed[0]) ? 0 : -1}
            data-page={page.id}
            href={href}
            class="tree-item"
            onClick={(event) => followLink(event, href)}
            onKeyDown={(event) => onKeyDown(event, at)}
          >
            <span aria-hidden="true">{page.type === 'group' ? '▸' : emojiOf(page.emoji)}</span> {page.title || 'Untitled'}
            <TreePeople people={props.people?.get(page.id)} />
          </a>
          {page.pages && page.pages.length > 0 && (
            <ul role="group" class="tree-group">
              {render(page.pages, level + 1)}
            </ul>
          )}
        </li>
      );
    });

  if (props.pages.length === 0) return null;
  return (
    <ul role="tree" aria-label="Pages" class="tree" ref={tree}>
      {render(props.pages, 1)}
    </ul>
  );
}

/** The first page a reader would open: the first document, looking into groups. */
export function firstDocument(pages: RevisionPage[]): RevisionPage | undefined {
  for (const page of pages) {
    if (page.type === 'document') return page;
    const inner = firstDocument(page.pages ?? []);
    if (inner) return inner;
  }
  return undefined;
}
