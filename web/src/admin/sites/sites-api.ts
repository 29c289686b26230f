import { callOperation } from '../../api/operations.ts';
import type { ClaimsContent, Customization, CustomFont, JsonSchema, List, McpServer, PublishedSite, PublishingAuth, Redirect, RedirectDestination, SectionGroup, ShareLink, Site, SiteSection, SiteSpace, SiteStructure, StructurePointer, Visibility } from './types.ts';

/** The sites screens' calls: each a documented `/v1` operation named once in web/src/api/operations.ts. */
export const sitesApi = {
  list: (organizationId: string) => callOperation<List<Site>>('listSites', { organizationId }, undefined, { limit: '1000' }),
  create: (organizationId: string, body: { title: string; visibility: Visibility; spaces?: string[] }) => callOperation<Site>('createSite', { organizationId }, body),
  get: (organizationId: string, siteId: string) => callOperation<Site>('getSiteById', { organizationId, siteId }),
  update: (organizationId: string, siteId: string, body: { title?: string; visibility?: Visibility; defaultSiteSpace?: string; defaultSiteSection?: string }) => callOperation<Site>('updateSiteById', { organizationId, siteId }, body),
  publish: (organizationId: string, siteId: string) => callOperation<Site>('publishSite', { organizationId, siteId }, {}),
  unpublish: (organizationId: string, siteId: string) => callOperation<Site>('unpublishSite', { organizationId, siteId }, {}),
  siteSpaces: (organizationId: string, siteId: string) => callOperation<List<SiteSpace>>('listSiteSpaces', { organizationId, siteId }, undefined, { limit: '1000' }),
  addSpace: (organizationId: string, siteId: string, spaceId: string) => callOperation<SiteSpace>('addSpaceToSite', { organizationId, siteId }, { spaceId }),
  removeSiteSpace: (organizationId: string, siteId: string, siteSpaceId: string) => callOperation<void>('deleteSiteSpaceById', { organizationId, siteId, siteSpaceId }),
  moveSiteSpace: (organizationId: string, siteId: string, siteSpaceId: string, position: { before?: string; after?: string }) =>
    callOperation<SiteSpace>('moveSiteSpace', { organizationId, siteId, siteSpaceId }, {
      position: position.before ? { before: { type: 'site-space', siteSpace: position.before } } : { after: { type: 'site-space', siteSpace: position.after } },
    }),
  sections: (organizationId: string, siteId: string) => callOperation<List<SiteSection>>('listSiteSections', { organizationId, siteId }, undefined, { limit: '1000' }),
  addSection: (organizationId: string, siteId: string, spaceId: string, title: string) => callOperation<SiteSection>('addSectionToSite', { organizationId, siteId }, { spaceId, title }),
  removeSection: (organizationId: string, siteId: string, siteSectionId: string) => callOperation<void>('deleteSiteSectionById', { organizationId, siteId, siteSectionId }),
  moveSection: (organizationId: string, siteId: string, siteSectionId: string, position: { before?: string; after?: string }) =>
    callOperation<SiteSection>('moveSiteSection', { organizationId, siteId, siteSectionId }, {
      position: position.before ? { before: { type: 'site-section', siteSection: position.before } } : { after: { type: 'site-section', siteSection: position.after } },
    }),
  customization: (organizationId: string, siteId: string) => callOperation<Customization>('getSiteCustomizationById', { organizationId, siteId }),
  saveCustomization: (organizationId: string, siteId: string, settings: Customization) => callOperation<Customization>('updateSiteCustomizationById', { organizationId, siteId }, settings),
  siteSpaceCustomization: (organizationId: string, siteId: string, siteSpaceId: string) => callOperation<Customization>('getSiteSpaceCustomizationById', { organizationId, siteId, siteSpaceId }),
  overrideSiteSpace: (organizationId: string, siteId: string, siteSpaceId: string, patch: Record<string, unknown>) =>
    callOperation<Customization>('overrideSiteSpaceCustomizationById', { organizationId, siteId, siteSpaceId }, patch),
  preview: (organizationId: string, siteId: string, settings: Customization) => callOperation<{ url: string }>('previewSiteCustomization', { organizationId, siteId }, { settings }),
  fonts: (organizationId: string) => callOperation<List<CustomFont>>('listCustomFonts', { organizationId }, undefined, { limit: '1000' }),
  createFont: (organizationId: string, fontFamily: string, storageKey: string) => callOperation<CustomFont>('createCustomFont', { organizationId }, { fontFamily, fontFaces: [{ weight: 400, storageKey }] }),
  uploadUrl: (organizationId: string, file: File) =>
    callOperation<{ url: string; key: string }>('generateStorageUploadURL', { organizationId }, { kind: 'customization_font', file: { name: file.name, type: file.type || 'application/octet-stream', size: file.size } }),
  redirects: (organizationId: string, siteId: string) => callOperation<List<Redirect>>('listSiteRedirects', { organizationId, siteId }, undefined, { limit: '1000' }),
  createRedirect: (organizationId: string, siteId: string, body: { source: string; destination: RedirectDestination }) => callOperation<Redirect>('createSiteRedirect', { organizationId, siteId }, body),
  updateRedirect: (organizationId: string, siteId: string, siteRedirectId: string, body: { source?: string; destination?: RedirectDestination }) =>
    callOperation<Redirect>('updateSiteRedirectById', { organizationId, siteId, siteRedirectId }, body),
  deleteRedirect: (organizationId: string, siteId: string, siteRedirectId: string) => callOperation<void>('deleteSiteRedirectById', { organizationId, siteId, siteRedirectId }),
  redirectFor: (organizationId: string, siteId: string, source: string) => callOperation<{ redirect: Redirect; target: string }>('getSiteRedirectBySource', { organizationId, siteId }, undefined, { source }),
  shareLinks: (organizationId: string, siteId: string) => callOperation<List<ShareLink>>('listSiteShareLinks', { organizationId, siteId }, undefined, { limit: '1000' }),
  createShareLink: (organizationId: string, siteId: string, name: string) => callOperation<ShareLink>('createSiteShareLink', { organizationId, siteId }, { name }),
  publishingAuth: (organizationId: string, siteId: string) => callOperation<PublishingAuth>('getSitePublishingAuthById', { organizationId, siteId }),
  updatePublishingAuth: (organizationId: string, siteId: string, fallbackURL: string | null) =>
    callOperation<PublishingAuth>('updateSitePublishingAuthById', { organizationId, siteId }, { backend: 'custom', fallbackURL }),
  regeneratePublishingAuth: (organizationId: string, siteId: string) => callOperation<PublishingAuth>('regenerateSitePublishingAuthById', { organizationId, siteId }, {}),
  adaptiveSchema: (organizationId: string, siteId: string) => callOperation<{ jsonSchema: JsonSchema }>('getSiteAdaptiveSchema', { organizationId, siteId }),
  saveAdaptiveSchema: (organizationId: string, siteId: string, jsonSchema: JsonSchema) => callOperation<{ jsonSchema: JsonSchema }>('updateSiteAdaptiveSchema', { organizationId, siteId }, { jsonSchema }),
  aggregate: (organizationId: string, siteId: string, query: Record<string, unknown>) => callOperation<{ columns: Array<{ column: string; values: unknown[] }> }>('aggregateSiteEvents', { organizationId, siteId }, query),
  updateSiteSpace: (organizationId: string, siteId: string, siteSpaceId: string, body: { path?: string; condition?: string | null }) =>
    callOperation<SiteSpace>('updateSiteSpaceById', { organizationId, siteId, siteSpaceId }, body),
  updateSection: (organizationId: string, siteId: string, siteSectionId: string, body: { title?: string; path?: string; condition?: string | null }) =>
    callOperation<SiteSection>('updateSiteSectionById', { organizationId, siteId, siteSectionId }, body),
  structure: (organizationId: string, siteId: string) => callOperation<SiteStructure>('getSiteStructure', { organizationId, siteId }),
  sort: (organizationId: string, siteId: string, item: StructurePointer, position: { before?: StructurePointer; after?: StructurePointer }) =>
    callOperation<unknown>('sortSiteStructure', { organizationId, siteId }, { item, position }),
  createGroup: (organizationId: string, siteId: string, title: string, sections: string[]) => callOperation<SectionGroup>('addSectionGroupToSite', { organizationId, siteId }, { title, sections }),
  renameGroup: (organizationId: string, siteId: string, siteSectionGroupId: string, title: string) =>
    callOperation<SectionGroup>('updateSiteSectionGroupById', { organizationId, siteId, siteSectionGroupId }, { title }),
  deleteGroup: (organizationId: string, siteId: string, siteSectionGroupId: string) => callOperation<void>('deleteSiteSectionGroupById', { organizationId, siteId, siteSectionGroupId }),
  addToGroup: (organizationId: string, siteId: string, siteSectionGroupId: string, sectionId: string) =>
    callOperation<SectionGroup>('addSectionToGroup', { organizationId, siteId, siteSectionGroupId }, { sectionId }),
  takeOutOfGroup: (organizationId: string, siteId: string, siteSectionGroupId: string, siteSectionId: string) =>
    callOperation<void>('removeSectionFromGroup', { organizationId, siteId, siteSectionGroupId, siteSectionId }),
  templateConditions: (organizationId: string, siteId: string) => callOperation<{ items: Array<{ condition: string; description?: string; title?: string }> }>('listSiteAdaptiveTemplateConditions', { organizationId, siteId }),
  publishedFor: (organizationId: string, siteId: string, jwtToken: string) => callOperation<PublishedSite>('getPublishedContentSite', { organizationId, siteId }, undefined, { jwt_token: jwtToken }),
  resetSiteSpaceCustomization: (organizationId: string, siteId: string, siteSpaceId: string) => callOperation<void>('deleteSiteSpaceCustomizationById', { organizationId, siteId, siteSpaceId }),
  mcpServers: (organizationId: string, siteId: string) => callOperation<List<McpServer>>('listSiteMcpServers', { organizationId, siteId }, undefined, { limit: '1000' }),
  createMcpServer: (organizationId: string, siteId: string, body: { name: string; url: string; headers: Record<string, string> }) => callOperation<McpServer>('createSiteMcpServer', { organizationId, siteId }, body),
  updateMcpServer: (organizationId: string, siteId: string, siteMcpServerId: string, body: { name?: string; url?: string; headers?: Record<string, string> }) =>
    callOperation<McpServer>('updateSiteMcpServerById', { organizationId, siteId, siteMcpServerId }, body),
  deleteMcpServer: (organizationId: string, siteId: string, siteMcpServerId: string) => callOperation<void>('deleteSiteMcpServerById', { organizationId, siteId, siteMcpServerId }),
  tryClaims: (organizationId: string, siteId: string, claims: Record<string, unknown>) => callOperation<ClaimsContent>('tryVisitorClaims', { organizationId, siteId }, undefined, { claims: JSON.stringify(claims) }),
  revokeShareLink: (organizationId: string, siteId: string, shareLinkId: string) => callOperation<void>('deleteSiteShareLinkById', { organizationId, siteId, shareLinkId }),
};

/** Key prefixes of the cache (web/src/api/cache.ts) for one site's answers. */
export const siteKey = (organizationId: string, siteId: string) => `org:${organizationId}:site:${siteId}:`;
