import { readdir } from 'node:fs/promises';
import type { Migration, MigrationProvider } from 'kysely';

/** A migration file: `YYYY-MM-DD-NNNN-what.ts`. Kysely applies them in name order. */
const MIGRATION_FILE = /^(\d{4}-\d{2}-\d{2}-\d{4}-[a-z0-9-]+)\.ts$/;

/**
 * Every migration in `src/db/migrations/`, found by listing the folder, so that adding one is adding its file.
 * The files are TypeScript, imported through tsx, the way `bin/quire` and the tests run the sources.
 */
export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    const folder = new URL('./migrations/', import.meta.url);
    const names = (await readdir(folder)).filter((name) => MIGRATION_FILE.test(name)).sort();
    const migrations: Record<string, Migration> = {};
    for (const name of names) {
      const migration = (await import(new URL(name, folder).href)) as Migration;
      if (typeof migration.up !== 'function') throw new Error(`The migration ${name} exports no up function.`);
      migrations[name.replace(/\.ts$/, '')] = migration;
    }
    return migrations;
  },
};
