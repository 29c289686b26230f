import type { Context } from '../../context.ts';
import { bodyMarkdown, includedDocuments, toDocument } from '../../content/documents.ts';
import { FrontmatterError } from '../../content/markdown/index.ts';
import { findRevision } from '../../content/revisions.ts';
import { loadTree, walkPages, type RevisionTree, type TreePage } from '../../content/tree.ts';
import { LruCache } from '../../lru.ts';

/**
 * The adaptive `if` blocks of each page of a revision, read and parsed once per revision for "Try claims"
 * (src/modules/sites/try-claims.ts): which blocks there are does not depend on the claims tried, only whether
 * each shows does. A revision's content never changes, so its blocks are kept under its root object's hash
 * (content-addressed, as the tree cache keeps trees, src/content/tree.ts); a space's head that moves (a merge,
 * a save, an import) names another revision, whose blocks are read afresh.
 */

/** One `if` block as written: its condition, its first words, and the block it sits in. */
export interface WrittenBlock {
  condition: string;
  /** The first words of the block's own text, to tell blocks apart. */
  text: string;
  /** The index (in the page's list) of the `if` block this one is nested in; -1 at the top of its document. */
  parent: number;
}

/** A page that holds `if` blocks (its own, and those of the reusable contents it includes), in document order. */
export interface ConditionalPageSource {
  page: TreePage;
  blocks: WrittenBlock[];
}

export interface RevisionConditionals {
  tree: RevisionTree;
  pages: ConditionalPageSource[];
}

interface Node {
  object?: string;
  type?: string;
  text?: string;
  leaves?: Array<{ text?: string }>;
  data?: { expression?: unknown };
  nodes?: Node[];
  fragments?: Node[];
}

const EXCERPT = 80;

function textOf(node: Node): string {
  if (node.object === 'text') return (node.leaves ?? []).map((leaf) => leaf.text ?? '').join('') || (node.text ?? '');
  // Text of this block's own content, without nested if blocks (they are listed themselves).
  const parts = [...(node.nodes ?? []), ...(node.fragments ?? [])].filter((child) => !(child.object === 'block' && child.type === 'if')).map(textOf);
  return parts.join(node.object === 'block' ? ' ' : '').replace(/\s+/g, ' ').trim();
}

/** Appends the `if` blocks of a document to `found` in document order, each with the block it is nested in. */
function collectBlocks(document: Node, found: WrittenBlock[]): void {
  const visit = (node: Node, parent: number) => {
    let inside = parent;
    if (node.object === 'block' && node.type === 'if' && typeof node.data?.expression === 'string') {
      const text = textOf(node);
      found.push({ condition: node.data.expression, text: text.length > EXCERPT ? `${text.slice(0, EXCERPT - 1)}…` : text, parent });
      inside = found.length - 1;
    }
    for (const child of node.nodes ?? []) visit(child, inside);
    for (const child of node.fragments ?? []) visit(child, inside);
  };
  visit(document, -1);
}

/** By root hash; weighed by pages and blocks kept: a few revisions of huge spaces cannot hold unbounded memory. */
const byRevision = new LruCache<string, RevisionConditionals>(1_000, 200_000);

/** Counts the pages read and parsed for their blocks (tests: a second try of the same revision parses none). */
export const conditionalBlockStats = { pagesParsed: 0 };

async function readConditionals(ctx: Context, root: string): Promise<RevisionConditionals> {
  const tree = await loadTree(ctx, root);
  const pages: ConditionalPageSource[] = [];
  for (const page of walkPages(tree.pages)) {
    if (page.node.type !== 'document') continue;
    const source = await bodyMarkdown(ctx, page);
    if (!source.includes('{%')) continue;
    conditionalBlockStats.pagesParsed++;
    let document: Node;
    try {
      document = toDocument(source, tree, page, false) as unknown as Node;
    } catch (error) {
      // A page whose front matter cannot be read is rendered without its body's expressions (src/published/adaptive.ts).
      if (error instanceof FrontmatterError) continue;
      throw error;
    }
    const blocks: WrittenBlock[] = [];
    collectBlocks(document, blocks);
    // Blocks of the reusable contents the page includes count as the page's: the reader renders them in place.
    for (const included of (await includedDocuments(ctx, tree, document as never)).values()) collectBlocks(included as unknown as Node, blocks);
    if (blocks.length > 0) pages.push({ page, blocks });
  }
  return { tree, pages };
}

/** The `if` blocks of the pages of a revision, read once per revision; undefined when there is no such revision. */
export async function conditionalsOfRevision(ctx: Context, revisionId: string): Promise<RevisionConditionals | undefined> {
  const revision = await findRevision(ctx, revisionId);
  if (!revision) return undefined;
  const kept = byRevision.get(revision.root);
  if (kept) return kept;
  const read = await readConditionals(ctx, revision.root);
  byRevision.set(revision.root, read, 1 + read.pages.reduce((sum, page) => sum + 1 + page.blocks.length, 0));
  return read;
}

/** Forgets every revision's blocks (tests). */
export function forgetConditionalBlocks(): void {
  byRevision.clear();
}
