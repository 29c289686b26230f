import { join } from 'node:path';

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

/** Where blobs live, as configured by QUIRE_BLOB_URL: a folder (the default) or an S3-compatible bucket. */
export type BlobLocation = { kind: 'folder'; path: string } | ({ kind: 's3' } & S3Location);

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * Reads QUIRE_BLOB_URL: empty = `<dataDir>/blobs`; `file:///path` or a plain path = that folder;
 * `s3://bucket[/prefix]?endpoint=http://host:port&region=…&pathStyle=1&checksum=when_required` = a bucket.
 * Throws an Error whose message says what to write instead.
 */
export function parseBlobUrl(raw: string | undefined, dataDir: string, defaultRegion = 'us-east-1'): BlobLocation {
  if (raw === undefined || raw.trim() === '') return { kind: 'folder', path: join(dataDir, 'blobs') };
  if (raw.startsWith('/')) return { kind: 'folder', path: raw };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`QUIRE_BLOB_URL must be s3://bucket?endpoint=… or file:///folder; it is "${raw}".`);
  }
  if (url.protocol === 'file:') return { kind: 'folder', path: decodeURIComponent(url.pathname) };
  if (url.protocol !== 's3:') throw new Error(`QUIRE_BLOB_URL must start with s3:// or file://; it is "${raw}".`);
  const bucket = url.hostname;
  if (!BUCKET.test(bucket)) throw new Error(`QUIRE_BLOB_URL names the bucket "${bucket}", which is not a valid bucket name.`);
  const known = new Set(['endpoint', 'region', 'pathStyle', 'checksum']);
  for (const name of url.searchParams.keys()) {
    if (!known.has(name)) throw new Error(`QUIRE_BLOB_URL has an unknown option "${name}"; the options are ${[...known].join(', ')}.`);
  }
  const endpoint = url.searchParams.get('endpoint') ?? undefined;
  if (endpoint !== undefined && !/^https?:\/\/[^/]/.test(endpoint)) {
    throw new Error(`QUIRE_BLOB_URL's endpoint must be an http(s) URL such as http://127.0.0.1:9000; it is "${endpoint}".`);
  }
  const checksum = url.searchParams.get('checksum') ?? 'when_supported';
  if (checksum !== 'when_supported' && checksum !== 'when_required') {
    throw new Error(`QUIRE_BLOB_URL's checksum must be when_supported or when_required; it is "${checksum}".`);
  }
  const pathStyle = url.searchParams.get('pathStyle') ?? '1';
  if (pathStyle !== '0' && pathStyle !== '1') throw new Error(`QUIRE_BLOB_URL's pathStyle must be 1 or 0; it is "${pathStyle}".`);
  const path = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  return {
    kind: 's3',
    bucket,
    prefix: path ? `${path}/` : '',
    endpoint,
    region: url.searchParams.get('region') ?? defaultRegion,
    pathStyle: pathStyle === '1',
    checksum,
  };
}
