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
  listFilesInChangeRequestById: ['GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files'],
  listFiles: ['GET', '/v1/spaces/{spaceId}/content/files'],
  listOpenAPISpecs: ['GET', '/v1/orgs/{organizationId}/openapi'],
  getLatestOpenAPISpecVersionContent: ['GET', '/v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content'],
  getEmbedByUrlInSpace: ['GET', '/v1/spaces/{spaceId}/embed'],
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
  files: (spaceId: string, changeRequestId?: string) =>
    changeRequestId
      ? call<List<RevisionFile>>('listFilesInChangeRequestById', { spaceId, changeRequestId }, undefined, { limit: '1000' })
      : call<List<RevisionFile>>('listFiles', { spaceId }, undefined, { limit: '1000' }),
  openAPISpecs: (organizationId: string) => call<List<{ slug: string; processingState: string }>>('listOpenAPISpecs', { organizationId }, undefined, { limit: '1000' }),
  openAPISpecContent: (organizationId: string, specSlug: string) =>
    call<{ filesystem: Array<{ isEntrypoint: boolean; specification: unknown }> }>('getLatestOpenAPISpecVersionContent', { organizationId, specSlug }),
  embed: (spaceId: string, url: string) => call<{ title?: string; site?: string }>('getEmbedByUrlInSpace', { spaceId }, undefined, { url }),
};

/** A file of a space or change request, as `listFiles` gives it. */
export interface RevisionFile {
  id: string;
  name: string;
  contentType: string;
  downloadURL: string;
  size: number;
  dimensions?: { width: number; height: number };
}
