/**
 * The rows Quire reads from its tables, as the code passes them around. Kysely's `Selectable` of each table
 * type (src/db/types.ts); every layer (access, services, presenters, engines) names rows from here.
 */
import type { Selectable } from 'kysely';
import type {
  ChangeRequestsTable,
  CollectionsTable,
  CommentRepliesTable,
  CommentsTable,
  OrganizationsTable,
  SiteSectionGroupsTable,
  SiteSectionsTable,
  SitesTable,
  SiteSpacesTable,
  SpacesTable,
} from './types.ts';

export type OrganizationRow = Selectable<OrganizationsTable>;
export type CollectionRow = Selectable<CollectionsTable>;
export type SpaceRow = Selectable<SpacesTable>;
export type ChangeRequestRow = Selectable<ChangeRequestsTable>;
export type CommentRow = Selectable<CommentsTable>;
export type ReplyRow = Selectable<CommentRepliesTable>;
export type SiteRow = Selectable<SitesTable>;
export type SiteSectionRow = Selectable<SiteSectionsTable>;
export type SiteSpaceRow = Selectable<SiteSpacesTable>;
export type SiteSectionGroupRow = Selectable<SiteSectionGroupsTable>;
