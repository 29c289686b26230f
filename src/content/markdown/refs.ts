/**
 * How `src` and `href` values of the Markdown map to the references of the document, and back. The
 * content store passes hooks to resolve paths to its files and pages; without them, `files/<id>` stands
 * for a file and everything else stays a URL.
 */
import type { ContentRef, ContentRefFile, ContentRefReusableContent, ImageRef } from './types.ts';

/** How a reference was written: a link's URL, an image's source, a file block's source. */
export type WrittenVia = 'link' | 'image' | 'file';

export interface ParseOptions {
  /** Maps an image or file `src` (`assets/x.png`, `files/abc`) to the id of one of the space's files. */
  resolveFile?: (src: string) => string | undefined;
  /** Maps a link or content-reference URL (a page path, `#anchor`, …) to a reference; undefined falls back to the defaults. */
  resolveLink?: (url: string) => ContentRef | undefined;
  /** Maps the path of an include (`../.gitbook/includes/setup.md`) to the id of one of the space's reusable contents. */
  resolveReusableContent?: (path: string) => string | undefined;
  /**
   * Told of every reference made from text of the page, with that text and how it was read, for readers
   * that keep what was written rather than what it resolved to (link facts). `ref` is the object the
   * document holds; undefined for a file block whose source named no file (it was given back as text).
   */
  noteWritten?: (ref: ContentRef | undefined, text: string, via: WrittenVia) => void;
}

export interface RenderOptions {
  /** The `src` written for a file of the space; `files/<id>` when undefined. */
  fileUrl?: (fileId: string) => string | undefined;
  /** The URL written for any reference (pages, anchors, files, …); the defaults below when undefined. */
  refUrl?: (ref: ContentRef) => string | undefined;
  /** The title written inside a content reference; its URL when undefined. */
  refTitle?: (ref: ContentRef) => string | undefined;
  /** The source address of an OpenAPI description by its slug, written inside OpenAPI blocks (nothing when undefined). */
  openApiSource?: (spec: string) => string | undefined;
  /** The path written in `{% include "…" %}` for a reusable content; `.gitbook/includes/<id>.md` when undefined. */
  reusableContentUrl?: (id: string) => string | undefined;
}

const FILE_PATH = /^files\/([^/?#\s]+)$/;

/** The file id a `src` stands for, if any. */
export function fileIdOf(src: string, options: ParseOptions): string | undefined {
  return options.resolveFile?.(src) ?? FILE_PATH.exec(src)?.[1];
}

/** An image source: one of the space's files when it resolves to one, else a URL. */
export function imageRefOf(src: string, options: ParseOptions): ImageRef {
  const file = fileIdOf(src, options);
  const ref: ImageRef = file === undefined ? { kind: 'url', url: src } : { kind: 'file', file };
  options.noteWritten?.(ref, src, 'image');
  return ref;
}

/** The file a `{% file src %}` block shows; undefined when `src` names none (the block is then given back as text). */
export function fileBlockRefOf(src: string, options: ParseOptions): ContentRefFile | undefined {
  const file = fileIdOf(src, options);
  const ref: ContentRefFile | undefined = file === undefined ? undefined : { kind: 'file', file };
  options.noteWritten?.(ref, src, 'file');
  return ref;
}

/**
 * The reusable content an include names: the hook's answer, else the name of the included file
 * (`.gitbook/includes/setup.md` is "setup"), which is how an imported space names its reusable contents.
 */
export function reusableContentRefOf(path: string, options: ParseOptions): ContentRefReusableContent {
  const id = options.resolveReusableContent?.(path) ?? includeNameOf(path);
  return { kind: 'reusable-content', reusableContent: id };
}

/** "../../.gitbook/includes/Setup steps.md" → "Setup steps". */
export function includeNameOf(path: string): string {
  return (path.split('/').pop() ?? path).replace(/\.md$/i, '');
}

/** The path written for an include. */
export function includeHref(id: string, options: RenderOptions): string {
  return options.reusableContentUrl?.(id) ?? `.gitbook/includes/${id}.md`;
}

/** A link target: the hook's answer, a file, an anchor of this page (`#id`), or a URL. */
export function linkRefOf(url: string, options: ParseOptions): ContentRef {
  const ref = linkTargetOf(url, options);
  options.noteWritten?.(ref, url, 'link');
  return ref;
}

/**
 * What a mention points at. A mention of a person, a space or a collection has no path in the folder
 * layout: it is written `users/<id>` (`spaces/<id>`, `collections/<id>`) by refHref below, and read back
 * as that reference, so a document's mention survives being written and read.
 */
export function mentionRefOf(url: string, options: ParseOptions): ContentRef {
  const ref = linkRefOf(url, options);
  if (ref.kind !== 'url') return ref;
  const match = /^(users|spaces|collections)\/([^/?#\s]+)$/.exec(url);
  if (!match) return ref;
  if (match[1] === 'users') return { kind: 'user', user: match[2] };
  if (match[1] === 'spaces') return { kind: 'space', space: match[2] };
  return { kind: 'collection', collection: match[2] };
}

function linkTargetOf(url: string, options: ParseOptions): ContentRef {
  const resolved = options.resolveLink?.(url);
  if (resolved) return resolved;
  const file = fileIdOf(url, options);
  if (file !== undefined) return { kind: 'file', file };
  if (url.startsWith('#') && url.length > 1) return { kind: 'anchor', anchor: url.slice(1) };
  return { kind: 'url', url };
}

/** The URL written for a file. */
export function fileHref(fileId: string, options: RenderOptions): string {
  return options.fileUrl?.(fileId) ?? `files/${fileId}`;
}

/** The URL written for a reference. */
export function refHref(ref: ContentRef, options: RenderOptions): string {
  const hooked = options.refUrl?.(ref);
  if (hooked !== undefined) return hooked;
  switch (ref.kind) {
    case 'url':
      return ref.url;
    case 'file':
      return fileHref(ref.file, options);
    case 'anchor':
      return ref.page ? `pages/${ref.page}#${ref.anchor}` : `#${ref.anchor}`;
    case 'page':
      return `pages/${ref.page}`;
    case 'space':
      return `spaces/${ref.space}`;
    case 'collection':
      return `collections/${ref.collection}`;
    case 'user':
      return `users/${ref.user}`;
    case 'reusable-content':
      return `reusable-content/${ref.reusableContent}`;
    case 'openapi':
      return `openapi/${ref.spec}`;
  }
}

/** The URL written for an image source. */
export function imageHref(ref: ImageRef, options: RenderOptions): string {
  return ref.kind === 'file' ? fileHref(ref.file, options) : ref.url;
}
