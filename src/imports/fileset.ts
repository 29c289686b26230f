import { MARKDOWN_LIMITS } from '../content/markdown/limits.ts';
import { refuseNul } from '../http/text-rules.ts';
import { posix } from 'node:path';
import { BadRequest, PayloadTooLarge } from '../errors.ts';
import { megabytes, timeUp } from './limits.ts';
import { cleanPath, isMarkdown, pagesFromFolders, pagesFromSummary, readLayoutConfigOffThread, SCHEME } from './layout.ts';
import type { ImportEnvironment } from './source.ts';
import { gitBlobOid, type AssetCollector, type ImportedContent, type ImportedPage, type ImportedReusableContent, type Reference } from './types.ts';
import { ReferenceReader, readReferences, warmReaders } from './conversions.ts';
import { defaultWorkerThreads } from '../config.ts';
import { MIN_BATCH_SIZE, pauseForEventLoop } from '../workers/pool.ts';
import { markdownPage, titleFromName } from './markdown.ts';
import { includeNameOf } from '../content/markdown/refs.ts';
import type { FileSet } from './zip.ts';

/**
 * The longest Markdown file read as a page: a page holds at most MARKDOWN_LIMITS.maxLength characters of
 * body, and its front matter (a few settings) is allowed 64 K characters more.
 */
const MAX_FILE_CHARACTERS = MARKDOWN_LIMITS.maxLength + 64 * 1024;

function tooLong(path: string, size: number, unit: string): PayloadTooLarge {
  return new PayloadTooLarge(`The file "${path}" is ${size.toLocaleString('en-US')} ${unit} long; a page holds at most ${MARKDOWN_LIMITS.maxLength.toLocaleString('en-US')} characters. Split it into several pages.`);
}

/**
 * A folder of Markdown and assets (a zip archive, or a folder on disk) as imported content: the tree comes
 * from layout.ts; links between the Markdown files resolve to the pages; every file a page refers to (an
 * image, a download) becomes a file of the space. Files no page refers to, and Markdown files the layout
 * leaves out, are counted as skipped.
 */

export interface FileSetOptions {
  assets: AssetCollector;
  env: ImportEnvironment;
  /** Called as files are read: how many of how many. */
  onProgress?: (done: number, total: number) => void;
}

/** Files that are never content: the bookkeeping of operating systems, version control and package managers. */
export function isJunk(path: string): boolean {
  return path.split('/').some((part) => part === '__MACOSX' || part === '.git' || part === 'node_modules' || part === '.DS_Store' || part === 'Thumbs.db');
}

/**
 * A top folder that holds everything (as in most archives of a folder, or a repository's single folder) is
 * stepped into. Answers it as a path prefix, with its trailing slash (`docs/`), so that a path under it is
 * the prefix and the rest; '' when the files are not all in one folder. Git import uses it too.
 */
export function commonTop(paths: string[]): string {
  const tops = new Set(paths.map((path) => (path.includes('/') ? path.split('/')[0] : '')));
  if (tops.size !== 1) return '';
  const [top] = tops;
  return top ? `${top}/` : '';
}

function folderOfKey(key: string): string {
  if (key.endsWith('/')) return key.slice(0, -1);
  const folder = posix.dirname(key);
  return folder === '.' ? '' : folder;
}

function* walk(pages: ImportedPage[]): Generator<ImportedPage> {
  for (const page of pages) {
    yield page;
    yield* walk(page.pages);
  }
}

/** Pages gone through between pauses for the event loop (a summary may list 50,000). */
const PAUSE_EVERY = 1_000;

/** Every page of `pages`, as walk gives them, with a pause for the event loop every PAUSE_EVERY pages. */
async function* pacedWalk(pages: ImportedPage[]): AsyncGenerator<ImportedPage> {
  let walked = 0;
  for (const page of walk(pages)) {
    if (++walked % PAUSE_EVERY === 0) await pauseForEventLoop();
    yield page;
  }
}

