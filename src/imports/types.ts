import { createHash } from 'node:crypto';
import type { PageFields } from '../content/nodes.ts';
import type { BlobStore } from '../storage/blobs.ts';

/**
 * What a source becomes before anything is written: a tree of pages (Markdown as the source wrote it,
 * links still in the source's own terms) and files already in blob storage. Writing it into a revision
 * (write.ts) turns the source's links into links between the new pages and files.
 */

/** Page settings a source can give (front matter, SUMMARY.md, HTML metadata). */
export type PageSettings = Partial<Pick<PageFields, 'description' | 'icon' | 'emoji' | 'hidden' | 'layout' | 'noIndex' | 'noRobotsIndex' | 'slug'>>;

/** A file of the folder an import read, by its path in that folder and its Git blob id. */
export interface SourceFile {
  path: string;
  oid: string;
}

export interface ImportedPage {
  /** What the source calls this page (an archive path, a URL …): the key links resolve to. */
  key: string;
  title: string;
  type: 'document' | 'group' | 'link';
  /** The body, in Markdown, with links and images as the source wrote them. */
  markdown?: string;
  settings?: PageSettings;
  /** Link pages: the URL they point at. */
  href?: string;
  /** Link pages to a page of the same import: that page's key, and the heading's anchor for a link to a heading. */
  linkTo?: { key: string; anchor?: string };
  /** The Markdown file the page was read from, when the source is a folder: its body is kept as written. */
  file?: SourceFile;
  pages: ImportedPage[];
}

/** A reusable content (`.gitbook/includes/<name>.md`): its id is the file's name without `.md`. */
export interface ImportedReusableContent {
  id: string;
  title: string;
  markdown: string;
  file: SourceFile;
}

export interface ImportedAsset {
  key: string;
  name: string;
  /** Where the file was in the folder an import read. */
  file?: SourceFile;
  contentType: string;
  /** SHA-256 of the bytes, already in blob storage. */
  blob: string;
  size: number;
}

/** A link or image reference resolved to the key of a page or a file of the import. */
export interface Reference {
  key: string;
  anchor?: string;
}

export interface ImportedContent {
  pages: ImportedPage[];
  assets: ImportedAsset[];
  /** Reusable contents a folder holds (`.gitbook/includes`). */
  reusableContents?: ImportedReusableContent[];
  /** What the source held that was not imported (unreferenced entries, pages past the crawl bounds …). */
  skipped: number;
  /** For a folder or an archive: the files it held that were not imported (no page uses them), and their size. */
  leftOut?: { files: string[]; bytes: number };
  /** Resolves a reference written in the page `from` to a key of the import; undefined leaves it as written. */
  resolve(from: ImportedPage, reference: string): Reference | undefined;
}

/** Git's id of a blob: the SHA-1 of `blob <size>\0` and the bytes (what `git hash-object` prints). */
export function gitBlobOid(bytes: Buffer | string): string {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  return createHash('sha1').update(`blob ${buffer.length}\0`).update(buffer).digest('hex');
}

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', svg: 'image/svg+xml', webp: 'image/webp',
  avif: 'image/avif', ico: 'image/x-icon', bmp: 'image/bmp', tif: 'image/tiff', tiff: 'image/tiff',
  pdf: 'application/pdf', txt: 'text/plain', csv: 'text/csv', json: 'application/json', yaml: 'application/yaml',
  yml: 'application/yaml', xml: 'application/xml', zip: 'application/zip', mp4: 'video/mp4', webm: 'video/webm',
  mov: 'video/quicktime', mp3: 'audio/mpeg', wav: 'audio/wav', ogg: 'audio/ogg', html: 'text/html', htm: 'text/html',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

const EXTENSIONS: Record<string, string> = Object.fromEntries(
  Object.entries(CONTENT_TYPES).reverse().map(([extension, type]) => [type, extension]),
);

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The media type of a file by its name; `fallback` (or application/octet-stream) when unknown. */
export function contentTypeOf(name: string, fallback?: string): string {
  return CONTENT_TYPES[extensionOf(name)] ?? (fallback || 'application/octet-stream');
}

/** A file extension for a media type (for images that come without a name). */
export function extensionFor(contentType: string): string {
  return EXTENSIONS[contentType.toLowerCase()] ?? 'bin';
}

/** Collects the files of an import: each stored in blob storage once, by key. */
export class AssetCollector {
  readonly assets: ImportedAsset[] = [];
  private readonly byKey = new Map<string, ImportedAsset>();

  constructor(private readonly blobs: BlobStore) {}

  get(key: string): ImportedAsset | undefined {
    return this.byKey.get(key);
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  async add(key: string, name: string, bytes: Buffer, contentType?: string, path?: string): Promise<ImportedAsset> {
    const existing = this.byKey.get(key);
    if (existing) return existing;
    const { hash, size } = await this.blobs.put(bytes);
    const asset: ImportedAsset = { key, name: name || 'file', contentType: contentType || contentTypeOf(name), blob: hash, size };
    if (path !== undefined) asset.file = { path, oid: gitBlobOid(bytes) };
    this.assets.push(asset);
    this.byKey.set(key, asset);
    return asset;
  }
}
