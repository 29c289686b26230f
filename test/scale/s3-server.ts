import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** A real S3-compatible server (s3rver) on 127.0.0.1, with one bucket, for as long as a test needs it. */
export interface LocalS3 {
  /** QUIRE_BLOB_URL for the bucket (with a key prefix when asked). */
  blobUrl(prefix?: string): string;
  endpoint: string;
  bucket: string;
  /** The AWS variables a Quire process needs to reach it. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startLocalS3(bucket = 'quire-test'): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), 'quire-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver checks signatures against its fixed key pair.
  const env = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };
  Object.assign(process.env, env);
  return {
    endpoint,
    bucket,
    env,
    blobUrl: (prefix = '') => `s3://${bucket}/${prefix}?endpoint=${encodeURIComponent(endpoint)}`,
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
