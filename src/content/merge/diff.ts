import type { Context } from '../../context.ts';
import { decodeNode, type PageNode } from '../nodes.ts';
import { getObjects } from '../objects.ts';
import type { RevisionRoot } from '../revisions.ts';
import { sameList } from './order.ts';

/** A page as one revision holds it: its node, the node's hash, and its parent page (null at the top). */
export interface Placed {
  id: string;
  hash: string;
  node: PageNode;
  parent: string | null;
}

/** Reads page nodes by hash, all that are wanted at once (one query per round), and keeps what it read. */
export class NodeReader {
  private readonly nodes = new Map<string, PageNode>();
  private readonly wanted = new Set<string>();
  /** The page id of every node read, by node hash. */
  readonly idByHash = new Map<string, string>();
  /** How many nodes were read from the store (for tests and measurements). */
  read = 0;

  want(hash: string): void {
    if (!this.nodes.has(hash)) this.wanted.add(hash);
  }

  async fetch(ctx: Pick<Context, 'db'>): Promise<void> {
    if (this.wanted.size === 0) return;
    const hashes = [...this.wanted];
    this.wanted.clear();
    const objects = await getObjects(ctx, hashes);
    for (const [hash, data] of objects) {
      const node = decodeNode(data);
      this.nodes.set(hash, node);
      this.idByHash.set(hash, node.id);
    }
    this.read += objects.size;
  }

  node(hash: string): PageNode {
    const node = this.nodes.get(hash);
    if (!node) throw new Error(`Page node ${hash} was not read.`);
    return node;
  }
}

type TreeName = 'base' | 'side';

/**
 * What one side changed in the pages of the base, found top-down by node hash without reading what did
 * not change. A node's hash covers its whole subtree, so where a parent's children lists agree on a hash,
 * that subtree is the same on both sides and is never read. Where they differ, the nodes that only one
 * list holds are read and "placed" (in `base` or `side`, with their parent); a page placed on both sides
 * with different hashes has its children compared the same way, one level per round.
 *
 * After `settle`, for every page of the base:
 * - placed on both sides: changed, moved, or both (same hash: moved with its subtree unchanged);
 * - placed in `base` only: removed by the side (with everything under it, unless moved out, and then
 *   placed in `side`);
 * - not placed: unchanged and in the same place, or inside a page placed in `base` only (removed).
 * A page placed in `side` only was added by the side.
 */
export class SideDiff {
  readonly base = new Map<string, Placed>();
  readonly side = new Map<string, Placed>();
  private readonly expanded = { base: new Set<string>(), side: new Set<string>() };
  private readonly compared = new Set<string>();
  /** Pages placed on both sides with the same hash: everything under them is the same too. */
  private readonly same = new Set<string>();
  private queue: Array<{ tree: TreeName; hash: string; parent: string | null }> = [];

  constructor(
    private readonly reader: NodeReader,
    base: RevisionRoot,
    side: RevisionRoot,
  ) {
    if (!sameList(base.pages, side.pages)) this.compare(null, base.pages, side.pages);
  }

  /** Whether nodes are queued (to read, then place). */
  get busy(): boolean {
    return this.queue.length > 0;
  }

  /** Places the queued nodes (read by now) and compares the pages now placed on both sides. */
  place(): void {
    const batch = this.queue;
    this.queue = [];
    const placed: string[] = [];
    for (const { tree, hash, parent } of batch) {
      const node = this.reader.node(hash);
      this[tree].set(node.id, { id: node.id, hash, node, parent });
      placed.push(node.id);
    }
    for (const id of placed) this.match(id);
  }

  /**
   * When nothing is left to compare and pages are placed on the side only (added there, or moved out of a
   * page the side removed): reads one more level under them, and under the pages placed in the base only
   * (removed, or moved into an added page), until every page placed on the side only is found in the base
   * or known to be new.
   */
  widen(): void {
    const unmatched = [...this.side.values()].filter((placed) => !this.base.has(placed.id) && !this.inSame(this.side, placed));
    if (unmatched.length === 0) return;
    for (const placed of unmatched) this.expand('side', placed);
    for (const placed of this.base.values()) if (!this.side.has(placed.id) && !this.inSame(this.base, placed)) this.expand('base', placed);
  }

  /** Forgets what was placed under pages that turned out the same on both sides (it is the same too). */
  finish(): void {
    for (const tree of [this.base, this.side]) {
      const inside = [...tree.values()].filter((placed) => this.inSame(tree, placed));
      for (const placed of inside) tree.delete(placed.id);
    }
  }

  private match(id: string): void {
    const base = this.base.get(id);
    const side = this.side.get(id);
    if (!base || !side) return;
    if (base.hash === side.hash) {
      this.same.add(id);
      return;
    }
    if (this.compared.has(id)) return;
    this.compared.add(id);
    if (this.expanded.base.has(id) || this.expanded.side.has(id)) {
      // One side was already read in full (it looked added or removed): read the other in full too.
      this.expand('base', base);
      this.expand('side', side);
    } else {
      this.compare(id, base.node.children, side.node.children);
    }
  }

  /** Queues the children that only one of the two lists holds. */
  private compare(parent: string | null, base: string[], side: string[]): void {
    for (const hash of onlyIn(base, side)) this.enqueue('base', hash, parent);
    for (const hash of onlyIn(side, base)) this.enqueue('side', hash, parent);
  }

  private expand(tree: TreeName, placed: Placed): void {
    if (this.expanded[tree].has(placed.id)) return;
    this.expanded[tree].add(placed.id);
    for (const hash of placed.node.children) this.enqueue(tree, hash, placed.id);
  }

  private enqueue(tree: TreeName, hash: string, parent: string | null): void {
    this.queue.push({ tree, hash, parent });
    this.reader.want(hash);
  }

  /** Whether a placed page is under a page that is the same on both sides. */
  private inSame(tree: Map<string, Placed>, placed: Placed): boolean {
    for (let at = placed.parent; at !== null; at = tree.get(at)?.parent ?? null) if (this.same.has(at)) return true;
    return false;
  }
}

/**
 * The items of `list` that `other` does not hold. Lists of siblings mostly differ in a few places, so those
 * are looked up one by one; sets are built only when many places differ.
 */
function onlyIn(list: string[], other: string[]): string[] {
  const differing: string[] = [];
  for (let i = 0; i < list.length; i++) if (list[i] !== other[i]) differing.push(list[i]);
  if (differing.length <= 8) return differing.filter((item) => !other.includes(item));
  const inOther = new Set(other);
  return differing.filter((item) => !inOther.has(item));
}

/** Runs the diffs to the end, reading the nodes of all of them together: one query per round. */
export async function settle(ctx: Pick<Context, 'db'>, reader: NodeReader, diffs: SideDiff[]): Promise<void> {
  for (;;) {
    await reader.fetch(ctx);
    for (const diff of diffs) diff.place();
    if (diffs.some((diff) => diff.busy)) continue;
    for (const diff of diffs) diff.widen();
    if (!diffs.some((diff) => diff.busy)) break;
  }
  for (const diff of diffs) diff.finish();
}
