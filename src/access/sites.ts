import type { Context } from '../context.ts';
import type { OrganizationRow, SiteRow } from '../db/rows.ts';
import { NotFound } from '../errors.ts';
import type { OrganizationActor } from '../policy/index.ts';
import { organizationAccess } from './organizations.ts';

export type { SiteRow };

export interface SiteAccess {
  organization: OrganizationRow;
  site: SiteRow;
  actor: OrganizationActor;
}

/**
 * Loads a site of an organization with the caller's standing in that organization. Outsiders get the
 * organization's 404; a site that is not in this organization is a 404 too. The caller's policy is checked
 * by the service (site.view, site.manage or site.admin).
 */
export async function siteAccess(ctx: Context, organizationId: string, siteId: string): Promise<SiteAccess> {
  const site = await findSiteAccess(ctx, organizationId, siteId);
  if (!site) throw siteNotFound(siteId);
  return site;
}

/** As siteAccess, but null when the organization exists for the caller and the site does not. */
export async function findSiteAccess(ctx: Context, organizationId: string, siteId: string): Promise<SiteAccess | null> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  const site = await ctx.db.selectFrom('sites').selectAll().where('id', '=', siteId).where('organization_id', '=', organizationId).executeTakeFirst();
  return site ? { organization, site, actor } : null;
}

/** Loads a site by its organization and id whoever asks (the published profile decides by audience). */
export async function loadSite(ctx: Pick<Context, 'db'>, organizationId: string, siteId: string): Promise<SiteRow | null> {
  return (await ctx.db.selectFrom('sites').selectAll().where('id', '=', siteId).where('organization_id', '=', organizationId).executeTakeFirst()) ?? null;
}

export function siteNotFound(siteId: string): NotFound {
  return new NotFound(`No site "${siteId}" exists in this organization.`);
}

/**
 * Marks a site changed: bumps the version the published reader keys its caches by, and the update time.
 * Every write to a site, its structure, share links or keys calls it in the same transaction.
 */
export async function touchSite(ctx: Context, siteId: string): Promise<void> {
  await ctx.db
    .updateTable('sites')
    .set((eb) => ({ version: eb('version', '+', 1), updated_at: ctx.clock.now().toISOString() }))
    .where('id', '=', siteId)
    .execute();
}
