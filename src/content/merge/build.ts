import { encodeNode, type PageNode } from '../nodes.ts';
import { objectHash, type ObjectKind } from '../objects.ts';
import type { RevisionRoot } from '../revisions.ts';
import type { Placed } from './diff.ts';
import { mergeOrder, reorderedKeys, sameList, type Side } from './order.ts';
import type { ConflictDraft, PageEntry } from './pages.ts';

/**
 * Children lists are compared by key: the page id of a touched page, or the node hash of a page that neither
 * side touched (it was never read, and its hash is the same in every list that holds it). A key is a page
 * id exactly when the merge has an entry for it (a node hash is never a page id).
 */
export class ChildLists {
  private readonly cache = new Map<string | null, { base: string[]; ours: string[]; theirs: string[] }>();

  constructor(
    private readonly entries: Map<string, PageEntry>,
    private readonly idByHash: Map<string, string>,
    private readonly roots: { base: RevisionRoot; ours: RevisionRoot; theirs: RevisionRoot },
  ) {}

  key(hash: string): string {
    const id = this.idByHash.get(hash);
    return id !== undefined && this.entries.has(id) ? id : hash;
  }

  /** The three lists of a parent (null: the top level); a list is empty where the parent is absent. */
  lists(parent: string | null): { base: string[]; ours: string[]; theirs: string[] } {
    const cached = this.cache.get(parent);
    if (cached) return cached;
    const of = (version: Placed | RevisionRoot | undefined) => {
      if (!version) return [];
      return ('pages' in version ? version.pages : version.node.children).map((hash) => this.key(hash));
    };
    const entry = parent === null ? undefined : this.entries.get(parent)!;
    const lists = entry
      ? { base: of(entry.base), ours: of(entry.ours), theirs: of(entry.theirs) }
      : { base: of(this.roots.base), ours: of(this.roots.ours), theirs: of(this.roots.theirs) };
    this.cache.set(parent, lists);
    return lists;
  }

  /** The side whose place for `key` counts: the one that moved it there or reordered it. */
  preference(lists: { base: string[]; ours: string[]; theirs: string[] }): (key: string) => Side | undefined {
    let known: { inBase: Set<string>; movedOurs: Set<string>; movedTheirs: Set<string> } | undefined;
    return (key) => {
      known ??= { inBase: new Set(lists.base), movedOurs: reorderedKeys(lists.base, lists.ours), movedTheirs: reorderedKeys(lists.base, lists.theirs) };
      return known.movedOurs.has(key) || !known.inBase.has(key) ? 'ours' : known.movedTheirs.has(key) ? 'theirs' : undefined;
    };
  }

  /**
   * Pages that both sides moved among the same siblings in ways no order satisfies: each side's moves are
   * the pairs of siblings whose order it flipped; the merged order must keep every flipped pair of both
   * sides (and the pairs neither flipped). A moved page whose flipped pair the merged order breaks conflicts.
   */
  reorderConflicts(parent: string | null, conflicts: ConflictDraft[]): void {
    const lists = this.lists(parent);
    if (sameList(lists.ours, lists.base) || sameList(lists.theirs, lists.base) || sameList(lists.ours, lists.theirs)) return;
    const moved = { ours: reorderedKeys(lists.base, lists.ours), theirs: reorderedKeys(lists.base, lists.theirs) };
    if (moved.ours.size === 0 || moved.theirs.size === 0) return;
    const inOurs = new Set(lists.ours);
    const inTheirs = new Set(lists.theirs);
    const common = lists.base.filter((key) => inOurs.has(key) && inTheirs.has(key));
    const inCommon = new Set(common);
    const positions = (list: string[]) => new Map(list.filter((key) => inCommon.has(key)).map((key, i) => [key, i]));
    const base = positions(lists.base);
    const result = positions(mergeOrder(lists.base, lists.ours, lists.theirs, this.preference(lists)));
    const reported = new Set<string>();
    for (const side of ['ours', 'theirs'] as const) {
      const order = positions(lists[side]);
      for (const key of moved[side]) {
        if (reported.has(key)) continue;
        const broken = common.some((other) => {
          if (other === key) return false;
          const before = (positions: Map<string, number>) => positions.get(key)! < positions.get(other)!;
          return before(order) !== before(base) && before(result) !== before(order);
        });
        if (!broken) continue;
        reported.add(key);
        const detail = 'Both sides moved pages among the same siblings, and no order keeps both sides’ moves.';
        conflicts.push(this.entries.has(key) ? { kind: 'moved', pageId: key, detail } : { kind: 'moved', hash: key, detail });
      }
    }
  }

  /** The merged children of a parent, as keys: merged order, only the pages the merge puts there. */
  merged(parent: string | null, childrenByParent: Map<string | null, string[]>): string[] {
    const lists = this.lists(parent);
    const order = mergeOrder(lists.base, lists.ours, lists.theirs, this.preference(lists)).filter((key) => {
      const entry = this.entries.get(key);
      return !entry || (entry.present && entry.parent === parent);
    });
    const placed = new Set(order);
    return [...order, ...(childrenByParent.get(parent) ?? []).filter((id) => !placed.has(id))];
  }
}

/**
 * Builds the merged tree bottom-up from the decided pages: a page whose merged node equals one side's keeps
 * that node (and its hash); other nodes, and merged bodies, are queued to be written. Untouched subtrees
 * are referred to by hash and never read.
 */
export function buildPages(entries: Map<string, PageEntry>, lists: ChildLists, texts: Map<string, string>): { pages: string[]; objects: Array<{ kind: ObjectKind; data: string }> } {
  const childrenByParent = new Map<string | null, string[]>();
  for (const entry of entries.values()) {
    if (!entry.present) continue;
    const siblings = childrenByParent.get(entry.parent) ?? [];
    siblings.push(entry.id);
    childrenByParent.set(entry.parent, siblings);
  }
  const objects: Array<{ kind: ObjectKind; data: string }> = [];
  const hashes = new Map<string, string>();
  const children = (parent: string | null): string[] => lists.merged(parent, childrenByParent).map((key) => (entries.has(key) ? hashOf(key) : key));
  const hashOf = (id: string): string => {
    const known = hashes.get(id);
    if (known) return known;
    const entry = entries.get(id)!;
    const node: PageNode = { ...entry.fields!, ...(entry.body ? { body: entry.body } : {}), children: children(id) };
    const data = encodeNode(node);
    const hash = objectHash('page', data);
    if (![entry.ours, entry.theirs, entry.base].some((version) => version?.hash === hash)) objects.push({ kind: 'page', data });
    const text = texts.get(id);
    if (text !== undefined && text !== '') objects.push({ kind: 'body', data: text });
    hashes.set(id, hash);
    return hash;
  };
  const pages = children(null);
  const reached = [...entries.values()].filter((entry) => entry.present && !hashes.has(entry.id));
  if (reached.length > 0) throw new Error(`The merged tree does not reach page ${reached[0].id}.`);
  return { pages, objects };
}
