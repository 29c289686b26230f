import type { Context } from '../../context.ts';
import { expressionScope } from '../../content/documents.ts';
import { evaluateToBoolean } from '../../expressions/page.ts';
import { conditionHolds } from '../../expressions/conditions.ts';
import { siteAccess } from '../../access/sites.ts';
import { authorize } from '../../policy/index.ts';
import { loadSiteStructure, siteSpacesOf, visibleStructure } from '../../sites/structure.ts';
import { conditionalsOfRevision, type WrittenBlock } from './conditional-blocks.ts';

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

/**
 * Whether each block shows for the scope: a block inside a hidden block is hidden whatever its own
 * condition, as the reader renders it (blocks come in document order, so a block's parent is decided first).
 */
function decide(blocks: WrittenBlock[], holds: (condition: string) => boolean): ConditionalBlock[] {
  const decided: ConditionalBlock[] = [];
  for (const block of blocks) {
    const parentShown = block.parent < 0 || decided[block.parent].shown;
    decided.push({ condition: block.condition, shown: parentShown && holds(block.condition), text: block.text });
  }
  return decided;
}

/**
 * What a visitor with `claims` gets inside the pages of a site (Quire's own, for the "Try claims" form):
 * for every page of every site space the visitor gets (conditions of sections and site spaces applied) that
 * holds adaptive `if` blocks, each block with whether it is shown, evaluated with src/expressions/ in the
 * scope the published reader uses. Members of the organization may ask (guests are refused): the answer shows
 * hidden content's conditions and first words, which a visitor never sees. The pages' blocks are read once
 * per revision of each space (src/modules/sites/conditional-blocks.ts); each request only evaluates them.
 */
export async function tryClaimsContent(ctx: Context, organizationId: string, siteId: string, claims: Record<string, unknown>): Promise<{ pages: ConditionalPage[] }> {
  const { site, actor } = await siteAccess(ctx, organizationId, siteId);
  authorize(ctx, 'site.view', actor);
  const model = visibleStructure(await loadSiteStructure(ctx, site), (condition) => conditionHolds(condition, claims));
  const pages: ConditionalPage[] = [];
  for (const siteSpace of siteSpacesOf(model)) {
    const space = await ctx.db.selectFrom('spaces').select(['id', 'revision_id']).where('id', '=', siteSpace.row.space_id).where('deleted_at', 'is', null).executeTakeFirst();
    if (!space) continue;
    const conditionals = await conditionalsOfRevision(ctx, space.revision_id);
    if (!conditionals) continue;
    for (const { page, blocks } of conditionals.pages) {
      const scope = expressionScope(conditionals.tree, page, claims);
      pages.push({ siteSpace: siteSpace.row.id, space: space.id, page: page.node.id, title: page.node.title, path: page.path ?? '', blocks: decide(blocks, (condition) => evaluateToBoolean(condition, scope)) });
    }
  }
  return { pages };
}
