import type { Generated } from 'kysely';

/** Sites, their structure, share links, and what the published reader keeps. Column conventions: src/db/tables/columns.ts. */

export interface SitesTable {
  id: string;
  organization_id: string;
  /** SiteType: 'basic', 'premium', 'ultimate', … */
  type: string;
  title: string;
  /** 'public', 'unlisted', 'share-link' or 'visitor-auth'. */
  visibility: string;
  published: number;
  basename: string;
  hostname: string | null;
  proxy: string | null;
  agents_context: string;
  adaptive_enabled: number;
  adaptive_schema: string | null;
  adaptive_schema_updated_at: string | null;
  /** Sealed with the SecretBox. */
  auth_key: string;
  auth_backend: Generated<string>;
  auth_fallback_url: string | null;
  default_section_id: string | null;
  default_site_space_id: string | null;
  version: Generated<number>;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface SiteSectionGroupsTable {
  id: string;
  site_id: string;
  title: string;
  icon: string | null;
  position: number;
  created_at: string;
}

export interface SiteSectionsTable {
  id: string;
  site_id: string;
  group_id: string | null;
  title: string;
  description: string | null;
  path: string;
  condition: string | null;
  icon: string | null;
  position: number;
  default_site_space_id: string | null;
  created_at: string;
}

export interface SiteSpacesTable {
  id: string;
  site_id: string;
  section_id: string | null;
  space_id: string;
  path: string;
  condition: string | null;
  position: number;
  created_at: string;
}

export interface SiteShareLinksTable {
  id: string;
  site_id: string;
  name: string;
  key_hash: string;
  key_sealed: string;
  active: number;
  created_by: string | null;
  created_at: string;
}

export interface SiteCustomizationsTable {
  site_id: string;
  /** '' for the site's own settings; a site space's id for its override. */
  site_space_id: string;
  settings: string;
  updated_at: string;
}

export interface SiteRedirectsTable {
  id: string;
  site_id: string;
  source: string;
  /** JSON text of the client's SiteRedirectDestination. */
  destination: string;
  automatic: number;
  created_at: string;
}

export interface PublishedPagePathsTable {
  space_id: string;
  path: string;
  page_id: string;
  seen_at: string;
}

export interface SiteInsightEventsTable {
  id: string;
  site_id: string;
  type: string;
  at: string;
  url: string;
  site_section: string | null;
  site_space: string | null;
  space: string | null;
  page: string | null;
  query: string | null;
  result_count: number | null;
  rating: string | null;
  visitor: string;
  session: string;
}

export interface SiteMcpServersTable {
  id: string;
  site_id: string;
  name: string;
  url: string;
  headers_sealed: string;
  created_at: string;
}

export interface CustomFontsTable {
  id: string;
  organization_id: string;
  family: string;
  /** JSON text: [{ weight, storageKey }]. */
  faces: string;
  created_at: string;
}

/** A file uploaded through a signed storage address (src/storage/uploads.ts); `blob` once its bytes arrived. */
export interface StorageUploadsTable {
  key: string;
  organization_id: string;
  /** StorageUploadKind: 'customization_font'. */
  kind: string;
  name: string;
  content_type: string;
  size: number;
  blob: string | null;
  created_by: string | null;
  created_at: string;
  uploaded_at: string | null;
}

/** The tables of this domain, by name: part of `DB` (src/db/types.ts). */
export interface SitesTables {
  sites: SitesTable;
  site_section_groups: SiteSectionGroupsTable;
  site_sections: SiteSectionsTable;
  site_spaces: SiteSpacesTable;
  site_share_links: SiteShareLinksTable;
  site_customizations: SiteCustomizationsTable;
  site_redirects: SiteRedirectsTable;
  published_page_paths: PublishedPagePathsTable;
  site_insight_events: SiteInsightEventsTable;
  site_mcp_servers: SiteMcpServersTable;
  custom_fonts: CustomFontsTable;
  storage_uploads: StorageUploadsTable;
}
