import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A PostgreSQL database of its own for one suite (a server process, the CLI), and how to drop it. */
export interface ScratchDatabase {
  /** Its connection address, on the server TEST_DATABASE_URL names. */
  url: string;
  /** Drops it, closing the connections still open to it. */
  drop: () => Promise<void>;
}

/** Runs one statement on TEST_DATABASE_URL's server as its administrator. */
async function administer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Creates an empty database named `quire_<prefix>_<random>` beside TEST_DATABASE_URL's (which must be set):
 * for suites that start `bin/quire` processes, which each migrate the database they are given.
 */
export async function createScratchDatabase(prefix: string): Promise<ScratchDatabase> {
  if (!process.env.TEST_DATABASE_URL) throw new Error('createScratchDatabase needs TEST_DATABASE_URL');
  const name = `quire_${prefix}_${randomBytes(5).toString('hex')}`;
  await administer(`create database ${name}`);
  // Thrown away after the suite: its commits need not wait for the disk (this database only).
  await administer(`alter database ${name} set synchronous_commit = off`);
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => administer(`drop database if exists ${name} with (force)`) };
}
