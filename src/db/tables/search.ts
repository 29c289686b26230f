/** The full-text search index. Column conventions: src/db/tables/columns.ts. */

/**
 * One indexed page of a space's current content (document pages without `noIndex`). `headings` and `body`
 * hold the text of the page's sections, in order, separated by SECTION_SEPARATOR (src/search/page-text.ts);
 * `sections` is the JSON array of their anchors. The full-text index over these columns is per dialect
 * (migration 2026-11-21-0003); on SQLite it also holds each page's space as a token (migration
 * 2026-11-26-0120, through the view `search_fts_content`).
 */
export interface SearchPagesTable {
  space_id: string;
  page_id: string;
  title: string;
  path: string;
  headings: string;
  body: string;
  /** The body object the text was read from ('' for an empty page). */
  body_hash: string;
  sections: string;
  /** When this row was last written. */
  indexed_at: string;
}

/** Which revision root a space's search index reflects. */
export interface SearchSpacesTable {
  space_id: string;
  root_hash: string;
  indexed_at: string;
}

/** The tables of this domain, by name: part of `DB` (src/db/types.ts). */
export interface SearchTables {
  search_pages: SearchPagesTable;
  search_spaces: SearchSpacesTable;
}
