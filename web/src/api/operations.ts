/**
 * Every operation the workspace calls, once: its method and path as `/openapi.json` names them (checked by
 * test/workspace/api-contract.test.ts), and a typed function for the screens.
 */
import { request } from './client.ts';
import type { ChangeRequest, Collection, Document, DocumentPage, List, MergeRules, Organization, PageChange, RequestedReviewer, Review, Revision, Session, Space, User } from './types.ts';

export const OPERATIONS = {
  getSession: ['GET', '/auth/session'],
  listOrganizations: ['GET', '/v1/orgs'],
  listSpaces: ['GET', '/v1/orgs/{organizationId}/spaces'],
  createSpace: ['POST', '/v1/orgs/{organizationId}/spaces'],
  listCollections: ['GET', '/v1/orgs/{organizationId}/collections'],
  listMembers: ['GET', '/v1/orgs/{organizationId}/members'],
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
  getMergeRules: ['GET', '/v1/spaces/{spaceId}/merge-rules'],
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

export interface PageWrite {
  title?: string;
  description?: string | null;
  slug?: string | null;
  emoji?: string | null;
  parent?: string | null;
  position?: number;
  document?: Document;
  baseRevision?: string;
}

export const api = {
  session: () => call<Session>('getSession'),
  organizations: () => call<List<Organization>>('listOrganizations'),
  spaces: (organizationId: string) => call<List<Space>>('listSpaces', { organizationId }, undefined, { limit: '1000' }),
  createSpace: (organizationId: string, body: { title: string; emoji?: string; parent?: string }) => call<Space>('createSpace', { organizationId }, body),
  collections: (organizationId: string) => call<List<Collection>>('listCollections', { organizationId }, undefined, { limit: '1000' }),
  members: (organizationId: string) => call<List<{ user: User; role: string | null }>>('listMembers', { organizationId }, undefined, { limit: '1000' }),
  space: (spaceId: string) => call<Space>('getSpace', { spaceId }),
  applyTemplate: (spaceId: string, id: string) => call<void>('applyTemplate', { spaceId }, { id }),
  importContent: (spaceId: string, url: string, source: 'markdown' | 'zip' | 'html' | 'docx') => call<{ revision: string }>('importContent', { spaceId }, { url, source }),
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
  mergeRules: (spaceId: string) => call<MergeRules>('getMergeRules', { spaceId }),
};
