import type { Migration, MigrationProvider } from 'kysely';
import * as foundation from './2026-11-21-0001-foundation.ts';

/** Every migration, by its timestamped name; Kysely applies them in name order. */
const migrations: Record<string, Migration> = {
  '2026-11-21-0001-foundation': foundation,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
