import type { Context } from '../context.ts';
import type { SiteRow } from '../db/rows.ts';

/**
 * The customization settings of a site as the client's SiteCustomizationSettings describes them. A site
 * stores what its administrators PUT (table site_customizations, site_space_id ''), and each site space may
 * override parts of it (PATCH, a row per site space). What is read is always complete: the defaults below,
 * then the site's settings, then the site space's override, merged object by object.
 */
export interface ThemedColor {
  light: string;
  dark: string;
}

export interface ThemedUrl {
  light: string;
  dark: string;
}

export interface SiteCustomizationSettings {
  title?: string;
  styling: {
    theme: 'clean' | 'muted' | 'bold' | 'gradient';
    primaryColor: ThemedColor;
    tint?: { color: ThemedColor };
    infoColor: ThemedColor;
    successColor: ThemedColor;
    warningColor: ThemedColor;
    dangerColor: ThemedColor;
    corners: 'straight' | 'rounded' | 'circular';
    depth: 'subtle' | 'flat';
    links: 'default' | 'accent';
    font: string | { id: string; custom: boolean; fontFamily: string; fontFaces: unknown[] };
    monospaceFont: string;
    background: 'plain' | 'match';
    icons: 'regular' | 'solid' | 'duotone' | 'light' | 'thin';
    sidebar: { background: 'default' | 'filled'; list: 'default' | 'pill' | 'line' };
    search: 'prominent' | 'subtle';
  };
  internationalization: { locale: 'en' | 'fr' | 'es' | 'zh' | 'ja' | 'de' | 'nl' | 'no' | 'pt-br' };
  favicon: { icon?: ThemedUrl; emoji?: string };
  header: { preset: 'default' | 'bold' | 'contrast' | 'custom' | 'none'; logo?: ThemedUrl; links: unknown[] };
  footer: { logo?: ThemedUrl; groups: Array<{ title: string; links: Array<{ title: string; to: unknown }> }>; copyright?: string };
  themes: { default: 'light' | 'dark'; toggeable: boolean };
  pdf: { enabled: boolean };
  feedback: { enabled: boolean };
  ai: { mode: 'none' | 'search' | 'assistant' };
  advancedCustomization: { enabled: boolean };
  trademark: { enabled: boolean };
  externalLinks: { target: 'self' | 'blank' };
  pagination: { enabled: boolean };
  pageActions: { externalAI: boolean; markdown: boolean };
  git: { showEditLink: boolean };
  privacyPolicy: { url?: string };
  socialPreview: { url?: string };
  insights: { trackingCookie: boolean };
}

const color = (light: string, dark: string): ThemedColor => ({ light, dark });

/** The complete default customization of a site, titled as the site. */
export function defaultCustomization(site: Pick<SiteRow, 'title'>): SiteCustomizationSettings {
  return {
    title: site.title,
    styling: {
      theme: 'clean',
      primaryColor: color('#346DDB', '#346DDB'),
      infoColor: color('#787878', '#787878'),
      successColor: color('#00C950', '#00C950'),
      warningColor: color('#FE9A00', '#FE9A00'),
      dangerColor: color('#FB2C36', '#FB2C36'),
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'Inter',
      monospaceFont: 'IBMPlexMono',
      background: 'plain',
      icons: 'regular',
      sidebar: { background: 'default', list: 'default' },
      search: 'prominent',
    },
    internationalization: { locale: 'en' },
    favicon: {},
    header: { preset: 'default', links: [] },
    footer: { groups: [] },
    themes: { default: 'light', toggeable: true },
    pdf: { enabled: true },
    feedback: { enabled: false },
    ai: { mode: 'none' },
    advancedCustomization: { enabled: true },
    trademark: { enabled: true },
    externalLinks: { target: 'self' },
    pagination: { enabled: true },
    pageActions: { externalAI: false, markdown: true },
    git: { showEditLink: false },
    privacyPolicy: {},
    socialPreview: {},
    insights: { trackingCookie: false },
  };
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `patch` laid over `base`, object by object: arrays and plain values replace, objects merge, and null
 * keeps what the base holds (an override "set to null to reset" to the site's value).
 */
export function mergeSettings<T extends object>(base: T, patch: Json): T {
  const out: Json = { ...(base as Json) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || value === undefined) continue;
    if (isObject(value) && isObject(out[key])) out[key] = mergeSettings(out[key] as Json, value);
    else out[key] = value;
  }
  return out as T;
}

/** A site's stored settings and its site spaces' overrides, as written (not merged). */
export interface StoredCustomizations {
  site: Json;
  siteSpaces: Map<string, Json>;
}

/** One query: the site's row and every override of its site spaces. */
export async function loadStoredCustomizations(ctx: Pick<Context, 'db'>, siteId: string): Promise<StoredCustomizations> {
  const rows = await ctx.db.selectFrom('site_customizations').select(['site_space_id', 'settings']).where('site_id', '=', siteId).execute();
  const stored: StoredCustomizations = { site: {}, siteSpaces: new Map() };
  for (const row of rows) {
    const settings = JSON.parse(row.settings) as Json;
    if (row.site_space_id === '') stored.site = settings;
    else stored.siteSpaces.set(row.site_space_id, settings);
  }
  return stored;
}

/** The complete settings of the site: the defaults under what was stored. */
export function siteSettings(site: Pick<SiteRow, 'title'>, stored: StoredCustomizations): SiteCustomizationSettings {
  return mergeSettings(defaultCustomization(site), stored.site);
}

/** The complete settings of one site space: the site's, then its override. */
export function siteSpaceSettings(site: Pick<SiteRow, 'title'>, stored: StoredCustomizations, siteSpaceId: string): SiteCustomizationSettings {
  const override = stored.siteSpaces.get(siteSpaceId);
  const base = siteSettings(site, stored);
  return override ? mergeSettings(base, override) : base;
}
