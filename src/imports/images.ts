import { posix } from 'node:path';
import { BadRequest } from '../errors.ts';
import { timeUp } from './limits.ts';
import { safeFetch } from '../net/fetch.ts';
import { readDataUrl, type ImportEnvironment } from './source.ts';
import { contentTypeOf, extensionFor, type AssetCollector } from './types.ts';

/**
 * Images of converted pages become files of the space: each is downloaded through the same safe fetcher
 * as the page (the same address checks, size and time limits), at most `maxImages` per import. An image
 * that cannot be had (refused address, not found, not an image, too large) stays a link to its address
 * and is counted as skipped; only running out of time stops the import.
 */
export async function collectImages(sources: string[], assets: AssetCollector, env: ImportEnvironment): Promise<{ skipped: number }> {
  let skipped = 0;
  let count = 0;
  for (const source of new Set(sources)) {
    if (assets.has(source)) continue;
    if (env.signal.aborted) throw timeUp(env.limits);
    if (count >= env.limits.maxImages) {
      skipped++;
      continue;
    }
    count++;
    try {
      if (source.startsWith('data:')) {
        const image = readDataUrl(source, env.limits.maxDownloadBytes);
        if (!image.contentType.startsWith('image/')) throw new BadRequest('not an image');
        await assets.add(source, `image-${count}.${extensionFor(image.contentType)}`, image.bytes, image.contentType);
        continue;
      }
      const download = await safeFetch(source, {
        allowPrivate: env.allowPrivate,
        maxBytes: env.limits.maxDownloadBytes,
        maxRedirects: env.limits.maxRedirects,
        signal: env.signal,
        resolver: env.resolver,
        accept: 'image/*',
      });
      const name = decodeName(posix.basename(new URL(download.url).pathname)) || `image-${count}`;
      const type = download.contentType.startsWith('image/') ? download.contentType : contentTypeOf(name, '');
      if (!type.startsWith('image/')) throw new BadRequest('not an image');
      await assets.add(source, /\.[a-z0-9]+$/i.test(name) ? name : `${name}.${extensionFor(type)}`, download.bytes, type);
    } catch (error) {
      if (env.signal.aborted) throw timeUp(env.limits);
      if (!(error instanceof BadRequest)) throw error;
      skipped++;
    }
  }
  return { skipped };
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}
