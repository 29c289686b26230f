/**
 * Three-way merge of revisions, for change requests (merge, and update from the space). Pages are matched
 * by their stable id; `base` is the last revision both sides share.
 *
 * Rules (a conflict of the named kind where it says so; see `MergeConflict` for every kind):
 * - a page added on one side is added where that side put it; under a page the other side deleted:
 *   `deleted-and-changed`;
 * - a page removed on one side and unchanged on the other is removed with its subtree; removed on one side
 *   and changed on the other (settings, body or parent): `deleted-and-changed`, reported on each changed
 *   page (a page edited deep under a removed page is the one named);
 * - a page moved (new parent, or new place among its siblings) on one side is moved; to different parents
 *   on both: `moved`; to the same parent on both: no conflict, ours' place among the siblings; reordered
 *   among the same siblings on both so that no order keeps both sides' moves, or moves that would put a page
 *   inside itself: `moved`;
 * - settings (title, description, emoji, icon, hidden, cover, link target, …) merge field by field, layout
 *   options and page variables key by key: a field changed on one side is taken, the same change on both is
 *   no conflict, different changes: `title` or `settings`; Git metadata never conflicts (ours is kept);
 * - bodies (Markdown) changed on one side are taken; changed on both, merged line by line (diff3), and
 *   edits that touch the same or adjacent lines: `body`;
 * - siblings that both sides inserted at the same place: ours first, then theirs;
 * - files: added on either side kept; removed on one side and unchanged on the other removed; removed and
 *   changed, or changed differently on both (name, or content): `file`;
 * - space variables: key by key, `variable`; reusable contents: by id, `reusable-content`.
 *
 * Fast paths: theirs is the base (or has the same content) → ours; ours is the base → theirs; both have the
 * same content → ours. Nothing is read or written then.
 */
export { mergeRevisions, mergeStats, type MergeInput } from './merge.ts';
export { mergeText, type TextConflict, type TextMerge } from './text.ts';
export type { MergeConflict, MergeConflictKind, MergeResult, PageConflictKind } from './types.ts';
