import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { BlobStore } from './blobs.ts';

const HASH = /^[0-9a-f]{64}$/;

/** Where an S3-compatible store keeps Quire's blobs: parsed from `QUIRE_BLOB_URL=s3://bucket/prefix?endpoint=…`. */
export interface S3Location {
  bucket: string;
  /** Key prefix inside the bucket (empty, or ending in `/`). */
  prefix: string;
  /** The server's base URL (MinIO, R2, a local test server); undefined = AWS itself. */
  endpoint?: string;
  region: string;
  /** Path-style addressing (`endpoint/bucket/key`), which most compatible servers need; on by default. */
  pathStyle: boolean;
  /**
   * When request checksums are sent and response checksums checked: `when_supported` (the SDK's default)
   * or `when_required` (for servers that refuse or mangle the newer checksum headers, as some R2 and MinIO
   * versions do).
   */
  checksum: 'when_supported' | 'when_required';
}

/**
 * Blobs as objects in an S3-compatible bucket: `<prefix>ab/cdef…`, the same fan-out as the folder store.
 * Credentials come from the usual AWS variables (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_PROFILE…).
 * Every process of a deployment can share one bucket: a blob is named by its content, so two writers of
 * one blob write the same bytes, and a PUT is atomic (a reader never sees half an object).
 */
export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;

  constructor(
    private readonly location: S3Location,
    client?: S3Client,
  ) {
    const checksum = location.checksum === 'when_required' ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED';
    this.client =
      client ??
      new S3Client({
        region: location.region,
        endpoint: location.endpoint,
        forcePathStyle: location.pathStyle,
        requestChecksumCalculation: checksum,
        responseChecksumValidation: checksum,
      });
  }

  private key(hash: string): string {
    if (!HASH.test(hash)) throw new Error('Not a blob hash.');
    return `${this.location.prefix}${hash.slice(0, 2)}/${hash.slice(2)}`;
  }

  async put(bytes: Buffer): Promise<{ hash: string; size: number }> {
    const hash = createHash('sha256').update(bytes).digest('hex');
    if (!(await this.has(hash))) {
      await this.client.send(
        new PutObjectCommand({ Bucket: this.location.bucket, Key: this.key(hash), Body: bytes, ContentLength: bytes.length, ContentType: 'application/octet-stream' }),
      );
    }
    return { hash, size: bytes.length };
  }

  async open(hash: string): Promise<Readable | null> {
    if (!HASH.test(hash)) return null;
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: this.key(hash) }));
      const body = object.Body;
      if (body instanceof Readable) return body;
      if (!body) return Readable.from([]);
      return Readable.from(Buffer.from(await body.transformToByteArray()));
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  }

  async has(hash: string): Promise<boolean> {
    if (!HASH.test(hash)) return false;
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.location.bucket, Key: this.key(hash) }));
      return true;
    } catch (error) {
      if (missing(error)) return false;
      throw error;
    }
  }

  /** Closes the client's connections (the process is stopping). */
  destroy(): void {
    this.client.destroy();
  }
}

function missing(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
}
