/**
 * What a three-way merge of revisions answers: the root object of the merged content (already written to
 * the content store), or the list of conflicts (and nothing written).
 */
export type MergeResult = { result: 'merge'; root: string } | { result: 'conflicts'; conflicts: MergeConflict[] };

/**
 * The kinds of conflict:
 * - `body`: both sides changed the page's Markdown and some of their edits overlap (touch the same or
 *   adjacent lines of the base);
 * - `title`: both sides renamed the page differently;
 * - `settings`: both sides changed the same setting (description, emoji, icon, hidden, a layout option, a
 *   page variable, a link's target …) differently;
 * - `deleted-and-changed`: one side deleted the page (or a page above it) while the other changed it, moved
 *   it, or added it under a page the first side deleted;
 * - `moved`: both sides moved the page to different places (another parent, or another place among the
 *   same siblings), or their moves would put a page inside itself;
 * - `file`: both sides changed the same file differently, or one deleted a file the other changed;
 * - `variable`: both sides set the same space variable to different values (or one removed it while the
 *   other changed it);
 * - `reusable-content`: both sides changed the same reusable content differently.
 */
export type PageConflictKind = 'body' | 'title' | 'settings' | 'deleted-and-changed' | 'moved';
export type MergeConflictKind = PageConflictKind | 'file' | 'variable' | 'reusable-content';

export type MergeConflict =
  | {
      kind: PageConflictKind;
      pageId: string;
      /** The page's title (ours when the page is on our side, else theirs, else the base's). */
      title: string;
      /** The page's path in the revision its title comes from; absent for link pages. */
      path?: string;
      detail: string;
    }
  | { kind: 'file'; fileId: string; title: string; detail: string }
  | { kind: 'variable'; variable: string; title: string; detail: string }
  | { kind: 'reusable-content'; reusableContentId: string; title: string; detail: string };
