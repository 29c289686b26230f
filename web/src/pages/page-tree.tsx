import { useRef, useState } from 'preact/hooks';
import type { RevisionPage } from '../api/types.ts';
import { followLink } from '../app/router.ts';
import { emojiOf } from '../spaces/home-screen.tsx';
import { canHold, dropZone, moveFor, type DropZone, type TreeMove } from './tree-drop.ts';
import './page-tree.css';
import type { Person } from '../live/live-document.ts';
import { TreePeople } from '../live/tree-people.tsx';

/** The moves the keyboard (Alt+arrows) and the pointer (drag and drop) ask of the tree, carried out by the screen through the API. */
export type { TreeMove };

/** A drag in progress: the page held, and where it would land. */
interface Drag {
  id: string;
  over?: string;
  zone?: DropZone;
}

/** How far (px) the pointer moves with the button down before it is a drag, not a click. */
const DRAG_THRESHOLD = 5;

/** Where a link page leads: an address, or a page of the same content. */
function linkDestination(page: RevisionPage): { url?: string; page?: string } {
  const target = page.target as { kind: string; url?: unknown; page?: unknown } | undefined;
  if (target?.kind === 'page' && typeof target.page === 'string') return { page: target.page };
  if (target?.kind === 'url' && typeof target.url === 'string') return { url: target.url };
  return page.href ? { url: page.href } : {};
}

/** What a page shows before its title: its emoji, or a sign of its kind. */
function pageSign(page: RevisionPage): string {
  if (page.emoji) return emojiOf(page.emoji);
  // No icon font is bundled: the icon's name, as the editor draws an inline icon.
  if (page.icon) return `[${page.icon}]`;
  return page.type === 'group' ? '▸' : page.type === 'link' ? '↗' : '';
}

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
 * parent, F2 renames, E sets its emoji and Delete deletes (each through the callbacks, which write through the
 * API). With a pointer, a page is dragged onto another: its top quarter puts it before, its bottom quarter
 * after, its middle inside (a line or a frame shows which); Escape cancels the drag.
 */
