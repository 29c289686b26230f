import { FolderBlobStore, type BlobStore } from './blobs.ts';
import { S3BlobStore } from './s3.ts';
import type { BlobLocation } from '../blob-location.ts';

/** The blob store of a configured location. */
export function openBlobStore(location: BlobLocation): BlobStore {
  return location.kind === 'folder' ? new FolderBlobStore(location.path) : new S3BlobStore(location);
}
