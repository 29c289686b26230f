import { resolve } from 'node:path';
import type { Config } from '../config.ts';
import { backup, restore } from '../backup/backup.ts';
import { openBlobStore } from '../storage/blob-url.ts';

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** `quire backup <file>`: prints what it wrote. */
export async function backupCommand(config: Config, file: string, json: boolean): Promise<number> {
  const report = await backup(config, openBlobStore(config.blobs), resolve(file));
  process.stdout.write(
    json
      ? JSON.stringify(report) + '\n'
      : `Backed up the database (${megabytes(report.databaseBytes)}) and ${report.blobs} blob(s) (${megabytes(report.blobBytes)})${report.key ? ' and the key file' : ''} to ${report.file}.\n` +
          (report.key ? 'The backup holds the master key: keep it as safe as the data.\n' : 'The master key comes from QUIRE_SECRET_KEY and is not in the backup: keep it with the backup.\n'),
  );
  return 0;
}

/** `quire restore <file>`: into the configured, empty data folder. */
export async function restoreCommand(config: Config, file: string, json: boolean): Promise<number> {
  const report = await restore(config, openBlobStore(config.blobs), resolve(file));
  process.stdout.write(
    json ? JSON.stringify(report) + '\n' : `Restored the database to ${report.database} with ${report.blobs} blob(s)${report.key ? ' and the key file' : ''}. Start it with: quire serve\n`,
  );
  return 0;
}
