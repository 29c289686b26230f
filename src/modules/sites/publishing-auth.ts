import type { Context } from '../../context.ts';
import { inTransaction } from '../../context.ts';
import { BadRequest } from '../../errors.ts';
import { authorize } from '../../policy/index.ts';
import { newVisitorAuthKey, readVisitorAuthKey } from '../../sites/visitor.ts';
import { siteAccess, touchSite, type SiteRow } from '../../access/sites.ts';
import type { PublishingAuthView } from './site-views.ts';
import type { UpdatePublishingAuthBody } from './schemas.ts';

/**
 * Visitor authentication of a site (`visitor-auth` visibility): the site's private key signs the visitors'
 * JWTs (HS256) on the operator's own backend; `fallbackURL` is where visitors without a valid token are
 * sent. The key is stored sealed and shown only to administrators of the organization (site.admin).
 */
function toView(ctx: Context, site: Pick<SiteRow, 'auth_key' | 'auth_fallback_url'>): PublishingAuthView {
  return { privateKey: readVisitorAuthKey(ctx, site.auth_key), fallbackUrl: site.auth_fallback_url };
}

export async function getPublishingAuth(ctx: Context, organizationId: string, siteId: string): Promise<PublishingAuthView> {
  const { site, actor } = await siteAccess(ctx, organizationId, siteId);
  authorize(ctx, 'site.admin', actor);
  return toView(ctx, site);
}

function checkFallbackUrl(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new BadRequest(`The body member "fallbackURL" must be an absolute http or https URL, such as https://example.com/login.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BadRequest(`The body member "fallbackURL" must be an http or https URL, not "${url.protocol}": visitors are sent there by their browser.`);
  }
}

/** Sets the backend (only "custom") and the fallback URL (null removes it; omitted leaves it). */
export async function updatePublishingAuth(ctx: Context, organizationId: string, siteId: string, patch: UpdatePublishingAuthBody): Promise<PublishingAuthView> {
  return inTransaction(ctx, async (tx) => {
    const { site, actor } = await siteAccess(tx, organizationId, siteId);
    authorize(tx, 'site.admin', actor);
    if (patch.backend !== 'custom') {
      throw new BadRequest(
        'The body member "backend" must be "custom": Quire has no integrations, so visitors are authenticated by JWTs that your own backend signs with the site\'s private key.',
      );
    }
    if (typeof patch.fallbackURL === 'string') checkFallbackUrl(patch.fallbackURL);
    const fallback = patch.fallbackURL === undefined ? site.auth_fallback_url : patch.fallbackURL;
    await tx.db.updateTable('sites').set({ auth_backend: 'custom', auth_fallback_url: fallback }).where('id', '=', site.id).execute();
    await touchSite(tx, site.id);
    return toView(tx, { auth_key: site.auth_key, auth_fallback_url: fallback });
  });
}

/** Replaces the site's key: JWTs signed with the old one stop opening the site at once. */
export async function regeneratePublishingAuth(ctx: Context, organizationId: string, siteId: string): Promise<PublishingAuthView> {
  return inTransaction(ctx, async (tx) => {
    const { site, actor } = await siteAccess(tx, organizationId, siteId);
    authorize(tx, 'site.admin', actor);
    const sealed = tx.secrets.encrypt(newVisitorAuthKey());
    await tx.db.updateTable('sites').set({ auth_key: sealed }).where('id', '=', site.id).execute();
    await touchSite(tx, site.id);
    return toView(tx, { auth_key: sealed, auth_fallback_url: site.auth_fallback_url });
  });
}
