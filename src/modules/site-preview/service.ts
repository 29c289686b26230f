import { siteAccess } from '../../access/sites.ts';
import type { Context } from '../../context.ts';
import { NotFound } from '../../errors.ts';
import { authorize } from '../../policy/index.ts';
import { PREVIEW_PARAMETER, PREVIEW_TTL_SECONDS, sealPreview } from '../../published/preview.ts';
import { refuseUnknownCustomizationMembers } from '../../sites/customization-members.ts';
import { joinSitePath, sitePublishedUrl } from '../../sites/urls.ts';
import type { PreviewAnswer, PreviewBody } from './schemas.ts';

/**
 * The address of the reader showing a site with customization settings that are not saved: the workspace
 * puts it in a frame beside the customization form (src/published/preview.ts). Only a caller who may change
 * the customization gets one; nothing is stored. A site space's override previews that site space's pages.
 */
export async function previewSiteCustomization(ctx: Context, organizationId: string, siteId: string, body: PreviewBody): Promise<PreviewAnswer> {
  refuseUnknownCustomizationMembers(body.settings);
  if (body.siteSpace) refuseUnknownCustomizationMembers(body.siteSpace.override, ['hasOverrides']);
  const access = await siteAccess(ctx, organizationId, siteId);
  authorize(ctx, 'site.manage', access.actor);
  let path: string | null = null;
  if (body.siteSpace) {
    const siteSpace = await ctx.db.selectFrom('site_spaces').select(['id', 'path']).where('id', '=', body.siteSpace.id).where('site_id', '=', access.site.id).executeTakeFirst();
    if (!siteSpace) throw new NotFound(`No site space "${body.siteSpace.id}" exists in this site.`);
    path = access.site.default_site_space_id === siteSpace.id ? null : siteSpace.path;
  }
  const token = sealPreview(ctx, {
    siteId: access.site.id,
    settings: body.settings,
    ...(body.siteSpace ? { override: { siteSpaceId: body.siteSpace.id, settings: body.siteSpace.override } } : {}),
  });
  const base = joinSitePath(sitePublishedUrl(ctx, access.site), path);
  const expiresAt = new Date(ctx.clock.now().getTime() + PREVIEW_TTL_SECONDS * 1000).toISOString();
  return { url: `${base}?${new URLSearchParams({ [PREVIEW_PARAMETER]: token })}`, expiresAt };
}
