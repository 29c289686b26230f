import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createHash, randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import type { BlobStore } from '../storage/blobs.ts';
import { readTar, TarWriter } from './tar.ts';

/**
 * `quire backup <file>` and `quire restore <file>` for a SQLite Quire: one gzipped tar holding a manifest,
 * a consistent copy of the database (SQLite's VACUUM INTO, which reads one snapshot and runs while the
 * server serves), the key file when the key lives in the data folder, and every blob the copy refers to.
 * Blobs are written before the rows that name them, and never change, so reading them after the snapshot
 * finds every one. PostgreSQL deployments back up with pg_dump and the bucket's own tools (docs/operations.md).
 */
export const MANIFEST = 'quire-backup.json';
const HASH = /^[0-9a-f]{64}$/;

export interface BackupReport {
  file: string;
  databaseBytes: number;
  blobs: number;
  blobBytes: number;
  key: boolean;
}

export class BackupError extends Error {}

function sqliteFile(config: Config): string {
  if (!config.databaseUrl.startsWith('sqlite:') || config.databaseUrl === 'sqlite::memory:') {
    throw new BackupError('quire backup and restore work on a SQLite database; for PostgreSQL use pg_dump and pg_restore, and back up the blob bucket (see docs/operations.md).');
  }
  return config.databaseUrl.slice('sqlite:'.length);
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Writes a backup of the configured SQLite database and its blobs to `file` (gzipped tar). */
export async function backup(config: Config, blobs: BlobStore, file: string): Promise<BackupReport> {
  const source = sqliteFile(config);
  if (!existsSync(source)) throw new BackupError(`There is no database at ${source} to back up.`);
  const snapshot = join(dirname(file), `.quire-backup-${randomBytes(6).toString('hex')}.db`);
  const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
  const database = openDatabase(config.databaseUrl);
  try {
    await sql`vacuum into ${snapshot}`.execute(database.db);
  } finally {
    await database.close();
  }
  try {
    const copy = new SQLite(snapshot, { readonly: true });
    let hashes: string[];
    try {
      hashes = copy
        .prepare('select hash from content_blobs union select blob from pdf_exports')
        .pluck()
        .all() as string[];
    } finally {
      copy.close();
    }
    const databaseBytes = await readFile(snapshot);
    const keyFile = join(config.dataDir, 'secret.key');
    const key = !config.secretKey && existsSync(keyFile) ? await readFile(keyFile) : null;
    const report: BackupReport = { file, databaseBytes: databaseBytes.length, blobs: 0, blobBytes: 0, key: key !== null };

    const gzip = createGzip();
    const written = pipeline(gzip, createWriteStream(partial, { mode: 0o600 }));
    const tar = new TarWriter(gzip);
    const manifest = { format: 'quire-backup', version: 1, createdAt: new Date().toISOString(), blobs: hashes.length, key: key !== null };
    await tar.add(MANIFEST, Buffer.from(JSON.stringify(manifest, null, 2) + '\n'));
    await tar.add('quire.db', databaseBytes);
    if (key) await tar.add('secret.key', key);
    for (const hash of hashes) {
      const stream = await blobs.open(hash);
      if (!stream) throw new BackupError(`The blob ${hash} that the database refers to is missing from blob storage; the backup would be incomplete.`);
      const bytes = await bytesOf(stream);
      await tar.add(`blobs/${hash.slice(0, 2)}/${hash.slice(2)}`, bytes);
      report.blobs++;
      report.blobBytes += bytes.length;
    }
    await tar.finish();
    await written;
    await rename(partial, file);
    return report;
  } finally {
    await rm(snapshot, { force: true });
    await rm(partial, { force: true });
  }
}

export interface RestoreReport {
  database: string;
  blobs: number;
  key: boolean;
}

/**
 * Restores a backup into the configured (empty) place: the database file must not exist yet, and a key
 * file already in the data folder must be the backup's. Blobs go into the configured blob store, checked
 * against their hash.
 */
export async function restore(config: Config, blobs: BlobStore, file: string): Promise<RestoreReport> {
  const target = sqliteFile(config);
  if (existsSync(target)) throw new BackupError(`${target} exists already; restore into an empty data folder (set QUIRE_DATA_DIR), or move the old database away first.`);
  if (!existsSync(file)) throw new BackupError(`There is no backup file ${file}.`);
  await mkdir(dirname(target), { recursive: true });
  const partial = `${target}.${randomBytes(6).toString('hex')}.partial`;
  const report: RestoreReport = { database: target, blobs: 0, key: false };
  let manifest = false;
  let database = false;
  try {
    for await (const entry of readTar(createReadStream(file).pipe(createGunzip()))) {
      if (entry.name === MANIFEST) {
        const parsed = JSON.parse(entry.bytes.toString()) as { format?: string; version?: number };
        if (parsed.format !== 'quire-backup' || parsed.version !== 1) throw new BackupError('This file is not a Quire backup of a version this Quire can restore.');
        manifest = true;
      } else if (!manifest) {
        throw new BackupError('This file is not a Quire backup (its manifest is missing).');
      } else if (entry.name === 'quire.db') {
        await writeFile(partial, entry.bytes, { mode: 0o600 });
        database = true;
      } else if (entry.name === 'secret.key') {
        const keyFile = join(config.dataDir, 'secret.key');
        if (existsSync(keyFile)) {
          if (!(await readFile(keyFile)).equals(entry.bytes)) throw new BackupError(`${keyFile} holds another key than the backup's; restore into an empty data folder.`);
        } else {
          await mkdir(config.dataDir, { recursive: true });
          await writeFile(keyFile, entry.bytes, { mode: 0o600, flag: 'wx' });
        }
        report.key = true;
      } else if (entry.name.startsWith('blobs/')) {
        const hash = entry.name.slice('blobs/'.length).replace('/', '');
        if (!HASH.test(hash) || createHash('sha256').update(entry.bytes).digest('hex') !== hash) {
          throw new BackupError(`The backup's blob ${entry.name} does not match its hash: the file is damaged.`);
        }
        await blobs.put(entry.bytes);
        report.blobs++;
      }
    }
    if (!database) throw new BackupError('The backup holds no database.');
    await rename(partial, target);
    return report;
  } finally {
    await rm(partial, { force: true });
  }
}