export async function importFileSet(set: FileSet, options: FileSetOptions): Promise<ImportedContent> {
  const { env } = options;
  // Pages enough to be read on the worker pool: its threads start and load the Markdown reader while the
  // files are unpacked and laid out, rather than after (by the sizes the set declares; a lie costs a
  // warm-up), and the pages' references are read a batch at a time as the layout makes them.
  const markdownBytes = set.files.reduce((sum, file) => sum + (isMarkdown(file.path) && !isJunk(file.path) ? file.size : 0), 0);
  if (markdownBytes < MIN_BATCH_SIZE) return readFileSet(set, options);
  const threads = env.workers ?? defaultWorkerThreads();
  const early = new ReferenceReader(MIN_BATCH_SIZE, threads, env.signal);
  warmReaders(threads, env.signal, env.limits.timeoutMs);
  try {
    return await readFileSet(set, options, early);
  } catch (error) {
    early.stop();
    throw error;
  }
}

async function readFileSet(set: FileSet, options: FileSetOptions, early?: ReferenceReader): Promise<ImportedContent> {
  const { env, assets } = options;
  const usable = set.files.filter((file) => !isJunk(file.path));
  let skipped = set.files.length - usable.length;
  const base = commonTop(usable.map((file) => file.path));
  const configFile = usable.find((file) => file.path === `${base}.gitbook.yaml`);
  const read = async (path: string) => {
    if (env.signal.aborted) throw timeUp(env.limits);
    return set.read(path);
  };
  const config = await readLayoutConfigOffThread(configFile ? (await read(configFile.path)).toString('utf8') : undefined, env.signal);
  const prefix = base + (config.root ? `${config.root}/` : '');
  const inRoot = usable.filter((file) => file.path.startsWith(prefix) && file !== configFile);
  skipped += usable.length - inRoot.length - (configFile ? 1 : 0);
  const files = new Map(inRoot.map((file) => [file.path.slice(prefix.length), file.path]));
  const lower = new Map([...files.keys()].reverse().map((key) => [key.toLowerCase(), key]));
  const markdown = new Set([...files.keys()].filter(isMarkdown));
  if (markdown.size === 0) throw new BadRequest(`The archive holds no Markdown file${config.root ? ` under "${config.root}"` : ''}; there is nothing to import.`);

  const total = files.size;
  let done = 0;
  const progress = () => options.onProgress?.(++done, total);
  const texts = new Map<string, string>();
  const sizes = new Map(set.files.map((entry) => [entry.path, entry.size]));
  const source = {
    markdown,
    signal: env.signal,
    onPage: early && ((page: ImportedPage) => page.markdown && early.add({ markdown: page.markdown, name: page.file?.path ?? page.key })),
    text: async (path: string) => {
      let text = texts.get(path);
      if (text === undefined) {
        const file = files.get(path)!;
        // Refused as soon as one file is too long for a page, before it (or the next ones) is held: an
        // archive of 500 pages of 1 MB once materialized them all before the first refusal.
        // The summary is a table of contents, not a page: its length is not a page's.
        const page = path !== config.summary;
        const size = sizes.get(file);
        if (page && size !== undefined && size > 4 * MAX_FILE_CHARACTERS) throw tooLong(path, size, 'bytes');
        text = (await read(file)).toString('utf8');
        if (page && text.length > MAX_FILE_CHARACTERS) throw tooLong(path, text.length, 'characters');
        refuseNul(text, `the file "${path}"`);
        texts.set(path, text);
        progress();
      }
      return text;
    },
  };
  const used = new Set<string>();
  const summary = markdown.has(config.summary) ? config.summary : undefined;
  const pages = summary ? await pagesFromSummary(summary, config, source, used) : await pagesFromFolders(config, source, used);
  if (summary) used.add(summary);
  skipped += [...markdown].filter((path) => !used.has(path)).length;

  const pageKeys = new Map<string, string>();
  for await (const page of pacedWalk(pages)) if (!pageKeys.has(page.key.toLowerCase())) pageKeys.set(page.key.toLowerCase(), page.key);
  const find = (path: string): string | undefined => {
    const candidates = path === '' ? [config.readme] : path.endsWith('/') ? [`${path}README.md`, path] : [path, `${path}/README.md`, `${path}/`, `${path}.md`];
    for (const candidate of candidates) {
      const key = pageKeys.get(candidate.toLowerCase()) ?? (isMarkdown(candidate) ? undefined : lower.get(candidate.toLowerCase()));
      if (key) return key;
    }
    return undefined;
  };
  const resolve = (from: ImportedPage, reference: string): Reference | undefined => {
    if (!reference || SCHEME.test(reference) || reference.startsWith('#') || reference.startsWith('//')) return undefined;
    const [location, anchor] = reference.split('#', 2);
    let decoded: string;
    try {
      decoded = decodeURIComponent(location.split('?')[0]);
      const joined = decoded.startsWith('/') ? decoded : posix.join(folderOfKey(from.key), decoded);
      decoded = cleanPath(joined, 'A link') + (decoded.endsWith('/') && joined !== '/' ? '/' : '');
    } catch {
      return undefined;
    }
    const key = find(decoded === '/' ? '' : decoded);
    return key ? { key, ...(anchor ? { anchor } : {}) } : undefined;
  };

  // Reusable contents: `.gitbook/includes/<name>.md`, read whether a page includes them or not.
  const reusableContents: ImportedReusableContent[] = [];
  for (const path of [...markdown].filter((key) => /^\.gitbook\/includes\/[^/]+\.md$/i.test(key)).sort()) {
    const text = await source.text(path);
    const page = markdownPage(text, { key: path, fallbackTitle: titleFromName(posix.basename(path)), name: path });
    reusableContents.push({ id: includeNameOf(path), title: page.title, markdown: page.markdown ?? '', file: { path, oid: gitBlobOid(text) } });
    used.add(path);
  }
  skipped -= reusableContents.length;

  // Files the pages and reusable contents refer to become files of the space.
  const referenced = new Set<string>();
  const includes: ImportedPage[] = reusableContents.map((content) => ({ key: content.file.path, type: 'document', title: content.title, markdown: content.markdown, pages: [] }));
  const bodies: ImportedPage[] = [];
  for await (const page of pacedWalk(pages)) if (page.markdown) bodies.push(page);
  bodies.push(...includes.filter((page) => page.markdown));
  const named = bodies.map((page) => ({ markdown: page.markdown!, name: page.file?.path ?? page.key }));
  const references = early ? await early.all(named) : await readReferences(named, env.signal);
  for (const [i, page] of bodies.entries()) {
    if (i % PAUSE_EVERY === PAUSE_EVERY - 1) await pauseForEventLoop();
    for (const reference of references[i]) {
      const found = resolve(page, reference);
      if (found && files.has(found.key) && !isMarkdown(found.key)) referenced.add(found.key);
    }
  }
  // The size limit counts what is imported (the pages and the files they use), not what the folder holds
  // beside them: a checkout full of images no page references imports its pages, as GitBook does.
  const importedBytes = [...used, ...referenced].reduce((sum, key) => sum + (sizes.get(files.get(key) ?? '') ?? 0), 0);
  if (importedBytes > env.limits.maxUnpackedBytes) {
    throw new BadRequest(`The pages and the files they use come to ${megabytes(importedBytes)}, more than the ${megabytes(env.limits.maxUnpackedBytes)} one import takes; import its parts one by one.`);
  }
  for (const key of [...referenced].sort()) {
    await assets.add(key, posix.basename(key), await read(files.get(key)!), undefined, key);
    progress();
  }
  skipped += [...files.keys()].filter((key) => !isMarkdown(key) && !referenced.has(key)).length;
  const imported = new Set([...used, ...referenced].map((key) => files.get(key)));
  const left = set.files.filter((file) => !imported.has(file.path) && file !== configFile);
  options.onProgress?.(total, total);
  return { pages, assets: assets.assets, reusableContents, skipped: Math.max(0, skipped), leftOut: { files: left.map((file) => file.path), bytes: left.reduce((sum, file) => sum + file.size, 0) }, resolve };
}
