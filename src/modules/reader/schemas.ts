import { Type, type Static, type TSchema } from 'typebox';
import { ListQuery, StringEnum, Url } from '../../http/schemas.ts';
import type { SiteCustomizationSettings } from '../../sites/customization.ts';

/**
 * Schemas of the reader's API: site customization, redirects, insights, MCP servers and site search, as
 * the client's document describes them. Settings objects are open (`additionalProperties`): the reader
 * honours the settings named here, and stores and returns every other one as given.
 */

const open = <T extends Record<string, TSchema>>(properties: T, required: Array<keyof T & string> = []) =>
  Type.Unsafe<{ [K in keyof T]?: Static<T[K]> } & Record<string, unknown>>({
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: true,
  });

export const SiteParams = Type.Object({ organizationId: Type.String(), siteId: Type.String() });
export const SiteSpaceParams = Type.Object({ organizationId: Type.String(), siteId: Type.String(), siteSpaceId: Type.String() });

export const Color = Type.String({ pattern: '^#(?:[0-9a-fA-F]{3}){1,2}$', description: 'A hex colour, #rgb or #rrggbb.' });
export const ThemedColor = Type.Object({ light: Color, dark: Color });
export const ThemedUrl = Type.Object({ light: Url, dark: Url });

const FONTS = ['ABCFavorit', 'Inter', 'Roboto', 'RobotoSlab', 'OpenSans', 'SourceSansPro', 'Lato', 'Ubuntu', 'Raleway', 'Merriweather', 'Overpass', 'NotoSans', 'IBMPlexSerif', 'Poppins', 'FiraSans'] as const;

const Styling = open({
  theme: StringEnum(['clean', 'muted', 'bold', 'gradient']),
  primaryColor: ThemedColor,
  tint: Type.Object({ color: ThemedColor }),
  infoColor: ThemedColor,
  successColor: ThemedColor,
  warningColor: ThemedColor,
  dangerColor: ThemedColor,
  corners: StringEnum(['straight', 'rounded', 'circular']),
  font: Type.Union([StringEnum(FONTS), Type.Object({ fontFamily: Type.String() }, { additionalProperties: true })]),
  monospaceFont: Type.String(),
});

const settingsProperties = {
  title: Type.String({ minLength: 2, maxLength: 128 }),
  styling: Styling,
  favicon: open({ icon: ThemedUrl, emoji: Type.String() }),
  header: open({ preset: StringEnum(['default', 'bold', 'contrast', 'custom', 'none']), logo: ThemedUrl, links: Type.Array(Type.Unsafe<object>({ type: 'object' })) }),
  footer: open({ logo: ThemedUrl, groups: Type.Array(Type.Unsafe<object>({ type: 'object' })), copyright: Type.String({ maxLength: 300 }) }),
  themes: open({ default: StringEnum(['light', 'dark']), toggeable: Type.Boolean() }),
  feedback: open({ enabled: Type.Boolean() }),
  pagination: open({ enabled: Type.Boolean() }),
  trademark: open({ enabled: Type.Boolean() }),
  externalLinks: open({ target: StringEnum(['self', 'blank']) }),
  privacyPolicy: open({ url: Url }),
  socialPreview: open({ url: Url }),
};

/** The client's SiteCustomizationSettings (PUT replaces the site's settings with these). */
export const CustomizationSettings = open(settingsProperties, [
  'styling',
  'internationalization',
  'favicon',
  'header',
  'footer',
  'themes',
  'pdf',
  'feedback',
  'ai',
  'advancedCustomization',
  'trademark',
  'externalLinks',
  'pagination',
  'pageActions',
  'git',
  'privacyPolicy',
  'socialPreview',
  'insights',
] as never);
export type CustomizationSettings = Static<typeof CustomizationSettings>;

/** Settings as answered: complete (defaults filled in), every stored setting kept. */
export const CustomizationResponse = Type.Unsafe<SiteCustomizationSettings>({ type: 'object', additionalProperties: true, description: 'SiteCustomizationSettings, complete.' });

/** A site space's override: any part of the settings; null resets a part to the site's. */
export const CustomizationOverride = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true, properties: { title: { anyOf: [settingsProperties.title, { type: 'null' }] } } });

export const CustomizationQuery = Type.Object({ unmasked: Type.Optional(Type.Boolean({ description: 'Deprecated; ignored (Quire masks nothing).' })) });

// Redirects.

export const RedirectSourcePath = Type.String({
  maxLength: 512,
  pattern: '^\\/(?:[A-Za-z0-9\\-._~]|%[0-9A-Fa-f]{2})+(?:\\/(?:[A-Za-z0-9\\-._~]|%[0-9A-Fa-f]{2})+)*$',
  description: 'The path below the site root to redirect from, e.g. /old/page (percent-encoded).',
});
export const RedirectDestination = Type.Union([
  Type.Object({ kind: Type.Literal('site-section'), siteSectionId: Type.String() }),
  Type.Object({ kind: Type.Literal('site-space'), siteSpaceId: Type.String() }),
  Type.Object({ kind: Type.Literal('site-page'), siteSpaceId: Type.String(), pageId: Type.String() }),
]);
export type RedirectDestination = Static<typeof RedirectDestination>;

