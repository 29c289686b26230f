import type { Context } from '../../context.ts';
import { bodyMarkdown, expressionScope, includedDocuments, toDocument } from '../../content/documents.ts';
import { FrontmatterError } from '../../content/markdown/index.ts';
import { findRevision } from '../../content/revisions.ts';
import { loadTree, walkPages } from '../../content/tree.ts';
import { evaluateToBoolean } from '../../expressions/page.ts';
import { conditionHolds } from '../../expressions/conditions.ts';
import { siteAccess } from '../../access/sites.ts';
import { authorize } from '../../policy/index.ts';
import { loadSiteStructure, siteSpacesOf, visibleStructure } from '../../sites/structure.ts';

/** One adaptive `if` block of a page, and whether a visitor with the claims tried gets its content. */
export interface ConditionalBlock {
  condition: string;
  shown: boolean;
  /** The first words of the block's own text, to tell blocks apart. */
  text: string;
}

/** A page of a site space the visitor gets, with its conditional blocks in document order. */
export interface ConditionalPage {
  siteSpace: string;
  space: string;
  page: string;
  title: string;
  path: string;
  blocks: ConditionalBlock[];
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

/**
 * The `if` blocks of a document in document order, each with whether it shows for the scope: a block inside
 * a hidden block is hidden whatever its own condition, as the reader renders it.
 */
function blocksOf(document: Node, holds: (condition: string) => boolean): ConditionalBlock[] {
  const found: ConditionalBlock[] = [];
  const visit = (node: Node, parentShown: boolean) => {
    let shown = parentShown;
    if (node.object === 'block' && node.type === 'if' && typeof node.data?.expression === 'string') {
      shown = parentShown && holds(node.data.expression);
      const text = textOf(node);
      found.push({ condition: node.data.expression, shown, text: text.length > EXCERPT ? `${text.slice(0, EXCERPT - 1)}…` : text });
    }
    for (const child of node.nodes ?? []) visit(child, shown);
    for (const child of node.fragments ?? []) visit(child, shown);
  };
  visit(document, true);
  return found;
}

/**
 * What a visitor with `claims` gets inside the pages of a site (Quire's own, for the "Try claims" form):
 * for every page of every site space the visitor gets (conditions of sections and site spaces applied) that
 * holds adaptive `if` blocks, each block with whether it is shown, evaluated with src/expressions/ in the
 * scope the published reader uses. Members of the organization may ask (guests are refused): the answer shows
 * hidden content's conditions and first words, which a visitor never sees.
 */
export async function tryClaimsContent(ctx: Context, organizationId: string, siteId: string, claims: Record<string, unknown>): Promise<{ pages: ConditionalPage[] }> {
  const { site, actor } = await siteAccess(ctx, organizationId, siteId);
  authorize(ctx, 'site.view', actor);
  const model = visibleStructure(await loadSiteStructure(ctx, site), (condition) => conditionHolds(condition, claims));
  const pages: ConditionalPage[] = [];
  for (const siteSpace of siteSpacesOf(model)) {
    const space = await ctx.db.selectFrom('spaces').select(['id', 'revision_id']).where('id', '=', siteSpace.row.space_id).where('deleted_at', 'is', null).executeTakeFirst();
    if (!space) continue;
    const revision = await findRevision(ctx, space.revision_id);
    if (!revision) continue;
    const tree = await loadTree(ctx, revision.root);
    for (const page of walkPages(tree.pages)) {
      if (page.node.type !== 'document') continue;
      const source = await bodyMarkdown(ctx, page);
      if (!source.includes('{%')) continue;
      let document: Node;
      try {
        document = toDocument(source, tree, page, false) as unknown as Node;
      } catch (error) {
        // A page whose front matter cannot be read is rendered without its body's expressions (src/published/adaptive.ts).
        if (error instanceof FrontmatterError) continue;
        throw error;
      }
      const scope = expressionScope(tree, page, claims);
      const holds = (condition: string) => evaluateToBoolean(condition, scope);
      // Blocks of the reusable contents the page includes count as the page's: the reader renders them in place.
      const blocks = blocksOf(document, holds);
      for (const included of (await includedDocuments(ctx, tree, document as never)).values()) blocks.push(...blocksOf(included as unknown as Node, holds));
      if (blocks.length > 0) pages.push({ siteSpace: siteSpace.row.id, space: space.id, page: page.node.id, title: page.node.title, path: page.path ?? '', blocks });
    }
  }
  return { pages };
}
