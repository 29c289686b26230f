import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { BlobStore } from '../../src/storage/blobs.ts';

/** Blob storage in memory, for import tests that touch no database. */
export function memoryBlobs(): BlobStore & { stored: Map<string, Buffer> } {
  const stored = new Map<string, Buffer>();
  return {
    stored,
    put: async (bytes) => {
      const hash = createHash('sha256').update(bytes).digest('hex');
      stored.set(hash, bytes);
      return { hash, size: bytes.length };
    },
    open: async (hash) => (stored.has(hash) ? Readable.from([stored.get(hash)!]) : null),
    has: async (hash) => stored.has(hash),
    remove: async (hash) => {
      stored.delete(hash);
    },
  };
}
