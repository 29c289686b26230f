import type { Context } from '../context.ts';
import { defaultCustomization } from '../sites/customization.ts';
import type { SiteView, VariantView } from './model.ts';
import { pathSegments, type CurrentContent } from './resolve.ts';

/**
 * A space's own published address, `/s/{spaceId}` (the `urls.published` of a space): the reader shows the
 * space as a site of its own, with Quire's default look, when the space is public or unlisted and not in
 * the trash. Spaces shared otherwise (share links, visitor auth, through a collection) are read through
 * the sites that publish them; their `/s/` address is the 404 of an unknown site.
 */
export interface SpaceAddressing {
  view: SiteView;
  live: Map<string, CurrentContent>;
  segments: string[];
  visibility: 'public' | 'unlisted';
}

export async function spaceByAddress(ctx: Pick<Context, 'db' | 'config'>, url: string): Promise<SpaceAddressing | null> {
  const segments = pathSegments(url);
  if (!segments || segments.length < 2 || segments[0] !== 's') return null;
  const spaceId = segments[1];
  const row = await ctx.db
    .selectFrom('spaces')
    .innerJoin('revisions', 'revisions.id', 'spaces.revision_id')
    .select(['spaces.id', 'spaces.title', 'spaces.visibility', 'spaces.revision_id', 'revisions.root'])
    .where('spaces.id', '=', spaceId)
    .where('spaces.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row || (row.visibility !== 'public' && row.visibility !== 'unlisted') || !row.revision_id) return null;
  const variant: VariantView = { id: row.id, spaceId: row.id, title: row.title, segments: [], isDefault: true, section: null, language: null };
  const title = row.title || 'Documentation';
  const view: SiteView = {
    siteId: `space:${row.id}`,
    title,
    visibility: row.visibility,
    root: `/s/${encodeURIComponent(row.id)}`,
    origin: ctx.config.publicUrl,
    tabs: [],
    sections: [],
    variants: [variant],
    defaultVariant: variant,
    settings: defaultCustomization({ title }),
    settingsBySiteSpace: new Map(),
    // The title and visibility are all a page depends on besides its revision.
    key: `space:${row.id}:${row.visibility}:${title}`,
  };
  return { view, live: new Map([[row.id, { revisionId: row.revision_id, root: row.root }]]), segments: segments.slice(2), visibility: row.visibility };
}
