import type { Context } from '../context.ts';
import { inTransaction } from '../context.ts';
import { BadRequest } from '../errors.ts';
import type { Resolver } from '../net/addresses.ts';
import { importDocx } from './docx.ts';
import { importFileSet } from './fileset.ts';
import { Deadline, DEFAULT_LIMITS, type ImportLimits } from './limits.ts';
import { readMarkdownPage } from './conversions.ts';
import { titleFromName } from './markdown.ts';
import { checkImportUrl, decodeText, readSource, type ImportEnvironment } from './source.ts';
import { AssetCollector, gitBlobOid, type ImportedContent } from './types.ts';
import { importHtml, importWebsite } from './web.ts';
import { commitImport, prepareImport, type ImportResult, type ImportTarget, type PreparedImport } from './write.ts';
import { openZip } from './zip.ts';

/**
 * Content import: a source (`url` + `source`) read into pages and files (nothing written to the database),
 * then written as one new revision over a base revision. `importInto` targets any revision line and moves
 * no pointer: the space service moves the space's current revision; a change request would move its own.
 */

export const IMPORT_SOURCES = ['website', 'docx', 'markdown', 'html', 'zip', 'confluence', 'github-wiki', 'notion', 'google-docs'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];
export const SUPPORTED_SOURCES: readonly ImportSource[] = ['markdown', 'zip', 'html', 'website', 'docx'];

export interface ImportRequest {
  url: string;
  source: ImportSource;
}

export interface LoadOptions {
  limits?: ImportLimits;
  /** Overrides the configuration (QUIRE_IMPORT_ALLOW_PRIVATE). */
  allowPrivate?: boolean;
  resolver?: Resolver;
}

export type { ImportResult, ImportTarget, PreparedImport } from './write.ts';
export { prepareImport } from './write.ts';
export { checkImportUrl } from './source.ts';
export type { ImportedContent } from './types.ts';

/** Refuses a source that is not supported (yet), naming it and the ones that are. */
export function assertSupportedSource(source: string): asserts source is ImportSource {
  if (!SUPPORTED_SOURCES.includes(source as ImportSource)) {
    throw new BadRequest(`Importing from "${source}" is not supported yet. The supported sources are: ${SUPPORTED_SOURCES.join(', ')}.`);
  }
}

async function load(request: ImportRequest, assets: AssetCollector, env: ImportEnvironment): Promise<ImportedContent> {
  switch (request.source) {
    case 'markdown': {
      const file = await readSource(request.url, env, 'text/markdown, text/plain;q=0.9, */*;q=0.5');
      if (file.bytes.subarray(0, 8192).includes(0)) throw new BadRequest('The source is not a Markdown text file (it holds binary data); use the "zip" or "docx" source for archives and documents.');
      const name = file.name || 'the Markdown file';
      const text = decodeText(file);
      // Read once now (on a worker when it is large), so that a page beyond the bounds of a page
      // (src/content/markdown/limits.ts) is refused here rather than stored and refused every time it is read.
      const options = { key: 'markdown:page', fallbackTitle: file.name ? titleFromName(file.name) : 'Imported page', name };
      const page = await readMarkdownPage(text, options, file.name ? `the Markdown of "${file.name}"` : 'the Markdown file', env.signal);
      // Kept as written, like a page of a folder (nothing to rewrite: a lone file links to nothing imported).
      page.file = { path: /\.(md|markdown)$/i.test(file.name ?? '') ? file.name! : 'README.md', oid: gitBlobOid(text) };
      return { pages: [page], assets: [], skipped: 0, resolve: () => undefined };
    }
    case 'zip': {
      const file = await readSource(request.url, env, 'application/zip, */*;q=0.5');
      return importFileSet(await openZip(file.bytes, env.limits), { assets, env });
    }
    case 'html':
      return boundedNesting(() => importHtml(request.url, assets, env));
    case 'website':
      return boundedNesting(() => importWebsite(request.url, assets, env));
    case 'docx': {
      const file = await readSource(request.url, env);
      return importDocx(file, assets, env);
    }
    default:
      throw new BadRequest(`Importing from "${request.source}" is not supported yet.`);
  }
}

/**
 * Reads a source into imported content: pages in memory, files already in blob storage (files stored by an
 * import that then fails are orphans, harmless: blobs are shared by hash and nothing refers to them).
 * Bounded by the limits (time included); touches no database row.
 */
export async function loadImport(ctx: Pick<Context, 'config' | 'blobs'>, request: ImportRequest, options: LoadOptions = {}): Promise<ImportedContent> {
  assertSupportedSource(request.source);
  checkImportUrl(request.url);
  const limits = options.limits ?? DEFAULT_LIMITS;
  const deadline = new Deadline(limits.timeoutMs);
  const env: ImportEnvironment = { limits, signal: deadline.signal, allowPrivate: options.allowPrivate ?? ctx.config.importAllowPrivate, resolver: options.resolver, workers: ctx.config.workers };
  try {
    const content = await load(request, new AssetCollector(ctx.blobs), env);
    deadline.check();
    return content;
  } catch (error) {
    if (deadline.expired && !(error instanceof BadRequest)) throw deadline.error();
    throw error;
  } finally {
    deadline.dispose();
  }
}

export type ImportInput = ImportTarget & (ImportRequest | { content: ImportedContent } | { prepared: PreparedImport });

/**
 * Imports into any revision line: reads the source (unless it was read already: `content` from
 * `loadImport`, or `prepared` from `prepareImport`) and writes one new revision over `baseRevisionId`;
 * moves no space or change request pointer. With `url` and `source`, call it outside a transaction
 * (nothing is held open while fetching). A `prepared` import made over another base is laid again over
 * `baseRevisionId`, so preparing before the transaction and committing inside it is always safe.
 */
export async function importInto(ctx: Context, input: ImportInput, options: LoadOptions = {}): Promise<ImportResult> {
  const given = 'prepared' in input ? input.prepared : undefined;
  const content = given?.content ?? ('content' in input ? input.content : await loadImport(ctx, input as ImportRequest, options));
  return inTransaction(ctx, async (tx) => {
    const reusable = given && given.baseRevisionId === input.baseRevisionId && given.underPageId === input.underPageId;
    const prepared = reusable ? given : await prepareImport(tx, content, input);
    return commitImport(tx, prepared, input.spaceId);
  });
}

/**
 * HTML nested thousands of levels deep overflows the stack of the recursive HTML tree builders before
 * any check can see the tree: that is the page's fault, answered with a 400 rather than a 500.
 */
async function boundedNesting<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      throw new BadRequest('The HTML nests its elements too deeply to import (thousands of levels); simplify the page or import its parts.');
    }
    throw error;
  }
}
