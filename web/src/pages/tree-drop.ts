import type { RevisionPage } from '../api/types.ts';

/** Where a dragged page lands relative to the page under the pointer. */
export type DropZone = 'before' | 'after' | 'inside';

/** A move as the API takes it: the new parent (null: the top level) and the index among its children. */
export interface TreeMove {
  pageId: string;
  parent: string | null;
  position: number;
}

interface Found {
  page: RevisionPage;
  parent: RevisionPage | null;
  siblings: RevisionPage[];
}

function find(pages: RevisionPage[], id: string, parent: RevisionPage | null = null): Found | undefined {
  for (const page of pages) {
    if (page.id === id) return { page, parent, siblings: pages };
    const inner = find(page.pages ?? [], id, page);
    if (inner) return inner;
  }
  return undefined;
}

/** A page of a tree by id, at any depth. */
export function pageById(pages: RevisionPage[], id: string): RevisionPage | undefined {
  return find(pages, id)?.page;
}

/** Every document page of a tree, in reading order, with its depth (for a list to choose from). */
export function documentsOf(pages: RevisionPage[], depth = 0, into: Array<{ page: RevisionPage; depth: number }> = []): Array<{ page: RevisionPage; depth: number }> {
  for (const page of pages) {
    if (page.type === 'document') into.push({ page, depth });
    documentsOf(page.pages ?? [], page.type === 'document' ? depth + 1 : depth, into);
  }
  return into;
}

function contains(page: RevisionPage, id: string): boolean {
  return (page.pages ?? []).some((child) => child.id === id || contains(child, id));
}

/**
 * The zone of a row the pointer is over, from its height: the top quarter drops before it, the bottom quarter
 * after it, the middle inside it (only where a page may hold pages: documents and groups; otherwise the row is
 * split in two halves).
 */
export function dropZone(top: number, height: number, pointerY: number, canHold: boolean): DropZone {
  const at = (pointerY - top) / Math.max(height, 1);
  if (!canHold) return at < 0.5 ? 'before' : 'after';
  if (at < 0.25) return 'before';
  if (at > 0.75) return 'after';
  return 'inside';
}

/** Whether a page may hold others when dropped upon: documents and groups may, links may not. */
export function canHold(page: RevisionPage): boolean {
  return page.type === 'document' || page.type === 'group';
}

/**
 * The move that dropping `dragged` at `zone` of `over` asks for, or null when it is none or not allowed: a page
 * never goes into itself or a page under it, a group stays at the top level (as GitBook's groups do), a link
 * holds no pages. The position counts the siblings without the dragged page, as the API places it.
 */
export function moveFor(pages: RevisionPage[], draggedId: string, overId: string, zone: DropZone): TreeMove | null {
  if (draggedId === overId) return null;
  const dragged = find(pages, draggedId);
  const over = find(pages, overId);
  if (!dragged || !over || contains(dragged.page, overId)) return null;
  let move: TreeMove;
  if (zone === 'inside') {
    if (!canHold(over.page)) return null;
    const children = (over.page.pages ?? []).filter((child) => child.id !== draggedId);
    move = { pageId: draggedId, parent: over.page.id, position: children.length };
  } else {
    const siblings = over.siblings.filter((sibling) => sibling.id !== draggedId);
    const index = siblings.findIndex((sibling) => sibling.id === overId);
    move = { pageId: draggedId, parent: over.parent?.id ?? null, position: zone === 'before' ? index : index + 1 };
  }
  if (dragged.page.type === 'group' && move.parent !== null) return null;
  // Dropped where it already is: nothing to send.
  if ((dragged.parent?.id ?? null) === move.parent && dragged.siblings.indexOf(dragged.page) === move.position) return null;
  return move;
}
