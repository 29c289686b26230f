import type { Migration, MigrationProvider } from 'kysely';
import * as foundation from './2026-11-21-0001-foundation.ts';
import * as content from './2026-11-21-0002-content.ts';
import * as search from './2026-11-21-0003-search.ts';
import * as changeRequests from './2026-11-21-0004-change-requests.ts';
import * as pdf from './2026-11-21-0005-pdf.ts';
import * as changeRequestContributors from './2026-11-21-0006-change-request-contributors.ts';
import * as sites from './2026-11-21-0007-sites.ts';
import * as openapi from './2026-11-24-0030-openapi.ts';

/** Every migration, by its timestamped name; Kysely applies them in name order. */
const migrations: Record<string, Migration> = {
  '2026-11-21-0001-foundation': foundation,
  '2026-11-21-0002-content': content,
  '2026-11-21-0003-search': search,
  '2026-11-21-0004-change-requests': changeRequests,
  '2026-11-21-0005-pdf': pdf,
  '2026-11-21-0006-change-request-contributors': changeRequestContributors,
  '2026-11-21-0007-sites': sites,
  '2026-11-24-0030-openapi': openapi,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