export function PageTree(props: {
  pages: RevisionPage[];
  current?: string;
  href: (pageId: string) => string;
  onMove?: (move: TreeMove) => void;
  onRename?: (page: RevisionPage) => void;
  onDelete?: (page: RevisionPage) => void;
  onEmoji?: (page: RevisionPage) => void;
  /** Changes where a link page points (L on a link page). */
  onLinkTarget?: (page: RevisionPage) => void;
  /** Who else has each page open (live co-editing), shown beside it. */
  people?: Map<string, Person[]>;
}) {
  const tree = useRef<HTMLUListElement>(null);
  const placed = flatten(props.pages);
  // The page open may not be in the tree (deleted from the change request while it was open): the first page
  // then takes the tree's one tab stop, so the tree stays reachable from the keyboard.
  const listed = placed.some((entry) => entry.page.id === props.current);
  const [drag, setDragState] = useState<Drag | null>(null);
  // The latest drag, read when the pointer is released (the state may not have rendered yet).
  const latest = useRef<Drag | null>(null);
  const setDrag = (next: Drag | null) => {
    latest.current = next;
    setDragState(next);
  };
  const pressed = useRef<{ id: string; x: number; y: number; started: boolean } | null>(null);
  const dropped = useRef(false);

  const endDrag = (target: HTMLElement, pointerId: number) => {
    if (target.hasPointerCapture(pointerId)) target.releasePointerCapture(pointerId);
    pressed.current = null;
    setDrag(null);
  };
  const onPointerDown = (event: PointerEvent, page: RevisionPage) => {
    if (!props.onMove || event.button !== 0 || !event.isPrimary) return;
    pressed.current = { id: page.id, x: event.clientX, y: event.clientY, started: false };
  };
  const onPointerMove = (event: PointerEvent) => {
    const press = pressed.current;
    if (!press) return;
    const target = event.currentTarget as HTMLElement;
    if (!press.started) {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < DRAG_THRESHOLD) return;
      press.started = true;
      target.setPointerCapture(event.pointerId);
    }
    const row = document.elementFromPoint(event.clientX, event.clientY)?.closest<HTMLElement>('[data-page]');
    const over = row && tree.current?.contains(row) ? placed.find((entry) => entry.page.id === row.dataset.page) : undefined;
    if (!row || !over || over.page.id === press.id) {
      setDrag({ id: press.id });
      return;
    }
    const box = row.getBoundingClientRect();
    const zone = dropZone(box.top, box.height, event.clientY, canHold(over.page));
    // Only a drop the tree would carry out is shown as one.
    setDrag(moveFor(props.pages, press.id, over.page.id, zone) ? { id: press.id, over: over.page.id, zone } : { id: press.id });
  };
  const onPointerUp = (event: PointerEvent) => {
    const press = pressed.current;
    if (!press) return;
    if (press.started) {
      dropped.current = true;
      const at = latest.current;
      const move = at?.over && at.zone ? moveFor(props.pages, press.id, at.over, at.zone) : null;
      if (move) props.onMove?.(move);
    }
    endDrag(event.currentTarget as HTMLElement, event.pointerId);
  };

  const focusPage = (pageId: string) => {
    tree.current?.querySelector<HTMLElement>(`[data-page="${CSS.escape(pageId)}"]`)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent, at: Placed) => {
    const position = placed.indexOf(at);
    if (event.key === 'Escape' && pressed.current) {
      pressed.current = null;
      setDrag(null);
      event.preventDefault();
      return;
    }
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
    else if ((event.key === 'e' || event.key === 'E') && !event.ctrlKey && !event.metaKey && !event.altKey && props.onEmoji) props.onEmoji(at.page);
    else if ((event.key === 'l' || event.key === 'L') && !event.ctrlKey && !event.metaKey && !event.altKey && at.page.type === 'link' && props.onLinkTarget) props.onLinkTarget(at.page);
    else return;
    event.preventDefault();
  };

  const render = (pages: RevisionPage[], level: number) =>
    pages.map((page) => {
      const at = placed.find((entry) => entry.page.id === page.id)!;
      const selected = page.id === props.current;
      // Read-only, a link page goes where it points (an address, or the page it names); in a change request it is
      // chosen like any page, to be renamed, moved or given an emoji.
      const leads = !props.onMove && page.type === 'link' ? linkDestination(page) : {};
      const external = leads.url;
      const href = external ?? props.href(leads.page ?? page.id);
      const classes = ['tree-item', drag?.id === page.id ? 'dragging' : '', drag?.over === page.id ? `drop-${drag.zone}` : ''].filter(Boolean).join(' ');
      return (
        <li key={page.id} role="none">
          <a
            role="treeitem"
            aria-level={level}
            aria-selected={selected}
            aria-current={selected ? 'page' : undefined}
            aria-expanded={page.pages?.length ? true : undefined}
            tabIndex={selected || (!listed && at === placed[0]) ? 0 : -1}
            data-page={page.id}
            data-type={page.type}
            href={href}
            class={classes}
            draggable={props.onMove ? false : undefined}
            onClick={(event) => {
              // The click that ends a drag opens nothing.
              if (dropped.current) {
                dropped.current = false;
                event.preventDefault();
                return;
              }
              if (!external) followLink(event, href);
            }}
            onKeyDown={(event) => onKeyDown(event, at)}
            onPointerDown={(event) => onPointerDown(event, page)}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={(event) => endDrag(event.currentTarget, event.pointerId)}
          >
            <span aria-hidden="true">{pageSign(page)}</span> {page.title || 'Untitled'}
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
    <ul role="tree" aria-label="Pages" class={props.onMove ? 'tree tree-editable' : 'tree'} ref={tree}>
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
