/**
 * The shapes of the answers the workspace reads, as Quire's `/openapi.json` describes them (only the members
 * the screens use; test/workspace/api-contract.test.ts checks every operation of operations.ts against it).
 * The page document is the server's own type, imported from the one definition.
 */
import type { Document } from '../../../src/content/markdown/types.ts';

export type { Document };
export type { DocumentBlock, DocumentInline, InlineContent, DocumentText, DocumentLeaf, DocumentMark, DocumentFragment } from '../../../src/content/markdown/types.ts';

export interface List<T> {
  items: T[];
  count?: number;
  next?: { page: string };
}

export interface Session {
  user: { id: string; displayName: string; email?: string; photoURL?: string };
  csrfToken: string;
  expiresAt: string;
}

export interface Organization {
  id: string;
  title: string;
  permissions: { admin: boolean; createContent: boolean };
}

export interface Space {
  id: string;
  title: string;
  emoji: string;
  visibility: string;
  organization: string;
  parent?: string;
  revision: string;
  editMode?: string;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
  permissions: { edit: boolean; comment: boolean; merge: boolean; review: boolean; admin: boolean };
}

export interface Collection {
  id: string;
  title: string;
  organization: string;
  parent?: string;
}

export type PageType = 'document' | 'group' | 'link';

export interface RevisionPage {
  id: string;
  type: PageType | 'sheet';
  title: string;
  slug?: string;
  path?: string;
  description?: string;
  emoji?: string;
  href?: string;
  pages?: RevisionPage[];
  /** GitBook's page icon (a name such as "gear"); a page has an emoji or an icon. */
  icon?: string;
  target?: LinkTarget | { kind: string };
  layout?: PageLayout;
  cover?: PageCover;
}

/** Where a link page points: an address or a page of the same content. */
export type LinkTarget = { kind: 'url'; url: string } | { kind: 'page'; page: string };

/** GitBook's page layout options, as the page reads give them (every option present). */
export interface PageLayout {
  width: 'default' | 'wide';
  cover: boolean;
  coverSize: 'hero' | 'full';
  title: boolean;
  description: boolean;
  tableOfContents: boolean;
  outline: boolean;
  pagination: boolean;
}

/** A page's cover: a picture from the space's files or an address (a dark variant optional). */
export interface PageCover {
  ref?: { kind: 'file'; file: string } | { kind: 'url'; url: string };
  refDark?: { kind: 'file'; file: string } | { kind: 'url'; url: string };
  yPos?: number;
}

export interface Revision {
  id: string;
  pages: RevisionPage[];
}

export interface DocumentPage extends RevisionPage {
  document?: Document;
}

export interface User {
  id: string;
  displayName: string;
  email?: string;
}

export type ChangeRequestStatus = 'draft' | 'open' | 'archived' | 'merged';

export interface ChangeRequest {
  id: string;
  number: number;
  status: ChangeRequestStatus;
  subject?: string;
  createdBy: User;
  revision: string;
  revisionInitial: string;
  outdated: boolean;
  permissions: { edit: boolean; review: boolean; merge: boolean };
}

export interface PageChange {
  type: string;
  page?: { id: string; title: string; path?: string };
  before?: { title?: string };
  after?: { title?: string };
  attributes?: Record<string, unknown>;
  diff?: string;
}

export interface Review {
  id: string;
  status: 'approved' | 'changes-requested';
  reviewer: User;
  outdated?: boolean;
}

export interface RequestedReviewer {
  user?: User;
  requestedBy?: User;
}

export interface MergeRules {
  minApprovals: number;
  requiredReviewers: string[];
  blockOnChangesRequested: boolean;
}

export interface Site {
  id: string;
  title: string;
  urls?: { published?: string };
}
