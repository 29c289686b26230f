import { refuseNul } from '../http/text-rules.ts';
import { posix } from 'node:path';
import { keptSlug } from '../content/markdown/index.ts';
import { parse as parseYaml } from 'yaml';
import { BadRequest } from '../errors.ts';
import { yamlDepth } from '../yaml-depth.ts';
import { pauseForEventLoop, runTask, workerTask } from '../workers/pool.ts';

/** Pages laid between pauses for the event loop (a summary may list tens of thousands). */
const PAUSE_EVERY = 500;
import { markdownPage, splitFrontmatter, titleFromName, type MarkdownPageOptions } from './markdown.ts';
import { readSummary, type SummaryItem } from './summary.ts';
import { gitBlobOid, type ImportedPage } from './types.ts';

/**
 * How a folder of Markdown becomes a tree of pages, as in a Git repository of documentation:
 * - `.gitbook.yaml` at the top may set `root` (the folder holding the docs) and `structure.readme` /
 *   `structure.summary` (file names relative to that root; README.md and SUMMARY.md by default);
 * - with a summary file, its lists give the pages, their titles and order, its headings the groups; the
 *   readme comes first when the summary does not list it;
 * - without one, the folders do: the readme first, then files and folders by name; a folder is a page
 *   whose body is its README.md (empty without one) and whose children are what it holds.
 */

export const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export function isMarkdown(path: string): boolean {
  return /\.(md|markdown)$/i.test(path);
}

export interface LayoutConfig {
  /** The folder of the docs inside the set ('' for the top). */
  root: string;
  readme: string;
  summary: string;
  /** `.gitbook.yaml` `redirects`: an old address (relative to the space) → the file it now leads to (relative to `root`). */
  redirects?: Record<string, string>;
}

/** A redirect's source as Quire looks it up: no leading or trailing slash, no `.md`. */
export function redirectKey(source: string): string {
  return source.trim().replace(/^\/+|\/+$/g, '').replace(/\.md$/i, '');
}

/** A relative path made clean ("./docs/" → "docs"); refused when it leaves the set. */
export function cleanPath(path: string, what: string): string {
  const clean = posix.normalize(`/${path.replace(/\\/g, '/')}`).replace(/^\/+|\/+$/g, '');
  if (path.split(/[\\/]/).includes('..')) throw new BadRequest(`${what} ("${path}") must stay inside the imported folder.`);
  return clean === '.' ? '' : clean;
}

/**
 * The bounds of `.gitbook.yaml`: it holds a few settings and the redirects of moved pages. Reading it costs
 * time in proportion to its size (the YAML parser's check for repeated keys, quadratic in their number, is
 * turned off; Quire keeps the last of repeated redirects), and the redirects are stored with the space's
 * Git sync and read by the published reader, so both are bounded, each with a refusal that says which.
 */
export const MAX_GITBOOK_YAML_CHARACTERS = 1024 * 1024;
export const MAX_REDIRECTS = 10_000;

