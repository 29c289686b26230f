import type { Context } from '../../context.ts';
import { bodyMarkdown } from '../../content/documents.ts';
import { findRevision } from '../../content/revisions.ts';
import { loadTree, walkPages } from '../../content/tree.ts';
import { suggestGlossaryTerms } from '../../translations/glossary-suggestions.ts';

/**
 * The glossary suggestions for a new translation of a space (src/translations/glossary-suggestions.ts):
 * read from the space's current content, the titles of the sites that publish it, and the organization's
 * glossary (terms it has in the source language are not suggested again).
 */
export async function glossarySuggestionsFor(ctx: Context, organizationId: string, spaceId: string, from: string): Promise<string[]> {
  const space = await ctx.db.selectFrom('spaces').select(['title', 'revision_id']).where('id', '=', spaceId).executeTakeFirst();
  if (!space) return [];
  const sites = await ctx.db
    .selectFrom('site_spaces')
    .innerJoin('sites', 'sites.id', 'site_spaces.site_id')
    .select('sites.title')
    .where('site_spaces.space_id', '=', spaceId)
    .where('sites.organization_id', '=', organizationId)
    .execute();
  const entries = await ctx.db.selectFrom('glossary_entries').select('translations').where('organization_id', '=', organizationId).execute();
  const known = entries.flatMap((entry) => {
    const term = (JSON.parse(entry.translations) as Record<string, string>)[from];
    return term ? [term] : [];
  });
  const revision = await findRevision(ctx, space.revision_id);
  const pages = revision ? [...walkPages((await loadTree(ctx, revision.root)).pages)] : [];
  const bodies: string[] = [];
  for (const page of pages) if (page.node.type === 'document') bodies.push(await bodyMarkdown(ctx, page));
  return suggestGlossaryTerms({ titles: [space.title, ...sites.map((site) => site.title)], pageTitles: pages.map((page) => page.node.title), bodies, known });
}
