import type { Migration, MigrationProvider } from 'kysely';
import * as foundation from './2026-11-21-0001-foundation.ts';
import * as content from './2026-11-21-0002-content.ts';
import * as search from './2026-11-21-0003-search.ts';
import * as changeRequests from './2026-11-21-0004-change-requests.ts';

/** Every migration, by its timestamped name; Kysely applies them in name order. */
const migrations: Record<string, Migration> = {
  '2026-11-21-0001-foundation': foundation,
  '2026-11-21-0002-content': content,
  '2026-11-21-0003-search': search,
  '2026-11-21-0004-change-requests': changeRequests,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
