import { promisify } from 'node:util';
import { inflateRaw, inflateRawSync, type InputType, type ZlibOptions } from 'node:zlib';
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
      const data = await readEntry(bytes, entry);
      unpacked += data.length;
      if (unpacked > limits.maxUnpackedBytes) throw new BadRequest(`The archive unpacks to more than ${megabytes(limits.maxUnpackedBytes)}, the most an import unpacks.`);
      return data;
    },
  };
}

/**
 * Entries that unpack to fewer bytes than this are inflated on the calling thread, at once: a page of an
 * archive (a kilobyte or two) inflates in microseconds, and a stream per entry (yauzl's `openReadStream`: a
 * reader, an inflate stream and a size check, each with its own turns of the event loop, and the inflate a
 * round trip to libuv's threads) cost a 1,000-page import more CPU on the main thread than its layout, and a
 * wait per entry while the workers held both cores (docs/performance.md). Larger entries are inflated on
 * libuv's threads, so that the event loop is not held for one of tens of megabytes.
 */
export const INFLATE_HERE_BELOW = 256 * 1024;

const inflateRawAsync = promisify<InputType, ZlibOptions, Buffer>(inflateRaw);

/**
 * The bytes of one entry, read from the archive in memory as yauzl's `openReadStream` reads them (the local
 * header's signature and the entry's bounds checked, then the data stored or inflated), refusing an entry
 * whose real size differs from the size it declares, with yauzl's words; inflating stops one byte past the
 * declared size, so a lying entry never unpacks more than that.
 */
async function readEntry(bytes: Buffer, entry: Entry): Promise<Buffer> {
  const header = entry.relativeOffsetOfLocalHeader;
  if (header + 30 > bytes.length) throw archiveError(new Error('unexpected EOF'));
  const signature = bytes.readUInt32LE(header);
  if (signature !== 0x04034b50) throw archiveError(new Error(`invalid local file header signature: 0x${signature.toString(16)}`));
  const start = header + 30 + bytes.readUInt16LE(header + 26) + bytes.readUInt16LE(header + 28);
  if (start + entry.compressedSize > bytes.length) throw archiveError(new Error(`file data overflows file bounds: ${start} + ${entry.compressedSize} > ${bytes.length}`));
  const raw = bytes.subarray(start, start + entry.compressedSize);
  if (entry.compressionMethod === 0) {
    // yauzl checked, when it listed the entry, that a stored entry's two sizes are the same.
    if (raw.length > entry.uncompressedSize) throw new BadRequest(`The archive entry "${entry.fileName}" holds more than it declares; the archive was refused.`);
    return Buffer.from(raw);
  }
  if (entry.compressionMethod !== 8) throw archiveError(new Error(`unsupported compression method: ${entry.compressionMethod}`));
  const expected = entry.uncompressedSize;
  let data: Buffer;
  try {
    const options = { maxOutputLength: Math.max(1, expected + 1) };
    data = expected < INFLATE_HERE_BELOW ? inflateRawSync(raw, options) : await inflateRawAsync(raw, options);
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw archiveError(new Error(`too many bytes in the stream. expected ${expected}. got at least ${expected + 1}`));
    throw archiveError(error);
  }
  if (data.length > expected) throw archiveError(new Error(`too many bytes in the stream. expected ${expected}. got at least ${data.length}`));
  if (data.length < expected) throw archiveError(new Error(`not enough bytes in the stream. expected ${expected}. got only ${data.length}`));
  return data;
}
