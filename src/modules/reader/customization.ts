import { inTransaction, nowIso, type Context } from '../../context.ts';
import { BadRequest, NotFound } from '../../errors.ts';
import { authorize } from '../../policy/index.ts';
import { loadStoredCustomizations, siteSettings, siteSpaceSettings, type SiteCustomizationSettings } from '../../sites/customization.ts';
import { siteAccess, touchSite, type SiteAccess } from '../../access/sites.ts';
import { refuseUnknownCustomizationMembers } from '../../sites/customization-members.ts';

/**
 * A site's customization: what its members read (site.view) and builders change (site.manage). PUT stores
 * the site's settings as given; a site space's PATCH lays its parts over what that site space already
 * overrides (null resets a part). Every write bumps the site's version, so the reader shows it at once.
 */

async function siteSpaceOf(ctx: Context, access: SiteAccess, siteSpaceId: string): Promise<void> {
  const row = await ctx.db.selectFrom('site_spaces').select('id').where('id', '=', siteSpaceId).where('site_id', '=', access.site.id).executeTakeFirst();
  if (!row) throw new NotFound(`No site space "${siteSpaceId}" exists in this site.`);
}

/** Settings are stored as JSON text; a body over 256 KB is refused rather than slowing every page. */
function serialize(settings: Record<string, unknown>): string {
  const text = JSON.stringify(settings);
  if (text.length > 256 * 1024) throw new BadRequest('These customization settings are larger than 256 KB: shorten the header and footer links.');
  return text;
}

async function store(ctx: Context, siteId: string, siteSpaceId: string, settings: Record<string, unknown>): Promise<void> {
  const text = serialize(settings);
  await ctx.db
    .insertInto('site_customizations')
    .values({ site_id: siteId, site_space_id: siteSpaceId, settings: text, updated_at: nowIso(ctx) })
    .onConflict((oc) => oc.columns(['site_id', 'site_space_id']).doUpdateSet({ settings: text, updated_at: nowIso(ctx) }))
    .execute();
}

export async function getSiteCustomization(ctx: Context, organizationId: string, siteId: string): Promise<SiteCustomizationSettings> {
  const access = await siteAccess(ctx, organizationId, siteId);
  authorize(ctx, 'site.view', access.actor);
  return siteSettings(access.site, await loadStoredCustomizations(ctx, access.site.id));
}

export async function updateSiteCustomization(ctx: Context, organizationId: string, siteId: string, settings: Record<string, unknown>): Promise<SiteCustomizationSettings> {
  refuseUnknownCustomizationMembers(settings);
  return inTransaction(ctx, async (tx) => {
    const access = await siteAccess(tx, organizationId, siteId);
    authorize(tx, 'site.manage', access.actor);
    await store(tx, access.site.id, '', settings);
    await touchSite(tx, access.site.id);
    return siteSettings(access.site, await loadStoredCustomizations(tx, access.site.id));
  });
}

export async function getSiteSpaceCustomization(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string): Promise<SiteCustomizationSettings> {
  const access = await siteAccess(ctx, organizationId, siteId);
  authorize(ctx, 'site.view', access.actor);
  await siteSpaceOf(ctx, access, siteSpaceId);
  return siteSpaceSettings(access.site, await loadStoredCustomizations(ctx, access.site.id), siteSpaceId);
}

export async function overrideSiteSpaceCustomization(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string, patch: Record<string, unknown>): Promise<SiteCustomizationSettings> {
  // SiteSpaceCustomizationSettings is the site's settings and `hasOverrides`.
  refuseUnknownCustomizationMembers(patch, ['hasOverrides']);
  return inTransaction(ctx, async (tx) => {
    const access = await siteAccess(tx, organizationId, siteId);
    authorize(tx, 'site.manage', access.actor);
    await siteSpaceOf(tx, access, siteSpaceId);
    const stored = await loadStoredCustomizations(tx, access.site.id);
    // Nulls are kept in the stored override: they reset that part to the site's when the two are merged.
    const override = mergeKeepingNulls(stored.siteSpaces.get(siteSpaceId) ?? {}, patch);
    await store(tx, access.site.id, siteSpaceId, override);
    await touchSite(tx, access.site.id);
    stored.siteSpaces.set(siteSpaceId, override);
    return siteSpaceSettings(access.site, stored, siteSpaceId);
  });
}

/** Removes a site space's override: 205 when there was one, 204 when there was none. */
export async function deleteSiteSpaceCustomization(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const access = await siteAccess(tx, organizationId, siteId);
    authorize(tx, 'site.manage', access.actor);
    await siteSpaceOf(tx, access, siteSpaceId);
    const result = await tx.db.deleteFrom('site_customizations').where('site_id', '=', access.site.id).where('site_space_id', '=', siteSpaceId).executeTakeFirst();
    const removed = Number(result.numDeletedRows) > 0;
    if (removed) await touchSite(tx, access.site.id);
    return removed;
  });
}

/** As mergeSettings, but a null in the patch is stored (it means "the site's value") instead of removing the key. */
function mergeKeepingNulls(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    const held = out[key];
    if (value && typeof value === 'object' && !Array.isArray(value) && held && typeof held === 'object' && !Array.isArray(held)) {
      out[key] = mergeKeepingNulls(held as Record<string, unknown>, value as Record<string, unknown>);
    } else if (value !== undefined) out[key] = value;
  }
  return out;
}

