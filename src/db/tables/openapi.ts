/** OpenAPI specifications and their versions. Column conventions: src/db/tables/columns.ts. */

export interface OpenapiSpecsTable {
  id: string;
  organization_id: string;
  slug: string;
  source_url: string | null;
  source_text: string | null;
  /** 'private' or 'public'. */
  visibility: string;
  /** 'pending', 'progress' or 'complete'. */
  processing_state: string;
  last_version_id: string | null;
  last_processed_at: string | null;
  last_error_code: string | null;
  last_error: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface OpenapiSpecVersionsTable {
  id: string;
  spec_id: string;
  content_hash: string;
  content: string;
  source_url: string | null;
  created_at: string;
}

/** The tables of this domain, by name: part of `DB` (src/db/types.ts). */
export interface OpenapiTables {
  openapi_specs: OpenapiSpecsTable;
  openapi_spec_versions: OpenapiSpecVersionsTable;
}
