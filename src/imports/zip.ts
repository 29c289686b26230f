import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { BadRequest } from '../errors.ts';
import { megabytes, type ImportLimits } from './limits.ts';

/**
 * A set of files to import: a zip archive, or a folder on disk (the CLI). Paths use "/", are relative, and
 * never contain "." or ".." segments.
 */
export interface FileSet {
  /** The files (not the folders), in the order the source lists them. */
  files: Array<{ path: string; size: number }>;
  read(path: string): Promise<Buffer>;
}

/** Refuses a path that would leave the archive: absolute, a drive letter, or with a ".." segment. */
export function assertSafePath(path: string): void {
  const parts = path.split('/');
  if (path.startsWith('/') || /^[a-zA-Z]:/.test(path) || parts.includes('..') || path.includes('\0')) {
    throw new BadRequest(`The archive holds an entry with an unsafe path ("${path.slice(0, 200)}"): entries with ".." or absolute paths are refused. Re-create the archive from the folder itself.`);
  }
}

function archiveError(error: unknown): BadRequest {
  const message = (error as Error).message ?? String(error);
  const path = /^(?:absolute path|invalid relative path|invalid characters in fileName): (.*)$/.exec(message);
  if (path) {
    return new BadRequest(`The archive holds an entry with an unsafe path ("${path[1].slice(0, 200)}"): entries with ".." or absolute paths are refused. Re-create the archive from the folder itself.`);
  }
  return new BadRequest(`The source is not a readable zip archive (${message}).`);
}

function open(bytes: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false, decodeStrings: true }, (error, zip) => {
      if (error || !zip) reject(archiveError(error));
      else resolve(zip);
    });
  });
}

function entries(zip: ZipFile): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const found: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      found.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(found));
    zip.on('error', (error) => reject(archiveError(error)));
    zip.readEntry();
  });
}

/** Checks one entry against the limits before anything of it is unpacked. */
function checkEntry(entry: Entry, limits: ImportLimits): void {
  assertSafePath(entry.fileName);
  if (entry.isEncrypted()) throw new BadRequest(`The archive entry "${entry.fileName}" is encrypted; import archives without a password.`);
  if (entry.uncompressedSize > limits.ratioFloorBytes && entry.uncompressedSize / Math.max(entry.compressedSize, 1) > limits.maxCompressionRatio) {
    throw new BadRequest(
      `The archive entry "${entry.fileName}" would expand ${Math.round(entry.uncompressedSize / Math.max(entry.compressedSize, 1))} times (more than ${limits.maxCompressionRatio}), which is how zip bombs look; it was refused.`,
    );
  }
}

/**
 * Opens a zip archive as a FileSet, refusing (400) before unpacking anything: more entries than allowed,
 * unsafe paths, encrypted entries, an entry compressed suspiciously well, or a total unpacked size over
 * the limit. Reading an entry then checks its real size against the size it declares.
 */
export async function openZip(bytes: Buffer, limits: ImportLimits): Promise<FileSet> {
  const zip = await open(bytes);
  if (zip.entryCount > limits.maxEntries) {
    throw new BadRequest(`The archive holds ${zip.entryCount} entries; an import takes at most ${limits.maxEntries}. Split it into smaller archives.`);
  }
  const all = await entries(zip);
  const byPath = new Map<string, Entry>();
  let total = 0;
  for (const entry of all) {
    checkEntry(entry, limits);
    if (entry.fileName.endsWith('/')) continue;
    total += entry.uncompressedSize;
    if (total > limits.maxUnpackedBytes) {
      throw new BadRequest(`The archive unpacks to more than ${megabytes(limits.maxUnpackedBytes)}, the most an import unpacks. Split it into smaller archives.`);
    }
    const path = entry.fileName.split('/').filter((part) => part !== '' && part !== '.').join('/');
    if (path && !byPath.has(path)) byPath.set(path, entry);
  }
  let unpacked = 0;
  return {
    files: [...byPath].map(([path, entry]) => ({ path, size: entry.uncompressedSize })),
    read: async (path) => {
      const entry = byPath.get(path);
      if (!entry) throw new Error(`No entry "${path}" in the archive.`);
      const data = await readEntry(zip, entry);
      unpacked += data.length;
      if (unpacked > limits.maxUnpackedBytes) throw new BadRequest(`The archive unpacks to more than ${megabytes(limits.maxUnpackedBytes)}, the most an import unpacks.`);
      return data;
    },
  };
}

/** The bytes of one entry; yauzl refuses an entry whose real size differs from the size it declares. */
function readEntry(zip: ZipFile, entry: Entry): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) return reject(archiveError(error));
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > entry.uncompressedSize) {
          stream.destroy();
          reject(new BadRequest(`The archive entry "${entry.fileName}" holds more than it declares; the archive was refused.`));
          return;
        }
        chunks.push(chunk);
      });
      stream.on('error', (cause) => reject(archiveError(cause)));
      stream.on('end', () => resolve(Buffer.concat(chunks)));
    });
  });
}
