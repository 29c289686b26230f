/**
 * Every operation the workspace calls, once: its method and path as `/openapi.json` names them (checked by
 * test/workspace/api-contract.test.ts), and a typed function for the screens.
 */
import { request } from './client.ts';
import type { Comment, CommentFilter, CommentPlace, CommentReply } from '../comments/types.ts';
import type { SearchSpace } from '../search/types.ts';
import type { ChangeRequest, Collection, Document, DocumentPage, List, MergeRules, Organization, PageChange, RequestedReviewer, Review, Revision, Session, Space, User } from './types.ts';
import type { LinkTarget, PageCover, PageLayout } from './types.ts';

export const OPERATIONS = {
  getSession: ['GET', '/auth/session'],
  listOrganizations: ['GET', '/v1/orgs'],
  listSpaces: ['GET', '/v1/orgs/{organizationId}/spaces'],
  createSpace: ['POST', '/v1/orgs/{organizationId}/spaces'],
  listCollections: ['GET', '/v1/orgs/{organizationId}/collections'],
  createCollection: ['POST', '/v1/orgs/{organizationId}/collections'],
  listMembers: ['GET', '/v1/orgs/{organizationId}/members'],
  searchOrganizationContent: ['GET', '/v1/orgs/{organizationId}/search'],
  getSpace: ['GET', '/v1/spaces/{spaceId}'],
  applyTemplate: ['POST', '/v1/spaces/{spaceId}/content/template'],
  importContent: ['POST', '/v1/spaces/{spaceId}/content/import'],
  getSpaceContent: ['GET', '/v1/spaces/{spaceId}/content'],
  getSpacePage: ['GET', '/v1/spaces/{spaceId}/content/page/{pageId}'],
  listChangeRequests: ['GET', '/v1/spaces/{spaceId}/change-requests'],
  createChangeRequest: ['POST', '/v1/spaces/{spaceId}/change-requests'],
  getChangeRequest: ['GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}'],
  updateChangeRequest: ['PATCH', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}'],
  getChangeRequestContent: ['GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content'],
  getChangeRequestPage: ['GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}'],
  createChangeRequestPage: ['POST', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages'],
  updateChangeRequestPage: ['PATCH', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}'],
  deleteChangeRequestPage: ['DELETE', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}'],
  getChangeRequestChanges: ['GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/changes'],
  listRequestedReviewers: ['GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers'],
  requestReviewers: ['POST', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers'],
  listReviews: ['GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews'],
  submitReview: ['POST', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews'],
  mergeChangeRequest: ['POST', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge'],
  listCommentsInSpace: ['GET', '/v1/spaces/{spaceId}/comments'],
  postCommentInSpace: ['POST', '/v1/spaces/{spaceId}/comments'],
  updateCommentInSpace: ['PUT', '/v1/spaces/{spaceId}/comments/{commentId}'],
  listCommentRepliesInSpace: ['GET', '/v1/spaces/{spaceId}/comments/{commentId}/replies'],
  postCommentReplyInSpace: ['POST', '/v1/spaces/{spaceId}/comments/{commentId}/replies'],
  listCommentsInChangeRequest: ['GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments'],
  postCommentInChangeRequest: ['POST', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments'],
  updateCommentInChangeRequest: ['PUT', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}'],
  listCommentRepliesInChangeRequest: ['GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies'],
  postCommentReplyInChangeRequest: ['POST', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies'],
  getMergeRules: ['GET', '/v1/spaces/{spaceId}/merge-rules'],
  // Sites (web/src/admin/sites/).
  listSites: ['GET', '/v1/orgs/{organizationId}/sites'],
  createSite: ['POST', '/v1/orgs/{organizationId}/sites'],
  getSiteById: ['GET', '/v1/orgs/{organizationId}/sites/{siteId}'],
  updateSiteById: ['PATCH', '/v1/orgs/{organizationId}/sites/{siteId}'],
  publishSite: ['POST', '/v1/orgs/{organizationId}/sites/{siteId}/publish'],
  unpublishSite: ['POST', '/v1/orgs/{organizationId}/sites/{siteId}/unpublish'],
  listSiteSpaces: ['GET', '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces'],
  addSpaceToSite: ['POST', '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces'],
  deleteSiteSpaceById: ['DELETE', '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}'],
  moveSiteSpace: ['POST', '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move'],
  getSiteCustomizationById: ['GET', '/v1/orgs/{organizationId}/sites/{siteId}/customization'],
  updateSiteCustomizationById: ['PUT', '/v1/orgs/{organizationId}/sites/{siteId}/customization'],
  getSiteSpaceCustomizationById: ['GET', '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization'],
  overrideSiteSpaceCustomizationById: ['PATCH', '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization'],
  previewSiteCustomization: ['POST', '/v1/orgs/{organizationId}/sites/{siteId}/customization/preview'],
  listCustomFonts: ['GET', '/v1/orgs/{organizationId}/fonts'],
  createCustomFont: ['PUT', '/v1/orgs/{organizationId}/fonts'],
  generateStorageUploadURL: ['POST', '/v1/orgs/{organizationId}/storage/upload'],
  uploadStorageFile: ['PUT', '/storage/uploads/{key}'],
  listSiteRedirects: ['GET', '/v1/orgs/{organizationId}/sites/{siteId}/redirects'],
  createSiteRedirect: ['POST', '/v1/orgs/{organizationId}/sites/{siteId}/redirects'],
  getSiteRedirectBySource: ['GET', '/v1/orgs/{organizationId}/sites/{siteId}/redirect'],
  updateSiteRedirectById: ['PATCH', '/v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}'],
  deleteSiteRedirectById: ['DELETE', '/v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}'],
  listSiteShareLinks: ['GET', '/v1/orgs/{organizationId}/sites/{siteId}/share-links'],
  createSiteShareLink: ['POST', '/v1/orgs/{organizationId}/sites/{siteId}/share-links'],
  deleteSiteShareLinkById: ['DELETE', '/v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}'],
  getSitePublishingAuthById: ['GET', '/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth'],
  updateSitePublishingAuthById: ['PATCH', '/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth'],
  regenerateSitePublishingAuthById: ['POST', '/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth/regenerate'],
  getSiteAdaptiveSchema: ['GET', '/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema'],
  updateSiteAdaptiveSchema: ['PUT', '/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema'],
  listSiteSections: ['GET', '/v1/orgs/{organizationId}/sites/{siteId}/sections'],
  addSectionToSite: ['POST', '/v1/orgs/{organizationId}/sites/{siteId}/sections'],
  deleteSiteSectionById: ['DELETE', '/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}'],
  moveSiteSection: ['POST', '/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move'],
  aggregateSiteEvents: ['POST', '/v1/orgs/{organizationId}/sites/{siteId}/insights/events/aggregate'],
  updateSiteSpaceById: ['PATCH', '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}'],
  updateSiteSectionById: ['PATCH', '/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}'],
  listSiteSectionGroups: ['GET', '/v1/orgs/{organizationId}/sites/{siteId}/section-groups'],
  addSectionGroupToSite: ['POST', '/v1/orgs/{organizationId}/sites/{siteId}/section-groups'],
  updateSiteSectionGroupById: ['PATCH', '/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}'],
  deleteSiteSectionGroupById: ['DELETE', '/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}'],
  addSectionToGroup: ['POST', '/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections'],
  removeSectionFromGroup: ['DELETE', '/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}'],
  getSiteStructure: ['GET', '/v1/orgs/{organizationId}/sites/{siteId}/structure'],
  sortSiteStructure: ['PATCH', '/v1/orgs/{organizationId}/sites/{siteId}/structure/sort'],
  getPublishedContentSite: ['GET', '/v1/orgs/{organizationId}/sites/{siteId}/published'],
  listSiteAdaptiveTemplateConditions: ['GET', '/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema/template-conditions'],
  deleteSiteSpaceCustomizationById: ['DELETE', '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization'],
  listSiteMcpServers: ['GET', '/v1/orgs/{organizationId}/sites/{siteId}/mcp-servers'],
  createSiteMcpServer: ['POST', '/v1/orgs/{organizationId}/sites/{siteId}/mcp-servers'],
  updateSiteMcpServerById: ['PATCH', '/v1/orgs/{organizationId}/sites/{siteId}/mcp-servers/{siteMcpServerId}'],
  deleteSiteMcpServerById: ['DELETE', '/v1/orgs/{organizationId}/sites/{siteId}/mcp-servers/{siteMcpServerId}'],
  // Settings: people and permissions (web/src/admin/people/).
  getOrganization: ['GET', '/v1/orgs/{organizationId}'],
  updateOrganization: ['PATCH', '/v1/orgs/{organizationId}'],
  updateMember: ['PATCH', '/v1/orgs/{organizationId}/members/{userId}'],
  removeMember: ['DELETE', '/v1/orgs/{organizationId}/members/{userId}'],
  inviteByEmail: ['POST', '/v1/orgs/{organizationId}/invites'],
  listInviteLinks: ['GET', '/v1/orgs/{organizationId}/link-invites'],
  createInviteLink: ['POST', '/v1/orgs/{organizationId}/link-invites'],
  joinWithInvite: ['POST', '/v1/orgs/{organizationId}/invites/{inviteId}'],
  deleteInviteLink: ['DELETE', '/v1/orgs/{organizationId}/link-invites/{inviteId}'],
  listTeams: ['GET', '/v1/orgs/{organizationId}/teams'],
  createTeam: ['PUT', '/v1/orgs/{organizationId}/teams'],
  deleteTeam: ['DELETE', '/v1/orgs/{organizationId}/teams/{teamId}'],
  listTeamMembers: ['GET', '/v1/orgs/{organizationId}/teams/{teamId}/members'],
  addTeamMember: ['PUT', '/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}'],
  removeTeamMember: ['DELETE', '/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}'],
  inviteToSpace: ['POST', '/v1/spaces/{spaceId}/permissions'],
  listSpaceUserPermissions: ['GET', '/v1/spaces/{spaceId}/permissions/users'],
  listSpaceTeamPermissions: ['GET', '/v1/spaces/{spaceId}/permissions/teams'],
  updateSpaceUserPermission: ['PATCH', '/v1/spaces/{spaceId}/permissions/users/{userId}'],
  removeSpaceUser: ['DELETE', '/v1/spaces/{spaceId}/permissions/users/{userId}'],
  updateSpaceTeamPermission: ['PATCH', '/v1/spaces/{spaceId}/permissions/teams/{teamId}'],
  removeSpaceTeam: ['DELETE', '/v1/spaces/{spaceId}/permissions/teams/{teamId}'],
  getCollection: ['GET', '/v1/collections/{collectionId}'],
  updateSpaceSettings: ['PATCH', '/v1/spaces/{spaceId}'],
  updateCollectionSettings: ['PATCH', '/v1/collections/{collectionId}'],
  inviteToCollection: ['POST', '/v1/collections/{collectionId}/permissions'],
  listCollectionUserPermissions: ['GET', '/v1/collections/{collectionId}/permissions/users'],
  listCollectionTeamPermissions: ['GET', '/v1/collections/{collectionId}/permissions/teams'],
  updateCollectionUserPermission: ['PATCH', '/v1/collections/{collectionId}/permissions/users/{userId}'],
  removeCollectionUser: ['DELETE', '/v1/collections/{collectionId}/permissions/users/{userId}'],
  updateCollectionTeamPermission: ['PATCH', '/v1/collections/{collectionId}/permissions/teams/{teamId}'],
  removeCollectionTeam: ['DELETE', '/v1/collections/{collectionId}/permissions/teams/{teamId}'],
  putMergeRules: ['PUT', '/v1/spaces/{spaceId}/merge-rules'],
  listMyApiTokens: ['GET', '/v1/user/tokens'],
  createMyApiToken: ['POST', '/v1/user/tokens'],
  revokeMyApiToken: ['DELETE', '/v1/user/tokens/{tokenId}'],
  listWebhooks: ['GET', '/v1/orgs/{organizationId}/webhooks'],
  createWebhook: ['POST', '/v1/orgs/{organizationId}/webhooks'],
  deleteWebhook: ['DELETE', '/v1/orgs/{organizationId}/webhooks/{webhookId}'],
  rotateWebhookSecret: ['POST', '/v1/orgs/{organizationId}/webhooks/{webhookId}/secret'],
  redeliverWebhookDelivery: ['POST', '/v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver'],
  listWebhookDeliveries: ['GET', '/v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries'],
  listAuditLog: ['GET', '/v1/orgs/{organizationId}/audit-log'],
  exportAuditLog: ['GET', '/v1/orgs/{organizationId}/audit-log/export'],
  listSamlProviders: ['GET', '/v1/orgs/{organizationId}/saml'],
  createSamlProvider: ['POST', '/v1/orgs/{organizationId}/saml'],
  deleteSamlProvider: ['DELETE', '/v1/orgs/{organizationId}/saml/{samlProviderId}'],
  listOidcProviders: ['GET', '/v1/orgs/{organizationId}/oidc'],
  createOidcProvider: ['POST', '/v1/orgs/{organizationId}/oidc'],
  deleteOidcProvider: ['DELETE', '/v1/orgs/{organizationId}/oidc/{oidcProviderId}'],
  updateSamlProvider: ['PATCH', '/v1/orgs/{organizationId}/saml/{samlProviderId}'],
  updateOidcProvider: ['PATCH', '/v1/orgs/{organizationId}/oidc/{oidcProviderId}'],
  // Settings: integrations (web/src/admin/integrations/).
  listTranslations: ['GET', '/v1/orgs/{organizationId}/translations'],
  createTranslation: ['POST', '/v1/orgs/{organizationId}/translations'],
  updateTranslation: ['PUT', '/v1/orgs/{organizationId}/translations/{translationId}'],
  deleteTranslation: ['DELETE', '/v1/orgs/{organizationId}/translations/{translationId}'],
  listTranslationPages: ['GET', '/v1/orgs/{organizationId}/translations/{translationId}/pages'],
  listGlossary: ['GET', '/v1/orgs/{organizationId}/translations-glossary'],
  updateGlossary: ['PUT', '/v1/orgs/{organizationId}/translations-glossary'],
  listTrash: ['GET', '/v1/orgs/{organizationId}/trash'],
  restoreSpace: ['POST', '/v1/spaces/{spaceId}/restore'],
  restoreCollection: ['POST', '/v1/orgs/{organizationId}/trash/collections/{collectionId}/restore'],
  deleteFromTrash: ['DELETE', '/v1/orgs/{organizationId}/trash/{kind}/{itemId}'],
  getGitSync: ['GET', '/v1/spaces/{spaceId}/git/sync'],
  putGitSync: ['PUT', '/v1/spaces/{spaceId}/git/sync'],
  deleteGitSync: ['DELETE', '/v1/spaces/{spaceId}/git/sync'],
  getGitInfo: ['GET', '/v1/spaces/{spaceId}/git/info'],
  listGitOperations: ['GET', '/v1/spaces/{spaceId}/git/operations'],
  importGit: ['POST', '/v1/spaces/{spaceId}/git/import'],
  exportGit: ['POST', '/v1/spaces/{spaceId}/git/export'],
  listOpenApiSpecs: ['GET', '/v1/orgs/{organizationId}/openapi'],
  createOpenApiSpec: ['POST', '/v1/orgs/{organizationId}/openapi'],
  putOpenApiSpec: ['PUT', '/v1/orgs/{organizationId}/openapi/{specSlug}'],
  updateOpenApiSpec: ['PATCH', '/v1/orgs/{organizationId}/openapi/{specSlug}'],
  deleteOpenApiSpec: ['DELETE', '/v1/orgs/{organizationId}/openapi/{specSlug}'],
  listOpenApiSpecVersions: ['GET', '/v1/orgs/{organizationId}/openapi/{specSlug}/versions'],
  getLatestOpenApiSpecContent: ['GET', '/v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content'],
  listFilesInChangeRequestById: ['GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files'],
  listFiles: ['GET', '/v1/spaces/{spaceId}/content/files'],
  uploadFileInChangeRequest: ['POST', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files'],
  listOpenAPISpecs: ['GET', '/v1/orgs/{organizationId}/openapi'],
  getLatestOpenAPISpecVersionContent: ['GET', '/v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content'],
  getEmbedByUrlInSpace: ['GET', '/v1/spaces/{spaceId}/embed'],
  // History, restore and conflicts (web/src/history/, web/src/change-requests/).
  listRevisions: ['GET', '/v1/spaces/{spaceId}/revisions'],
  getPageInRevisionById: ['GET', '/v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}'],
  restoreRevision: ['POST', '/v1/spaces/{spaceId}/revisions/{revisionId}/restore'],
  updateChangeRequestFromSpace: ['POST', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/update'],
  resolveChangeRequestConflicts: ['POST', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/resolve'],
  getChangeRequestPageConflict: ['GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/conflicts/page/{pageId}'],
  previewChangeRequestPageResolution: ['POST', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/conflicts/page/{pageId}/preview'],
  // Favourite spaces (Quire's own operations; web/src/spaces/favorites.ts).
  listMyFavoriteSpaces: ['GET', '/v1/user/favorites/spaces'],
  addMyFavoriteSpace: ['PUT', '/v1/user/favorites/spaces/{spaceId}'],
  removeMyFavoriteSpace: ['DELETE', '/v1/user/favorites/spaces/{spaceId}'],
  // The organization's translation engine (Quire's own operations; web/src/admin/integrations/translations.tsx).
  getTranslationEngine: ['GET', '/v1/orgs/{organizationId}/translations-engine'],
  updateTranslationEngine: ['PUT', '/v1/orgs/{organizationId}/translations-engine'],
  // Conditional content a visitor's claims show in each page (Quire's own; web/src/admin/sites/claims-tryout.tsx).
  tryVisitorClaims: ['GET', '/v1/orgs/{organizationId}/sites/{siteId}/try-claims'],
} as const satisfies Record<string, readonly [string, string]>;

type Operation = keyof typeof OPERATIONS;

/** The operation's path with its parameters filled in (each encoded) and an optional query. */
function path(operation: Operation, params: Record<string, string> = {}, query?: Record<string, string>): string {
  const filled = OPERATIONS[operation][1].replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  return query ? `${filled}?${new URLSearchParams(query).toString()}` : filled;
}

function call<T>(operation: Operation, params?: Record<string, string>, body?: unknown, query?: Record<string, string>): Promise<T> {
  return request<T>(OPERATIONS[operation][0], path(operation, params, query), body);
}

const placeParams = (place: CommentPlace): Record<string, string> => (place.changeRequestId ? { spaceId: place.spaceId, changeRequestId: place.changeRequestId } : { spaceId: place.spaceId });

export interface PageWrite {
  title?: string;
  description?: string | null;
  slug?: string | null;
  emoji?: string | null;
  parent?: string | null;
  /** The page's icon (a name such as "gear"; it replaces the emoji); null removes it. */
  icon?: string | null;
  position?: number;
  document?: Document;
  baseRevision?: string;
  layout?: Partial<PageLayout>;
  cover?: PageCover | null;
  /** Link pages: where they point (an address, or a page of the same content). */
  href?: string;
  target?: { kind: 'url'; url: string } | { kind: 'page'; page: string };
}

export const api = {
  session: () => call<Session>('getSession'),
  organizations: () => call<List<Organization>>('listOrganizations'),
  spaces: (organizationId: string) => call<List<Space>>('listSpaces', { organizationId }, undefined, { limit: '1000' }),
  createSpace: (organizationId: string, body: { title: string; emoji?: string; parent?: string }) => call<Space>('createSpace', { organizationId }, body),
  createCollection: (organizationId: string, body: { title: string }) => call<Collection>('createCollection', { organizationId }, body),
  collections: (organizationId: string) => call<List<Collection>>('listCollections', { organizationId }, undefined, { limit: '1000' }),
  members: (organizationId: string) => call<List<{ user: User; role: string | null }>>('listMembers', { organizationId }, undefined, { limit: '1000' }),
  search: (organizationId: string, query: string) => call<List<SearchSpace>>('searchOrganizationContent', { organizationId }, undefined, { query, limit: '10' }),
  space: (spaceId: string) => call<Space>('getSpace', { spaceId }),
  applyTemplate: (spaceId: string, id: string) => call<void>('applyTemplate', { spaceId }, { id }),
  importContent: (spaceId: string, url: string, source: 'markdown' | 'zip' | 'html' | 'docx') => call<{ revision: string }>('importContent', { spaceId }, { url, source }),
  /** Keeps the space in step with a branch (Git Sync); the answer's webhook secret is shown once. */
  putGitSync: (spaceId: string, body: { url: string; ref: string; repoProjectDirectory: string; direction: 'push' | 'pull' | 'both' }) => call<{ id: string; webhook: { url: string; secret?: string } }>('putGitSync', { spaceId }, body),
  /** Starts a Git Sync import of the branch now (a background operation; `listGitOperations` follows it). */
  importGit: (spaceId: string, body: { url: string; ref: string; repoProjectDirectory: string }) => call<void>('importGit', { spaceId }, body),
  spaceContent: (spaceId: string) => call<Revision>('getSpaceContent', { spaceId }),
  spacePage: (spaceId: string, pageId: string) => call<DocumentPage>('getSpacePage', { spaceId, pageId }),
  changeRequests: (spaceId: string, status: string, contributor?: string) =>
    call<List<ChangeRequest>>('listChangeRequests', { spaceId }, undefined, contributor ? { status, contributor } : { status }),
  createChangeRequest: (spaceId: string, subject: string) => call<ChangeRequest>('createChangeRequest', { spaceId }, { subject }),
  changeRequest: (spaceId: string, changeRequestId: string) => call<ChangeRequest>('getChangeRequest', { spaceId, changeRequestId }),
  updateChangeRequest: (spaceId: string, changeRequestId: string, body: { subject?: string; status?: string }) =>
    call<ChangeRequest>('updateChangeRequest', { spaceId, changeRequestId }, body),
  changeRequestContent: (spaceId: string, changeRequestId: string) => call<Revision>('getChangeRequestContent', { spaceId, changeRequestId }),
  changeRequestPage: (spaceId: string, changeRequestId: string, pageId: string) => call<DocumentPage>('getChangeRequestPage', { spaceId, changeRequestId, pageId }),
  createPage: (spaceId: string, changeRequestId: string, body: { title: string; type?: 'document' | 'group'; parent?: string; position?: number; emoji?: string }) =>
    call<DocumentPage & { revision: string }>('createChangeRequestPage', { spaceId, changeRequestId }, body),
  updatePage: (spaceId: string, changeRequestId: string, pageId: string, body: PageWrite) =>
    call<{ page: DocumentPage; revision: string }>('updateChangeRequestPage', { spaceId, changeRequestId, pageId }, body),
  deletePage: (spaceId: string, changeRequestId: string, pageId: string) => call<void>('deleteChangeRequestPage', { spaceId, changeRequestId, pageId }),
  changes: (spaceId: string, changeRequestId: string) => call<{ changes: PageChange[]; more?: number }>('getChangeRequestChanges', { spaceId, changeRequestId }, undefined, { limit: '1000' }),
  requestedReviewers: (spaceId: string, changeRequestId: string) => call<List<RequestedReviewer>>('listRequestedReviewers', { spaceId, changeRequestId }),
  requestReviewers: (spaceId: string, changeRequestId: string, users: string[]) => call<unknown>('requestReviewers', { spaceId, changeRequestId }, { users }),
  reviews: (spaceId: string, changeRequestId: string) => call<List<Review>>('listReviews', { spaceId, changeRequestId }),
  submitReview: (spaceId: string, changeRequestId: string, status: 'approved' | 'changes-requested') => call<Review>('submitReview', { spaceId, changeRequestId }, { status }),
  merge: (spaceId: string, changeRequestId: string) => call<unknown>('mergeChangeRequest', { spaceId, changeRequestId }),
  // Comments: the same operations in a space's own discussion and in a change request's (bodies as Markdown).
  comments: (place: CommentPlace, filter: CommentFilter, page?: string) =>
    call<List<Comment>>(place.changeRequestId ? 'listCommentsInChangeRequest' : 'listCommentsInSpace', placeParams(place), undefined, {
      status: filter,
      format: 'markdown',
      order: 'asc',
      limit: '100',
      ...(page ? { targetPage: page } : {}),
    }),
  postComment: (place: CommentPlace, body: { markdown: string; page?: string }) =>
    call<Comment>(place.changeRequestId ? 'postCommentInChangeRequest' : 'postCommentInSpace', placeParams(place), { body: { markdown: body.markdown }, ...(body.page ? { page: body.page } : {}) }, { format: 'markdown' }),
  // A comment about a block of a page (its `node`, web/src/comments/block-anchors.ts).
  postBlockComment: (place: CommentPlace, body: { markdown: string; page: string; node: string }) =>
    call<Comment>(place.changeRequestId ? 'postCommentInChangeRequest' : 'postCommentInSpace', placeParams(place), { body: { markdown: body.markdown }, page: body.page, node: body.node }, { format: 'markdown' }),
  updateComment: (place: CommentPlace, commentId: string, body: { resolved?: boolean; addedReactions?: string[]; removedReactions?: string[] }) =>
    call<Comment>(place.changeRequestId ? 'updateCommentInChangeRequest' : 'updateCommentInSpace', { ...placeParams(place), commentId }, body, { format: 'markdown' }),
  replies: (place: CommentPlace, commentId: string) =>
    call<List<CommentReply>>(place.changeRequestId ? 'listCommentRepliesInChangeRequest' : 'listCommentRepliesInSpace', { ...placeParams(place), commentId }, undefined, { format: 'markdown', limit: '100' }),
  postReply: (place: CommentPlace, commentId: string, markdown: string) =>
    call<CommentReply>(place.changeRequestId ? 'postCommentReplyInChangeRequest' : 'postCommentReplyInSpace', { ...placeParams(place), commentId }, { body: { markdown } }, { format: 'markdown' }),
  mergeRules: (spaceId: string) => call<MergeRules>('getMergeRules', { spaceId }),
  files: (spaceId: string, changeRequestId?: string) =>
    changeRequestId
      ? call<List<RevisionFile>>('listFilesInChangeRequestById', { spaceId, changeRequestId }, undefined, { limit: '1000' })
      : call<List<RevisionFile>>('listFiles', { spaceId }, undefined, { limit: '1000' }),
  openAPISpecs: (organizationId: string) => call<List<{ slug: string; processingState: string }>>('listOpenAPISpecs', { organizationId }, undefined, { limit: '1000' }),
  openAPISpecContent: (organizationId: string, specSlug: string) =>
    call<{ filesystem: Array<{ isEntrypoint: boolean; specification: unknown }> }>('getLatestOpenAPISpecVersionContent', { organizationId, specSlug }),
  embed: (spaceId: string, url: string) => call<{ title?: string; site?: string }>('getEmbedByUrlInSpace', { spaceId }, undefined, { url }),
  createLinkPage: (spaceId: string, changeRequestId: string, body: { title: string; target: LinkTarget; parent?: string; position?: number }) =>
    call<DocumentPage & { revision: string }>('createChangeRequestPage', { spaceId, changeRequestId }, { ...body, type: 'link' }),
  favoriteSpaces: () => call<List<Space>>('listMyFavoriteSpaces'),
  addFavoriteSpace: (spaceId: string) => call<Space>('addMyFavoriteSpace', { spaceId }),
  removeFavoriteSpace: (spaceId: string) => call<void>('removeMyFavoriteSpace', { spaceId }),
};

/**
 * The sites administration's calls (web/src/admin/sites/), by operation name: the screens there type their
 * answers themselves (web/src/admin/sites/types.ts).
 */
export function callOperation<T>(operation: Operation, params?: Record<string, string>, body?: unknown, query?: Record<string, string>): Promise<T> {
  return call<T>(operation, params, body, query);
}

/** An operation's path with its parameters filled in (for the one upload the browser sends as raw bytes). */
export function operationPath(operation: Operation, params: Record<string, string>): string {
  return path(operation, params);
}

/** A file of a space or change request, as `listFiles` gives it. */
export interface RevisionFile {
  id: string;
  name: string;
  contentType: string;
  downloadURL: string;
  size: number;
  dimensions?: { width: number; height: number };
}
