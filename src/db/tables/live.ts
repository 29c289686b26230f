/** Live co-editing (migration 2026-11-27-0340, src/live/). Yjs bytes are base64 text. */
export interface LiveDocumentsTable {
  name: string;
  space_id: string;
  change_request_id: string;
  page_id: string;
  state: string;
  base_revision: string;
  created_at: string;
  updated_at: string;
}

export interface LiveUpdatesTable {
  id: string;
  document: string;
  update: string;
  user_id: string;
  created_at: string;
}

export interface LiveTables {
  live_documents: LiveDocumentsTable;
  live_updates: LiveUpdatesTable;
}
