import type { PageFields, PageNode } from '../nodes.ts';
import { canonicalJson } from '../revisions.ts';
import type { Placed, SideDiff } from './diff.ts';
import { mergePageFields, threeWay } from './fields.ts';
import type { PageConflictKind } from './types.ts';

/** A page that one side or both touched, with its version in each revision (absent: not there). */
export interface PageEntry {
  id: string;
  base?: Placed;
  ours?: Placed;
  theirs?: Placed;
  /** Whether the page is in the merged content. */
  present: boolean;
  /** The merged parent, settings and body (hash); meaningful when present. */
  parent: string | null;
  fields?: PageFields;
  body?: string;
  /** Both sides changed the body: it is merged line by line once the three texts are read. */
  textMerge?: boolean;
}

/** A conflict before titles and paths are added; a page reordered without being read is named by its node hash. */
export interface ConflictDraft {
  kind: PageConflictKind;
  pageId?: string;
  hash?: string;
  detail: string;
}

const fieldsOf = (node: PageNode): PageFields => {
  const { body: _body, children: _children, ...fields } = node;
  return fields;
};

/** What a side decides about a page itself (settings, body and parent), not about its subtree. */
const ownKey = (placed: Placed) => canonicalJson({ ...fieldsOf(placed.node), body: placed.node.body ?? null, parent: placed.parent });

/**
 * The pages either side touched, each with its three versions: what each diff placed, and for a side that
 * did not place a page of the base: absent when the side removed a page above it, else as in the base.
 */
export function collectPages(ours: SideDiff, theirs: SideDiff): Map<string, PageEntry> {
  const baseOf = (id: string) => ours.base.get(id) ?? theirs.base.get(id);
  const removedAbove = (diff: SideDiff, id: string) => {
    for (let at = baseOf(id)?.parent ?? null; at !== null; at = baseOf(at)?.parent ?? null) {
      if (diff.base.has(at) && !diff.side.has(at)) return true;
    }
    return false;
  };
  const version = (diff: SideDiff, id: string, base: Placed | undefined) => {
    const placed = diff.side.get(id);
    if (placed) return placed;
    if (!base || diff.base.has(id) || removedAbove(diff, id)) return undefined;
    return base;
  };
  const entries = new Map<string, PageEntry>();
  for (const id of new Set([...ours.base.keys(), ...ours.side.keys(), ...theirs.base.keys(), ...theirs.side.keys()])) {
    const base = baseOf(id);
    entries.set(id, { id, base, ours: version(ours, id, base), theirs: version(theirs, id, base), present: false, parent: null });
  }
  return entries;
}

const titleOf = (entries: Map<string, PageEntry>, id: string | null) => {
  if (id === null) return 'the top level';
  const entry = entries.get(id);
  const node = (entry?.ours ?? entry?.theirs ?? entry?.base)?.node;
  return node ? `“${node.title}”` : `page ${id}`;
};

/**
 * Decides each touched page: whether it stays, where, with which settings and body. Returns the conflicts
 * found; bodies that both sides changed are only marked (`textMerge`), for `mergeBodies`.
 */
export function decidePages(entries: Map<string, PageEntry>): ConflictDraft[] {
  const conflicts: ConflictDraft[] = [];
  for (const entry of entries.values()) {
    const { id, base, ours, theirs } = entry;
    if (!ours && !theirs) continue;
    if (base && (!ours || !theirs)) {
      const kept = (ours ?? theirs)!;
      if (ownKey(kept) !== ownKey(base)) {
        const [deleter, changer] = ours ? ['Theirs', 'ours'] : ['Ours', 'theirs'];
        const how = kept.parent !== base.parent ? 'moved' : 'changed';
        conflicts.push({ kind: 'deleted-and-changed', pageId: id, detail: `${deleter} deleted the page (or a page above it); ${changer} ${how} it.` });
      }
      continue;
    }
    entry.present = true;
    if (!ours || !theirs) {
      const only = (ours ?? theirs)!;
      entry.parent = only.parent;
      entry.fields = fieldsOf(only.node);
      entry.body = only.node.body;
      continue;
    }
    const fields = mergePageFields(base && fieldsOf(base.node), fieldsOf(ours.node), fieldsOf(theirs.node));
    entry.fields = fields.fields;
    for (const conflict of fields.conflicts) conflicts.push({ kind: conflict.kind, pageId: id, detail: conflict.detail });
    const body = threeWay(base?.node.body, ours.node.body, theirs.node.body);
    if (body.ok) entry.body = body.value;
    else entry.textMerge = true;
    const parent = threeWay(base?.parent, ours.parent, theirs.parent);
    if (parent.ok) entry.parent = parent.value ?? null;
    else {
      entry.parent = ours.parent;
      conflicts.push({ kind: 'moved', pageId: id, detail: `Both sides moved the page: ours under ${titleOf(entries, ours.parent)}, theirs under ${titleOf(entries, theirs.parent)}.` });
    }
  }
  return conflicts;
}

/**
 * Pages placed under a page that is not in the merged content (added or moved by one side under a page
 * the other deleted), and pages whose merged parents make a loop (each side moved one into the other).
 */
export function checkPlacement(entries: Map<string, PageEntry>, conflicts: ConflictDraft[]): void {
  for (const entry of entries.values()) {
    if (!entry.present || entry.parent === null) continue;
    const parent = entries.get(entry.parent);
    if (!parent) throw new Error(`The merge lost track of page ${entry.parent}, the parent of ${entry.id}.`);
    if (!parent.present) {
      const side = entry.ours?.parent === entry.parent && entry.base?.parent !== entry.parent ? 'Ours' : 'Theirs';
      const deleter = side === 'Ours' ? 'theirs' : 'ours';
      const verb = entry.base ? 'moved' : 'added';
      conflicts.push({ kind: 'deleted-and-changed', pageId: entry.id, detail: `${side} ${verb} the page under ${titleOf(entries, entry.parent)}, which ${deleter} deleted.` });
      continue;
    }
    const seen = new Set<string>([entry.id]);
    for (let at: string | null = entry.parent; at !== null; at = entries.get(at)?.parent ?? null) {
      if (at === entry.id) {
        conflicts.push({ kind: 'moved', pageId: entry.id, detail: 'The two sides’ moves would put this page inside itself.' });
        break;
      }
      if (seen.has(at) || !entries.get(at)?.present) break;
      seen.add(at);
    }
  }
}
