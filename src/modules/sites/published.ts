import type { Context } from '../../context.ts';
import { NotFound } from '../../errors.ts';
import { allows } from '../../policy/index.ts';
import { conditionHolds } from '../../expressions/conditions.ts';
import { loadStoredCustomizations, siteSettings, siteSpaceSettings, type SiteCustomizationSettings } from '../../sites/customization.ts';
import { loadSiteStructure, siteSpacesOf, visibleStructure } from '../../sites/structure.ts';
import { identifyVisitor, siteAudience } from '../../sites/visitor.ts';
import { loadSite } from '../../access/sites.ts';
import { presentSite } from './presenter.ts';
import { loadSiteView } from './site-views.ts';
import type { Site } from './schemas.ts';
import { presentStructure } from './structure-presenter.ts';
import { loadStructureView } from './structure-view.ts';
import type { PublishedQuery, SiteStructure } from './structure-schemas.ts';

export interface PublishedContentSite {
  object: 'published-content-site';
  site: Site;
  structure: SiteStructure;
  customizations: { site: SiteCustomizationSettings; siteSpaces: Record<string, SiteCustomizationSettings> };
  scripts: never[];
}

/** A non-guest, enabled member of the organization. */
async function isMember(ctx: Context, organizationId: string): Promise<boolean> {
  if (!ctx.actor) return false;
  const row = await ctx.db
    .selectFrom('members')
    .select('role')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', ctx.actor.userId)
    .where('disabled', '=', 0)
    .executeTakeFirst();
  return row !== undefined && row.role !== null;
}

/**
 * The complete profile of a published site, for its audience: members of the organization (even
 * unpublished), anyone when it is public or unlisted, holders of an active share key (share-link), holders
 * of a valid visitor JWT (visitor-auth; the `jwt_token` query). Anyone else is told the site does not exist.
 * The structure is what the visitor sees: sections and site spaces whose condition does not hold for the
 * visitor's claims are left out.
 */
export async function getPublishedSite(ctx: Context, organizationId: string, siteId: string, query: PublishedQuery): Promise<PublishedContentSite> {
  const notFound = new NotFound(`No published site "${siteId}" exists for you in this organization.`);
  const site = await loadSite(ctx, organizationId, siteId);
  if (!site) {
    ctx.checked.add('site.readPublished');
    throw notFound;
  }
  const [member, visitor] = await Promise.all([
    isMember(ctx, organizationId),
    identifyVisitor(ctx, site, { shareKey: query.shareKey || undefined, jwt: query.jwt_token || undefined }),
  ]);
  const { claims, sharedWith } = visitor;
  const audience = siteAudience(site, visitor, member);
  if (!allows(ctx, 'site.readPublished', audience)) throw notFound;

  const model = visibleStructure(await loadSiteStructure(ctx, site), (condition) => conditionHolds(condition, claims));
  const [siteView, view] = await Promise.all([loadSiteView(ctx, site), loadStructureView(ctx, site, sharedWith ? query.shareKey : null, model)]);
  const stored = await loadStoredCustomizations(ctx, site.id);
  const customization = siteSettings(site, stored);
  const siteSpaces: Record<string, SiteCustomizationSettings> = {};
  for (const s of siteSpacesOf(model)) siteSpaces[s.row.id] = siteSpaceSettings(site, stored, s.row.id);
  return {
    object: 'published-content-site',
    site: presentSite(ctx, siteView),
    structure: presentStructure(ctx, view),
    customizations: { site: customization, siteSpaces },
    scripts: [],
  };
}
