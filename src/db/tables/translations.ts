import type { Generated } from 'kysely';

/** Translations of spaces and their glossaries. Column conventions: src/db/tables/columns.ts. */

/** A source space kept translated into `language` (src/modules/translations). */
export interface TranslationsTable {
  id: string;
  organization_id: string;
  source_space_id: string;
  source_language: string;
  language: string;
  instructions: string | null;
  result_space_id: string | null;
  result_revision_id: string | null;
  status: string;
  error: string | null;
  runs: Generated<number>;
  total_words: Generated<number>;
  total_pages: Generated<number>;
  total_duration_ms: Generated<number>;
  latest_duration_ms: Generated<number>;
  latest_pages: Generated<number>;
  latest_words: Generated<number>;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** What a translation last did to each page. */
export interface TranslationPagesTable {
  translation_id: string;
  page_id: string;
  source_hash: string;
  result_hash: string;
  status: string;
  words: number;
  translated_at: string;
}

export interface GlossaryEntriesTable {
  id: string;
  organization_id: string;
  translations: string;
  created_at: string;
  updated_at: string;
}

/** The tables of this domain, by name: part of `DB` (src/db/types.ts). */
export interface TranslationsTables {
  translations: TranslationsTable;
  translation_pages: TranslationPagesTable;
  glossary_entries: GlossaryEntriesTable;
}
