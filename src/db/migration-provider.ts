import { readdir } from 'node:fs/promises';
import type { Migration, MigrationProvider } from 'kysely';

/** A migration file: `YYYY-MM-DD-NNNN-what.ts`. Kysely applies them in name order. */
const MIGRATION_FILE = /^(\d{4}-\d{2}-\d{2}-\d{4}-[a-z0-9-]+)\.ts$/;

/**
 * Every migration in `src/db/migrations/`, found by listing the folder, so that adding one is adding its file.
 * The files are TypeScript, imported through tsx, the way `bin/quire` and the tests run the sources.
 *
 * A file is imported only when Kysely runs its migration: a database that is up to date (every start of a
 * server and every `quire` command but the first) needs their names only, not their code.
 */
export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    const folder = new URL('./migrations/', import.meta.url);
    const names = (await readdir(folder)).filter((name) => MIGRATION_FILE.test(name)).sort();
    const migrations: Record<string, Migration> = {};
    for (const name of names) {
      let loaded: Promise<Migration> | undefined;
      const load = () => (loaded ??= import(new URL(name, folder).href).then((migration: Migration) => {
        if (typeof migration.up !== 'function') throw new Error(`The migration ${name} exports no up function.`);
        return migration;
      }));
      migrations[name.replace(/\.ts$/, '')] = {
        up: async (db) => (await load()).up(db),
        // Kysely undoes a migration without a down function by doing nothing; so does this.
        down: async (db) => {
          const migration = await load();
          if (migration.down) await migration.down(db);
        },
      };
    }
    return migrations;
  },
};