export const SiteRedirectSchema = Type.Object({
  object: Type.Literal('site-redirect'),
  id: Type.String(),
  source: RedirectSourcePath,
  destination: RedirectDestination,
});
export type SiteRedirect = Static<typeof SiteRedirectSchema>;

export const RedirectParams = Type.Object({ organizationId: Type.String(), siteId: Type.String(), siteRedirectId: Type.String() });
export const CreateRedirectBody = Type.Object({ source: RedirectSourcePath, destination: RedirectDestination });
export type CreateRedirectBody = Static<typeof CreateRedirectBody>;
export const UpdateRedirectBody = Type.Object({ source: Type.Optional(RedirectSourcePath), destination: Type.Optional(RedirectDestination) });
export type UpdateRedirectBody = Static<typeof UpdateRedirectBody>;
export const ListRedirectsQuery = Type.Object({ ...ListQuery });
export type ListRedirectsQuery = Static<typeof ListRedirectsQuery>;
export const RedirectBySourceQuery = Type.Object({ source: RedirectSourcePath, shareKey: Type.Optional(Type.String({ maxLength: 200 })) });
export const ResolvedRedirectSchema = Type.Object({ redirect: SiteRedirectSchema, target: Type.String({ description: 'The absolute URL the reader sends this source to.' }) });

// MCP servers.

export const McpServerName = Type.String({ minLength: 1, maxLength: 100 });
// Values as the client's SiteMcpServerHeaders bounds them (1 to 512 characters): an empty value broke its document.
export const McpServerHeaders = Type.Record(Type.String(), Type.String({ minLength: 1, maxLength: 512 }), { description: 'Headers sent with every request to the server.' });
export const SiteMcpServerSchema = Type.Object({
  object: Type.Literal('site-mcp-server'),
  id: Type.String(),
  name: McpServerName,
  url: Url,
  headers: McpServerHeaders,
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
});
export type SiteMcpServer = Static<typeof SiteMcpServerSchema>;
export const McpServerParams = Type.Object({ organizationId: Type.String(), siteId: Type.String(), siteMcpServerId: Type.String() });
export const CreateMcpServerBody = Type.Object({ name: McpServerName, url: Url, headers: McpServerHeaders });
export type CreateMcpServerBody = Static<typeof CreateMcpServerBody>;
export const UpdateMcpServerBody = Type.Object({ name: Type.Optional(McpServerName), url: Type.Optional(Url), headers: Type.Optional(McpServerHeaders) });
export type UpdateMcpServerBody = Static<typeof UpdateMcpServerBody>;
export const ListMcpServersQuery = Type.Object({ ...ListQuery });
export type ListMcpServersQuery = Static<typeof ListMcpServersQuery>;

// Site search.

export const SiteSearchBody = Type.Object({
  query: Type.String({ maxLength: 512 }),
  scope: Type.Optional(Type.Unsafe<{ mode: 'default' | 'all' | 'specific'; siteSpaceIds?: string[]; includedSiteSpaces?: string[] }>({ type: 'object', properties: { mode: { type: 'string', enum: ['default', 'all', 'specific'] }, siteSpaceIds: { type: 'array', items: { type: 'string' } }, includedSiteSpaces: { type: 'array', items: { type: 'string' } } }, required: ['mode'] })),
  mode: Type.Optional(StringEnum(['specific', 'current', 'all'])),
  siteSpaceIds: Type.Optional(Type.Array(Type.String())),
  siteSpaceId: Type.Optional(Type.String()),
});
export type SiteSearchBody = Static<typeof SiteSearchBody>;
export const SiteSearchQuery = Type.Object({ ...ListQuery });
export type SiteSearchQuery = Static<typeof SiteSearchQuery>;

// Custom fonts.

const FontWeight = Type.Integer({ minimum: 1, maximum: 1000 });
const FontFamily = Type.String({ minLength: 1, maxLength: 50 });
export const CustomFontSchema = Type.Object({
  id: Type.String(),
  custom: Type.Boolean(),
  fontFamily: FontFamily,
  fontFaces: Type.Array(Type.Object({ weight: FontWeight, sources: Type.Array(Type.Object({ url: Type.String(), format: StringEnum(['woff2', 'woff']) })) })),
  permissions: Type.Object({ edit: Type.Boolean() }),
});
export type CustomFont = Static<typeof CustomFontSchema>;
export const FontParams = Type.Object({ organizationId: Type.String(), fontId: Type.String() });
export const OrganizationParams = Type.Object({ organizationId: Type.String() });
export const FontBody = Type.Object({
  fontFamily: FontFamily,
  fontFaces: Type.Array(Type.Object({ weight: FontWeight, storageKey: Type.String({ minLength: 1, maxLength: 512 }) }), { minItems: 1, maxItems: 20 }),
});
export type FontBody = Static<typeof FontBody>;
export const FontUpdateBody = Type.Object({
  fontFamily: Type.Optional(FontFamily),
  fontFaces: Type.Optional(Type.Array(Type.Object({ weight: FontWeight, storageKey: Type.Union([Type.String({ minLength: 1, maxLength: 512 }), Type.Null()]) }), { maxItems: 20 })),
});
export type FontUpdateBody = Static<typeof FontUpdateBody>;
export const ListFontsQuery = Type.Object({ ...ListQuery });
export type ListFontsQuery = Static<typeof ListFontsQuery>;
