import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where file bytes live, by the SHA-256 of their content. One small interface, so that an object store
 * can take the local folder's place.
 */
export interface BlobStore {
  /** Stores bytes (once: equal content is one blob); returns their hash and size. */
  put(bytes: Buffer): Promise<{ hash: string; size: number }>;
  /** The bytes of a blob, or null when it is not stored. */
  open(hash: string): Promise<Readable | null>;
  has(hash: string): Promise<boolean>;
  /** Removes a blob (nothing when it is not stored). Only the garbage collector calls it (src/content/gc.ts). */
  remove(hash: string): Promise<void>;
}

const HASH = /^[0-9a-f]{64}$/;

/** Blobs as files in a folder: `<root>/ab/cdef…` (the first two hex digits fan the files out). */
export class FolderBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private path(hash: string): string {
    if (!HASH.test(hash)) throw new Error('Not a blob hash.');
    return join(this.root, hash.slice(0, 2), hash.slice(2));
  }

  async put(bytes: Buffer): Promise<{ hash: string; size: number }> {
    const hash = createHash('sha256').update(bytes).digest('hex');
    const target = this.path(hash);
    if (!(await this.has(hash))) {
      await mkdir(join(this.root, hash.slice(0, 2)), { recursive: true });
      // Write beside, then rename: a reader never sees half a blob, and two writers of one blob agree.
      const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(temporary, bytes);
      await rename(temporary, target);
    }
    return { hash, size: bytes.length };
  }

  async open(hash: string): Promise<Readable | null> {
    if (!HASH.test(hash) || !(await this.has(hash))) return null;
    return createReadStream(this.path(hash));
  }

  async has(hash: string): Promise<boolean> {
    if (!HASH.test(hash)) return false;
    return stat(this.path(hash)).then(() => true, () => false);
  }

  async remove(hash: string): Promise<void> {
    await unlink(this.path(hash)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error; // removed already: the wanted state
    });
  }
}
