import type { Generated } from 'kysely';

/** Collections, spaces and their content: immutable objects and blobs, revisions, link facts, sharing, the PDF cache. Column conventions: src/db/tables/columns.ts. */

export interface CollectionsTable {
  id: string;
  organization_id: string;
  parent_id: string | null;
  title: string;
  description: string | null;
  /** 'inherit', a member role, or 'none' (guests: no access by default). */
  default_level: string;
  /** Order among siblings (fractional, so a move writes one row). */
  position: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface SpacesTable {
  id: string;
  organization_id: string;
  collection_id: string | null;
  title: string;
  emoji: string | null;
  icon: string | null;
  visibility: string;
  edit_mode: string;
  /** 'inherit', a member role, or 'none'. */
  default_level: string;
  language: string | null;
  /** The current revision. */
  revision_id: string;
  position: number;
  comments: number;
  change_requests: number;
  change_requests_open: number;
  change_requests_draft: number;
  /** The number the last change request of this space got. */
  change_request_seq: Generated<number>;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** What `Space.gitSync` shows (GitSyncState, JSON text); null before any Git sync. */
  git_sync: Generated<string | null>;
}

/** Immutable content, addressed by the SHA-256 of `kind` and `data`. */
export interface ContentObjectsTable {
  hash: string;
  /** 'body' (page Markdown), 'page' (a page node, JSON), 'root' (a revision's root, JSON). */
  kind: string;
  data: string;
  /** When it was last written or reused (src/content/gc.ts); null for objects older than migration 0051. */
  touched_at: Generated<string | null>;
}

/** What a page body says about links as written (src/content/link-analysis/store.ts), by the body's hash. */
export interface LinkFactsTable {
  body_hash: string;
  /** The reading the facts came from (WRITTEN_FACTS_VERSION); facts of another reading are read again. */
  version: number;
  /** WrittenFacts as JSON. */
  facts: string;
  created_at: string;
}

/** A revision's link analysis as found (src/content/link-analysis/saved.ts), by root hash and public URL. */
export interface LinkAnalysesTable {
  root_hash: string;
  /** The public URL (no trailing slash) its links were classified against: what is one of the server's own addresses. */
  public_url: string;
  /** The code that made it (ANALYSIS_READING); a row of another reading counts as missing. */
  reading: string;
  /** SavedAnalysis as JSON. */
  analysis: string;
  created_at: string;
}

export interface ContentBlobsTable {
  hash: string;
  size: number;
  created_at: string;
  /** When it was last stored or reused (src/content/gc.ts); null: its created_at. */
  touched_at: Generated<string | null>;
}

export interface RevisionsTable {
  id: string;
  /** The space whose history this revision started in. */
  space_id: string;
  /** 'edits' | 'merge' | 'rollback' | 'update' | 'computed' */
  type: string;
  /** JSON array of parent revision ids. */
  parents: string;
  /** Hash of the revision's root object. */
  root: string;
  created_by: string | null;
  created_at: string;
  /** The Git commit the revision came from or was exported as (GitSyncCommit, JSON text); mutable metadata. */
  git: Generated<string | null>;
}

/** The PDF cache: the blob holding the PDF made for a key (content root, pages, title page, renderer). */
export interface PdfExportsTable {
  key: string;
  blob: string;
  size: number;
  created_at: string;
}

/** A role on a space or collection given to a user or a team (sharing). */
export interface ContentPermissionsTable {
  id: string;
  organization_id: string;
  resource_kind: 'space' | 'collection';
  resource_id: string;
  subject_kind: 'user' | 'team';
  subject_id: string;
  role: string;
  created_at: string;
  updated_at: string;
}

/** The tables of this domain, by name: part of `DB` (src/db/types.ts). */
export interface ContentTables {
  collections: CollectionsTable;
  spaces: SpacesTable;
  content_objects: ContentObjectsTable;
  link_facts: LinkFactsTable;
  link_analyses: LinkAnalysesTable;
  content_blobs: ContentBlobsTable;
  revisions: RevisionsTable;
  pdf_exports: PdfExportsTable;
  content_permissions: ContentPermissionsTable;
}
