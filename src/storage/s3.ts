import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Location } from '../blob-location.ts';
import type { BlobStore } from './blobs.ts';

const HASH = /^[0-9a-f]{64}$/;


/**
 * Blobs as objects in an S3-compatible bucket: `<prefix>ab/cdef…`, the same fan-out as the folder store.
 * Credentials come from the usual AWS variables (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_PROFILE…).
 * Every process of a deployment can share one bucket: a blob is named by its content, so two writers of
 * one blob write the same bytes, and a PUT is atomic (a reader never sees half an object).
 */
export class S3BlobStore implements BlobStore {
  /** The SDK is loaded on first use: it is large, and most processes keep blobs in a folder. */
  private sdk: Promise<{ client: S3Client; module: typeof import('@aws-sdk/client-s3') }> | null = null;

  constructor(private readonly location: S3Location) {}

  private connect() {
    this.sdk ??= import('@aws-sdk/client-s3').then((module) => {
      const checksum = this.location.checksum === 'when_required' ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED';
      const client = new module.S3Client({
        region: this.location.region,
        endpoint: this.location.endpoint,
        forcePathStyle: this.location.pathStyle,
        requestChecksumCalculation: checksum,
        responseChecksumValidation: checksum,
      });
      return { client, module };
    });
    return this.sdk;
  }

  private key(hash: string): string {
    if (!HASH.test(hash)) throw new Error('Not a blob hash.');
    return `${this.location.prefix}${hash.slice(0, 2)}/${hash.slice(2)}`;
  }

  async put(bytes: Buffer): Promise<{ hash: string; size: number }> {
    const hash = createHash('sha256').update(bytes).digest('hex');
    if (!(await this.has(hash))) {
      const { client, module } = await this.connect();
      await client.send(
        new module.PutObjectCommand({ Bucket: this.location.bucket, Key: this.key(hash), Body: bytes, ContentLength: bytes.length, ContentType: 'application/octet-stream' }),
      );
    }
    return { hash, size: bytes.length };
  }

  async open(hash: string): Promise<Readable | null> {
    if (!HASH.test(hash)) return null;
    const { client, module } = await this.connect();
    try {
      const object = await client.send(new module.GetObjectCommand({ Bucket: this.location.bucket, Key: this.key(hash) }));
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
    const { client, module } = await this.connect();
    try {
      await client.send(new module.HeadObjectCommand({ Bucket: this.location.bucket, Key: this.key(hash) }));
      return true;
    } catch (error) {
      if (missing(error)) return false;
      throw error;
    }
  }

  async remove(hash: string): Promise<void> {
    const { client, module } = await this.connect();
    // DeleteObject succeeds for an absent key as well.
    await client.send(new module.DeleteObjectCommand({ Bucket: this.location.bucket, Key: this.key(hash) }));
  }

  /** Closes the client's connections (the process is stopping). */
  async destroy(): Promise<void> {
    if (this.sdk) (await this.sdk).client.destroy();
  }
}

/** The SDK's answer for an absent object (a NoSuchKey or NotFound service exception, or any 404). */
function missing(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return error.name === 'NoSuchKey' || error.name === 'NotFound' || status === 404;
}
