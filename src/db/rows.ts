/**
 * The rows Quire reads from its tables, as the code passes them around. Kysely's `Selectable` of each table
 * type (src/db/tables/); every layer (access, services, presenters, engines) names rows from here.
 */
import type { Selectable } from 'kysely';
import type { ChangeRequestsTable, CommentRepliesTable, CommentsTable } from './tables/change-requests.ts';
import type { CollectionsTable, SpacesTable } from './tables/content.ts';
import type { LinkInvitesTable, OrganizationsTable, SamlProvidersTable, UsersTable } from './tables/people.ts';
import type { SiteSectionGroupsTable, SiteSectionsTable, SitesTable, SiteSpacesTable } from './tables/sites.ts';
import type { GlossaryEntriesTable, TranslationsTable } from './tables/translations.ts';
import type { OidcProvidersTable } from './tables/federated-sign-in.ts';

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

/** The columns of a user that other objects show (an author, a member, a reviewer). */
export type UserRow = Pick<UsersTable, 'id' | 'email' | 'display_name' | 'photo_url'>;
export type TranslationRow = Selectable<TranslationsTable>;
export type GlossaryEntryRow = Selectable<GlossaryEntriesTable>;
export type SamlProviderRow = SamlProvidersTable;
export type LinkInviteRow = LinkInvitesTable;
export type OidcProviderRow = OidcProvidersTable;
