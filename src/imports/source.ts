import { BadRequest } from '../errors.ts';
import { safeFetch, type Download } from '../net/fetch.ts';
import type { Resolver } from '../net/addresses.ts';
import { megabytes, type ImportLimits } from './limits.ts';
import { safeDecode } from '../url-text.ts';

/** What every step of an import needs: its limits, its clock, and whether private addresses may be fetched. */
export interface ImportEnvironment {
  limits: ImportLimits;
  signal: AbortSignal;
  allowPrivate: boolean;
  /** Host name resolution (the system's by default; tests inject one). */
  resolver?: Resolver;
  /** The worker pool's threads (QUIRE_WORKERS), warmed at the start of an archive's import; the default count unless given. */
  workers?: number;
}

/** A source as downloaded: its bytes, its media type, and a name for it (the last part of its path). */
export interface SourceFile extends Download {
  name: string;
}

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/**
 * Reads `data:[<media type>][;base64],<data>`: the content travels in the URL itself, so a client can push
 * a Markdown file or a zip without a server of its own. A `name=` parameter names the content.
 */
export function readDataUrl(url: string, maxBytes: number): SourceFile {
  const comma = url.indexOf(',');
  if (comma < 0) throw new BadRequest('The data: URL has no comma: write it as data:<media type>[;base64],<data>.');
  const parameters = url.slice(5, comma).split(';').map((part) => part.trim());
  const base64 = parameters.length > 1 && parameters[parameters.length - 1].toLowerCase() === 'base64';
  const contentType = (parameters[0] || 'text/plain').toLowerCase();
  const name = parameters.find((part) => part.toLowerCase().startsWith('name='))?.slice(5) ?? '';
  const data = url.slice(comma + 1);
  let bytes: Buffer;
  if (base64) {
    const text = data.includes('%') ? safeDecode(data) : data;
    if (!/^[A-Za-z0-9+/_-]*={0,2}\s*$/.test(text.replace(/\s+/g, ''))) throw new BadRequest('The data: URL says base64, but its data is not valid base64.');
    bytes = Buffer.from(text, 'base64');
  } else {
    bytes = Buffer.from(safeDecode(data), 'utf8');
  }
  if (bytes.length > maxBytes) throw new BadRequest(`The content of the data: URL is larger than ${megabytes(maxBytes)}, the most an import reads.`);
  return { url: 'data:', contentType, contentTypeHeader: contentType, bytes, name: safeDecode(name) };
}


/** Checks the scheme of an import URL before anything is fetched: http, https or data. */
export function checkImportUrl(url: string): void {
  const scheme = SCHEME.exec(url)?.[1]?.toLowerCase();
  if (!scheme) throw new BadRequest('The body member "url" must be an absolute URL (http, https or data).');
  if (scheme === 'data') return;
  if (scheme !== 'http' && scheme !== 'https') throw new BadRequest(`The import URL must use http, https or data; "${scheme}" is not supported.`);
  try {
    new URL(url);
  } catch {
    throw new BadRequest('The body member "url" is not a valid URL.');
  }
}

/** Downloads the source of an import, whatever its scheme. */
export async function readSource(url: string, env: ImportEnvironment, accept?: string): Promise<SourceFile> {
  checkImportUrl(url);
  if (/^data:/i.test(url)) return readDataUrl(url, env.limits.maxDownloadBytes);
  const download = await safeFetch(url, {
    allowPrivate: env.allowPrivate,
    maxBytes: env.limits.maxDownloadBytes,
    maxRedirects: env.limits.maxRedirects,
    signal: env.signal,
    resolver: env.resolver,
    accept,
  });
  const last = new URL(download.url).pathname.split('/').filter(Boolean).pop() ?? '';
  return { ...download, name: safeDecode(last) };
}

/** Text of downloaded bytes: UTF-8 unless the header names another charset Node knows. */
export function decodeText(file: Pick<Download, 'bytes' | 'contentTypeHeader'>): string {
  const charset = /charset="?([\w-]+)/i.exec(file.contentTypeHeader)?.[1]?.toLowerCase();
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(file.bytes);
  } catch {
    return new TextDecoder('utf-8').decode(file.bytes);
  }
}
