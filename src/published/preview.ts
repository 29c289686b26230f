import { createHash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Context } from '../context.ts';
import { mergeSettings, siteSettings, type SiteCustomizationSettings } from '../sites/customization.ts';
import type { ReaderSite } from './resolve.ts';
import type { SiteView } from './view.ts';

/**
 * The customization preview: the workspace shows the reader rendered with settings not yet saved, in a
 * frame beside the form. The settings travel in the address as a sealed parameter (`quire-preview`: AES-GCM
 * with the secret box, compressed first), minted by `previewSiteCustomization` for a caller who may manage
 * the site, valid for a few minutes and for that site only. A request that carries a valid one is shown the
 * site as its manager would (published or not, whatever its visibility) with those settings, is never
 * cached, and may be framed by Quire's own pages only. See docs/decisions/0101-customization-preview.md.
 */

export const PREVIEW_PARAMETER = 'quire-preview';
/** How long a preview address stays valid. */
export const PREVIEW_TTL_SECONDS = 600;

export interface PreviewClaims {
  siteId: string;
  /** The site's settings as they would be stored (what PUT customization takes). */
  settings: Record<string, unknown>;
  /** A site space's override shown instead of the site's own, for that site space's pages. */
  override?: { siteSpaceId: string; settings: Record<string, unknown> };
}

interface Sealed {
  s: string;
  e: number;
  c: Record<string, unknown>;
  o?: { id: string; c: Record<string, unknown> };
}

export function sealPreview(ctx: Pick<Context, 'secrets' | 'clock'>, claims: PreviewClaims): string {
  const sealed: Sealed = { s: claims.siteId, e: Math.floor(ctx.clock.now().getTime() / 1000) + PREVIEW_TTL_SECONDS, c: claims.settings };
  if (claims.override) sealed.o = { id: claims.override.siteSpaceId, c: claims.override.settings };
  return ctx.secrets.encrypt(deflateRawSync(Buffer.from(JSON.stringify(sealed))));
}

/** The claims of a preview parameter for this site, or null when it is missing, forged, expired or another site's. */
export function openPreview(ctx: Pick<Context, 'secrets' | 'clock'>, value: unknown, siteId: string): PreviewClaims | null {
  if (typeof value !== 'string' || value.length > 64 * 1024) return null;
  let sealed: Sealed;
  try {
    sealed = JSON.parse(inflateRawSync(ctx.secrets.decrypt(value), { maxOutputLength: 1024 * 1024 }).toString('utf8')) as Sealed;
  } catch {
    return null; // not one of ours: the address is served as if it had no parameter
  }
  if (sealed.s !== siteId || typeof sealed.e !== 'number' || sealed.e < Math.floor(ctx.clock.now().getTime() / 1000)) return null;
  if (!sealed.c || typeof sealed.c !== 'object') return null;
  return { siteId, settings: sealed.c, ...(sealed.o ? { override: { siteSpaceId: sealed.o.id, settings: sealed.o.c } } : {}) };
}

/** The view with the preview's settings in place of the stored ones (its own cache key, so nothing is shared). */
export function previewView(view: SiteView, site: Pick<ReaderSite, 'title'>, claims: PreviewClaims, token: string): SiteView {
  const settings = siteSettings(site, { site: claims.settings, siteSpaces: new Map() });
  const settingsBySiteSpace = new Map<string, SiteCustomizationSettings>();
  if (claims.override) settingsBySiteSpace.set(claims.override.siteSpaceId, mergeSettings(settings, claims.override.settings));
  const key = `${view.key}:preview:${createHash('sha256').update(token).digest('base64url').slice(0, 16)}`;
  return { ...view, key, settings, settingsBySiteSpace, title: settings.title || site.title };
}