/** Reads `.gitbook.yaml` (when there is one). */
export function readLayoutConfig(text: string | undefined): LayoutConfig {
  const config: LayoutConfig = { root: '', readme: 'README.md', summary: 'SUMMARY.md' };
  if (text === undefined) return config;
  if (text.length > MAX_GITBOOK_YAML_CHARACTERS) {
    throw new BadRequest(`.gitbook.yaml is ${Math.ceil(text.length / 1024)} KB, more than the ${MAX_GITBOOK_YAML_CHARACTERS / 1024} KB Quire reads; it holds a few settings and at most ${MAX_REDIRECTS.toLocaleString('en')} redirects.`);
  }
  refuseNul(text, '.gitbook.yaml');
  let data: unknown;
  if (yamlDepth(text) > 64) throw new BadRequest('.gitbook.yaml nests its values more than 64 deep; it holds a few settings (root, structure, redirects).');
  try {
    data = parseYaml(text, { uniqueKeys: false });
  } catch (error) {
    throw new BadRequest(`.gitbook.yaml is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (data === null || data === undefined) return config;
  if (typeof data !== 'object' || Array.isArray(data)) throw new BadRequest('.gitbook.yaml must be a YAML mapping (root, structure.readme, structure.summary).');
  const { root, structure, redirects } = data as { root?: unknown; structure?: unknown; redirects?: unknown };
  if (redirects && typeof redirects === 'object' && !Array.isArray(redirects)) {
    // GitBook's redirects: `old/address: new/file.md`. Entries that are not text, or leave the folder, are skipped.
    const entries = Object.entries(redirects as Record<string, unknown>);
    if (entries.length > MAX_REDIRECTS) {
      throw new BadRequest(`.gitbook.yaml lists ${entries.length.toLocaleString('en')} redirects, more than the ${MAX_REDIRECTS.toLocaleString('en')} Quire keeps for one space; keep the redirects of addresses readers still use.`);
    }
    const kept: Record<string, string> = {};
    for (const [source, destination] of entries) {
      if (typeof destination !== 'string' || !destination.trim() || destination.split(/[\\/]/).includes('..')) continue;
      const key = redirectKey(source);
      if (key) kept[key] = cleanPath(destination, 'A redirect of .gitbook.yaml');
    }
    if (Object.keys(kept).length > 0) config.redirects = kept;
  }
  if (root !== undefined) {
    if (typeof root !== 'string') throw new BadRequest('The "root" of .gitbook.yaml must be a folder path such as ./docs/.');
    config.root = cleanPath(root, 'The "root" of .gitbook.yaml');
  }
  if (structure && typeof structure === 'object' && !Array.isArray(structure)) {
    const { readme, summary } = structure as { readme?: unknown; summary?: unknown };
    if (typeof readme === 'string' && readme.trim()) config.readme = cleanPath(readme, 'The "structure.readme" of .gitbook.yaml');
    if (typeof summary === 'string' && summary.trim()) config.summary = cleanPath(summary, 'The "structure.summary" of .gitbook.yaml');
  }
  return config;
}

const LAYOUT_CONFIG = workerTask(import.meta.url, 'readLayoutConfig', readLayoutConfig);

/** readLayoutConfig, on a worker when the file is large (thousands of redirects), so that reading it blocks no request. */
export function readLayoutConfigOffThread(text: string | undefined, signal?: AbortSignal): Promise<LayoutConfig> {
  if (text === undefined) return Promise.resolve(readLayoutConfig(undefined));
  return runTask(LAYOUT_CONFIG, text, { size: text.length, what: '.gitbook.yaml', signal });
}

/** What the layout reads: the Markdown files of the docs folder, by path relative to it. */
export interface LayoutSource {
  markdown: Set<string>;
  text(path: string): Promise<string>;
  /** The import's deadline, for the steps that run on the worker pool. */
  signal?: AbortSignal;
  /** Called with each page made from a file, as soon as it is made (its body is final), so that its reading can start. */
  onPage?: (page: ImportedPage) => void;
}

/**
 * A page read from a Markdown file of the folder: it remembers the file (its path and Git blob id, so the
 * body's relative links keep resolving and Git Sync knows where it lives) and takes its slug from the
 * file's name, as GitBook does (`guides/import.md` is `import`, `guides/README.md` is `guides`), so the
 * published addresses stay the ones readers know.
 */
function filePage(source: LayoutSource, text: string, path: string, options: Omit<MarkdownPageOptions, 'key' | 'name'>): ImportedPage {
  const page = markdownPage(text, { ...options, key: path, name: path });
  page.file = { path, oid: gitBlobOid(text) };
  const parts = path.split('/');
  const name = parts[parts.length - 1].replace(/\.(md|markdown)$/i, '');
  // The top README's children live in `readme/` (GitBook writes them there), so its slug is `readme`.
  const slug = name.toLowerCase() === 'readme' ? (parts[parts.length - 2] ?? 'readme') : name;
  if (slug) page.settings = { ...page.settings, slug };
  source.onPage?.(page);
  return page;
}

function emptyPage(key: string, title: string, pages: ImportedPage[] = []): ImportedPage {
  return { key, type: 'document', title: title.slice(0, 255) || 'Untitled', pages };
}

/**
 * Which entry of a summary holds each Markdown file that several entries name (GitBook writes a link page
 * to a page of the space as that page's path, so the path appears twice: decision 0111). The owner is the
 * first entry without an anchor that has sub-entries (a link page has none), else the first whose title is
 * the file's own heading (a page's file starts with its title), else the first without an anchor, else the
 * first. Files named once are not in the map.
 */
async function fileOwners(groups: { items: SummaryItem[] }[], pathOf: (href: string | undefined) => string | undefined, source: LayoutSource): Promise<Map<string, SummaryItem>> {
  const mentions = new Map<string, SummaryItem[]>();
  const walk = (list: SummaryItem[]) => {
    for (const item of list) {
      const path = pathOf(item.href);
      if (path !== undefined && source.markdown.has(path)) {
        const seen = mentions.get(path);
        if (seen) seen.push(item);
        else mentions.set(path, [item]);
      }
      walk(item.items);
    }
  };
  for (const group of groups) walk(group.items);
  const owners = new Map<string, SummaryItem>();
  for (const [path, items] of mentions) {
    if (items.length < 2) continue;
    const plain = items.filter((item) => !item.href!.includes('#'));
    let heading: string | undefined;
    try {
      heading = /^#[ \t]+(.+?)[ \t#]*$/m.exec(splitFrontmatter(await source.text(path), path).body)?.[1];
    } catch {
      heading = undefined;
    }
    const owner = plain.find((item) => item.items.length > 0) ?? plain.find((item) => heading !== undefined && item.title.trim() === heading.trim()) ?? plain[0] ?? items[0];
    owners.set(path, owner);
  }
  return owners;
}

/** The pages a summary file gives; `used` collects the Markdown files they read. */
export async function pagesFromSummary(summaryPath: string, config: LayoutConfig, source: LayoutSource, used: Set<string>): Promise<ImportedPage[]> {
  const folder = posix.dirname(summaryPath) === '.' ? '' : posix.dirname(summaryPath);
  const groups = await readSummary(await source.text(summaryPath), `the summary "${summaryPath}"`, source.signal);
  const pathOf = (href: string | undefined): string | undefined => {
    if (!href || SCHEME.test(href)) return undefined;
    try {
      return cleanPath(posix.join(folder, decodeURIComponent(href.split('#')[0])), 'A summary entry');
    } catch {
      return undefined;
    }
  };
  const owners = await fileOwners(groups, pathOf, source);
  let counter = 0;
  // In reading order (a page before its children), so the first mention of a file is the one that gets it.
  const page = async (item: SummaryItem): Promise<ImportedPage[]> => {
    const key = `summary:${++counter}`;
    if (counter % PAUSE_EVERY === 0) await pauseForEventLoop();
    let own: ImportedPage;
    const path = pathOf(item.href);
    const owner = path === undefined ? undefined : owners.get(path);
    if (item.href && SCHEME.test(item.href)) {
      own = { key, type: 'link', title: item.title.slice(0, 255), href: item.href, pages: [] };
    } else if (path && owner && owner !== item && source.markdown.has(path)) {
      // Another entry of the summary holds this file: this one is a link to that page (decision 0111).
      const anchor = item.href!.includes('#') ? decodeURIComponent(item.href!.slice(item.href!.indexOf('#') + 1)) : '';
      own = { key, type: 'link', title: item.title.slice(0, 255), linkTo: { key: path, ...(anchor ? { anchor } : {}) }, pages: [] };
    } else if (path && source.markdown.has(path) && !used.has(path)) {
      used.add(path);
      own = filePage(source, await source.text(path), path, { title: item.title, fallbackTitle: item.title });
    } else {
      own = emptyPage(path && !used.has(path) && !source.markdown.has(path) ? path : key, item.title);
    }
    const children = await items(item.items);
    // A link page has no children: an external link's sub-items follow it.
    if (own.type === 'link') return [own, ...children];
    own.pages = children;
    return [own];
  };
  const items = async (list: SummaryItem[]): Promise<ImportedPage[]> => {
    const pages: ImportedPage[] = [];
    for (const item of list) pages.push(...(await page(item)));
    return pages;
  };
  const pages: ImportedPage[] = [];
  for (const group of groups) {
    const children = await items(group.items);
    if (group.title === undefined) pages.push(...children);
    // A group's slug is its heading's anchor, else its title as GitBook slugs it (dots kept: the group
    // "Use Rocket.Chat" is the folder and the address `use-rocket.chat`).
    else pages.push({ key: `group:${++counter}`, type: 'group', title: group.title.slice(0, 255), settings: { slug: group.anchor ?? keptSlug(group.title) }, pages: children });
  }
  if (source.markdown.has(config.readme) && !used.has(config.readme)) {
    used.add(config.readme);
    pages.unshift(filePage(source, await source.text(config.readme), config.readme, { fallbackTitle: 'Introduction' }));
  }
  return pages;
}

const byName = (a: string, b: string) => a.replace(/\.(md|markdown)$/i, '').localeCompare(b.replace(/\.(md|markdown)$/i, ''), 'en', { numeric: true, sensitivity: 'base' }) || (a < b ? -1 : 1);

/** The pages the folders give (no summary file); `used` collects the Markdown files they read. */
export async function pagesFromFolders(config: LayoutConfig, source: LayoutSource, used: Set<string>): Promise<ImportedPage[]> {
  const folders = new Map<string, { files: string[]; folders: Set<string> }>();
  const folderOf = (path: string) => {
    let entry = folders.get(path);
    if (!entry) folders.set(path, (entry = { files: [], folders: new Set() }));
    return entry;
  };
  for (const path of source.markdown) {
    const parts = path.split('/');
    // Hidden folders (.gitbook with its includes, .github) hold no pages.
    if (parts.slice(0, -1).some((part) => part.startsWith('.'))) continue;
    folderOf(parts.slice(0, -1).join('/')).files.push(path);
    for (let depth = 1; depth < parts.length; depth++) folderOf(parts.slice(0, depth - 1).join('/')).folders.add(parts.slice(0, depth).join('/'));
  }
  const readmeOf = (folder: string, files: string[]) => files.find((file) => posix.basename(file).toLowerCase() === 'readme.md' && posix.dirname(file) === (folder || '.'));
  let read = 0;
  const file = async (path: string) => {
    used.add(path);
    if (++read % PAUSE_EVERY === 0) await pauseForEventLoop();
    return filePage(source, await source.text(path), path, { fallbackTitle: titleFromName(posix.basename(path)) });
  };
  const children = async (folder: string): Promise<ImportedPage[]> => {
    const entry = folderOf(folder);
    const readme = folder === '' ? (source.markdown.has(config.readme) ? config.readme : undefined) : readmeOf(folder, entry.files);
    const names = [...entry.files.filter((path) => path !== readme), ...entry.folders].sort((a, b) => byName(posix.basename(a), posix.basename(b)));
    const pages: ImportedPage[] = [];
    for (const name of names) {
      if (!entry.folders.has(name)) {
        pages.push(await file(name));
        continue;
      }
      const inner = folderOf(name);
      const innerReadme = readmeOf(name, inner.files);
      const page = innerReadme
        ? filePage(source, await source.text(innerReadme), innerReadme, { fallbackTitle: titleFromName(posix.basename(name)) })
        : emptyPage(`${name}/`, titleFromName(posix.basename(name)));
      if (innerReadme) used.add(innerReadme);
      page.pages = await children(name);
      pages.push(page);
    }
    return pages;
  };
  const top = await children('');
  if (source.markdown.has(config.readme)) {
    used.add(config.readme);
    top.unshift(filePage(source, await source.text(config.readme), config.readme, { fallbackTitle: 'Introduction' }));
  }
  return top;
}
