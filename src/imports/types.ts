import type { PageFields } from '../content/nodes.ts';
import type { BlobStore } from '../storage/blobs.ts';

/**
 * What a source becomes before anything is written: a tree of pages (Markdown as the source wrote it,
 * links still in the source's own terms) and files already in blob storage. Writing it into a revision
 * (write.ts) turns the source's links into links between the new pages and files.
 */

/** Page settings a source can give (front matter, SUMMARY.md, HTML metadata). */
export type PageSettings = Partial<Pick<PageFields, 'description' | 'icon' | 'emoji' | 'hidden' | 'layout' | 'noIndex' | 'noRobotsIndex'>>;

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
  pages: ImportedPage[];
}

export interface ImportedAsset {
  key: string;
  name: string;
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
  /** What the source held that was not imported (unreferenced entries, pages past the crawl bounds …). */
  skipped: number;
  /** Resolves a reference written in the page `from` to a key of the import; undefined leaves it as written. */
  resolve(from: ImportedPage, reference: string): Reference | undefined;
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

  async add(key: string, name: string, bytes: Buffer, contentType?: string): Promise<ImportedAsset> {
    const existing = this.byKey.get(key);
    if (existing) return existing;
    const { hash, size } = await this.blobs.put(bytes);
    const asset: ImportedAsset = { key, name: name || 'file', contentType: contentType || contentTypeOf(name), blob: hash, size };
    this.assets.push(asset);
    this.byKey.set(key, asset);
    return asset;
  }
}
