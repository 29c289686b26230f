/**
 * The JSON document model of a page body, as the public client's OpenAPI document describes it
 * (`JSONDocument`, `DocumentBlock*`, `DocumentInline*`, `DocumentText*`, `DocumentMark*`), written out by
 * hand. Blocks and inlines that this library has no Markdown syntax for are typed as opaque nodes: they
 * are carried through unchanged (see opaque.ts), never interpreted.
 */
import type { DocumentBlock, DocumentFragment } from './types-blocks.ts';

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

// ── Marks and text ───────────────────────────────────────────────────────────────────────────────

export type MarkColor = 'default' | 'green' | 'blue' | 'red' | 'orange' | 'yellow' | 'purple' | '$primary' | '$info' | '$success' | '$warning' | '$danger';
export type SimpleMarkType = 'bold' | 'italic' | 'code' | 'keyboard' | 'strikethrough' | 'superscript' | 'subscript';

export interface DocumentSimpleMark {
  object: 'mark';
  type: SimpleMarkType;
}
export interface DocumentColorMark {
  object: 'mark';
  type: 'color';
  data: { text: MarkColor; background: MarkColor };
}
export type DocumentMark = DocumentSimpleMark | DocumentColorMark;

export interface DocumentLeaf {
  object: 'leaf';
  text: string;
  marks: DocumentMark[];
}
export interface DocumentText {
  object: 'text';
  key?: string;
  leaves: DocumentLeaf[];
}

// ── References ───────────────────────────────────────────────────────────────────────────────────

export interface ContentRefFile { kind: 'file'; file: string }
export interface ContentRefURL { kind: 'url'; url: string }
export interface ContentRefPage { kind: 'page'; page: string; space?: string }
export interface ContentRefAnchor { kind: 'anchor'; anchor: string; space?: string; page?: string }
export interface ContentRefUser { kind: 'user'; user: string }
export interface ContentRefCollection { kind: 'collection'; collection: string }
export interface ContentRefSpace { kind: 'space'; space: string }
export interface ContentRefReusableContent { kind: 'reusable-content'; reusableContent: string; space?: string }
export interface ContentRefOpenAPI { kind: 'openapi'; spec: string }
export type ContentRef =
  | ContentRefFile
  | ContentRefURL
  | ContentRefPage
  | ContentRefAnchor
  | ContentRefUser
  | ContentRefCollection
  | ContentRefSpace
  | ContentRefReusableContent
  | ContentRefOpenAPI;
/** What an image may point at: a URL or one of the space's files. */
export type ImageRef = ContentRefURL | ContentRefFile;

/** A size: pixels, or a value with a unit (`{ unit: '%', value: 50 }`). */
export type Length = number | { unit: string; value: number };

// ── Inlines ──────────────────────────────────────────────────────────────────────────────────────

export interface DocumentInlineImage {
  object: 'inline';
  type: 'inline-image';
  key?: string;
  data: { ref: ImageRef; refDark?: ImageRef; caption?: string; size?: 'original' | 'line' };
  isVoid: true;
}
export interface DocumentInlineLink {
  object: 'inline';
  type: 'link';
  key?: string;
  data: { ref: ContentRef };
  nodes: Array<DocumentText | DocumentInlineImage>;
  isVoid?: false;
}
export interface DocumentInlineMath {
  object: 'inline';
  type: 'inline-math';
  key?: string;
  data: { formula: string };
  isVoid: true;
}
export interface DocumentInlineEmoji {
  object: 'inline';
  type: 'emoji';
  key?: string;
  /** The emoji's code points in hex, joined with "-" (GitBook's `data-code`, e.g. "1f44b"). */
  data: { code: string };
  isVoid: true;
}
/** A Font Awesome icon by name (`book`, from `<i class="fa-book">`). */
export interface DocumentInlineIcon {
  object: 'inline';
  type: 'icon';
  key?: string;
  data: { icon: string };
  isVoid: true;
}
export interface DocumentInlineExpression {
  object: 'inline';
  type: 'expression';
  key?: string;
  data: { expression: string };
  isVoid: true;
}
/** A link to a page, a user or another piece of content, shown with the target's own title. */
export interface DocumentInlineMention {
  object: 'inline';
  type: 'mention';
  key?: string;
  data: { ref: ContentRef };
  isVoid: true;
}
export interface DocumentInlineButton {
  object: 'inline';
  type: 'button';
  key?: string;
  /** `action` (GitBook's newer buttons that ask the assistant or search, `<button data-action>`) has an empty URL `ref`. */
  data: { ref: ContentRef; label: string; kind: 'primary' | 'secondary'; icon?: string; action?: { action: string; query?: string } };
  isVoid: true;
}
/** Annotated text and the note it carries (a footnote in Markdown). */
export interface DocumentInlineAnnotation {
  object: 'inline';
  type: 'annotation';
  key?: string;
  data: Record<string, never>;
  nodes: DocumentText[];
  fragments: DocumentFragment[];
  isVoid: false;
}
export type OpaqueInlineType = never;
/** An inline carried as it came (kept for documents written elsewhere). */
export interface DocumentInlineOpaque {
  object: 'inline';
  type: OpaqueInlineType;
  [field: string]: JsonValue | undefined;
}
export type DocumentInline =
  | DocumentInlineLink
  | DocumentInlineImage
  | DocumentInlineMath
  | DocumentInlineEmoji
  | DocumentInlineIcon
  | DocumentInlineExpression
  | DocumentInlineMention
  | DocumentInlineButton
  | DocumentInlineAnnotation;
/** The content of a paragraph or a heading. */
export type InlineContent = DocumentText | DocumentInline;

// ── Blocks: types-blocks.ts ──────────────────────────────────────────────────────────────────────

export type * from './types-blocks.ts';

/** A page body: the client's `JSONDocument`. */
export interface Document {
  object: 'document';
  data: { schemaVersion?: number; [key: string]: JsonValue | undefined };
  nodes: DocumentBlock[];
}

// ── Front matter ─────────────────────────────────────────────────────────────────────────────────

/** A page's front matter: the settings Quire reads, and every other key kept as it was written. */
export interface Frontmatter {
  description?: string;
  icon?: string;
  layout?: JsonValue;
  hidden?: boolean;
  [key: string]: JsonValue | undefined;
}

/** What `parseMarkdown` gives: the page's document and its front matter. */
export interface ParsedPage {
  document: Document;
  frontmatter: Frontmatter;
}
