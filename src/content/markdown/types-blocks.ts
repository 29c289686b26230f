/**
 * The blocks of the document model (`DocumentBlock*` in the client's OpenAPI document), written out by
 * hand; the rest of the model is in types.ts.
 */
import type { ContentRef, ContentRefFile, ContentRefOpenAPI, ContentRefReusableContent, ContentRefURL, DocumentInlineOpaque, DocumentText, ImageRef, InlineContent, JsonValue, Length } from './types.ts';

export type TextAlignment = 'start' | 'center' | 'end';
export type HintStyle = 'info' | 'warning' | 'danger' | 'success';
export type HeadingType = 'heading-1' | 'heading-2' | 'heading-3';

export interface DocumentFragment {
  object: 'fragment';
  key?: string;
  fragment: string;
  type?: string;
  nodes: DocumentBlock[];
}

export interface DocumentBlockParagraph {
  object: 'block';
  type: 'paragraph';
  key?: string;
  data?: { align?: TextAlignment };
  nodes: InlineContent[];
  isVoid?: false;
}
export interface DocumentBlockHeading {
  object: 'block';
  type: HeadingType;
  key?: string;
  data: { id?: string; align?: TextAlignment };
  meta?: { id: string };
  nodes: InlineContent[];
  isVoid?: false;
}
export interface DocumentBlockListItem {
  object: 'block';
  type: 'list-item';
  key?: string;
  data?: { checked?: boolean };
  nodes: DocumentBlock[];
  isVoid?: false;
}
export interface DocumentBlockListOrdered {
  object: 'block';
  type: 'list-ordered';
  key?: string;
  data: { start?: number };
  nodes: DocumentBlockListItem[];
  isVoid?: false;
}
export interface DocumentBlockListUnordered {
  object: 'block';
  type: 'list-unordered';
  key?: string;
  data?: Record<string, never>;
  nodes: DocumentBlockListItem[];
  isVoid?: false;
}
export interface DocumentBlockListTasks {
  object: 'block';
  type: 'list-tasks';
  key?: string;
  data?: Record<string, never>;
  nodes: DocumentBlockListItem[];
  isVoid?: false;
}
export type DocumentBlockList = DocumentBlockListOrdered | DocumentBlockListUnordered | DocumentBlockListTasks;
export interface DocumentBlockDivider {
  object: 'block';
  type: 'divider';
  key?: string;
  data: Record<string, never>;
  isVoid: true;
}
export interface DocumentBlockQuote {
  object: 'block';
  type: 'blockquote';
  key?: string;
  data?: Record<string, never>;
  nodes: DocumentBlock[];
  isVoid?: false;
}
export interface DocumentBlockHint {
  object: 'block';
  type: 'hint';
  key?: string;
  /** `icon` is GitBook's newer hint icon (`{% hint style icon %}`), beyond the client's 0.130.0 model. */
  data: { style: HintStyle; icon?: string };
  nodes: DocumentBlock[];
  isVoid?: false;
}
export interface DocumentBlockCodeLine {
  object: 'block';
  type: 'code-line';
  key?: string;
  data: { highlighted?: boolean };
  nodes: Array<DocumentText | DocumentInlineOpaque>;
  isVoid?: false;
}
export interface DocumentBlockCode {
  object: 'block';
  type: 'code';
  key?: string;
  data: { syntax?: string; title?: string; overflow?: 'scroll' | 'wrap'; lineNumbers?: boolean; fullWidth?: boolean };
  nodes: DocumentBlockCodeLine[];
  isVoid?: false;
}
export interface DocumentBlockMath {
  object: 'block';
  type: 'math';
  key?: string;
  data: { formula: string };
  isVoid: true;
}

export interface DocumentTableViewGrid {
  type: 'grid';
  columns: string[];
  columnWidths?: Record<string, number>;
  hideHeader: boolean;
  useNewSizing?: boolean;
}
export interface DocumentTableViewCards {
  type: 'cards';
  cardSize: 'medium' | 'large';
  columns: string[];
  targetDefinition?: string;
  coverDefinition?: string;
  hideColumnTitle?: boolean;
}
export type DocumentTableValue = number | string | boolean | string[] | ContentRef;
export interface DocumentTableRecord {
  orderIndex: string;
  values: Record<string, DocumentTableValue>;
}
interface TableDefinitionBase {
  id: string;
  title: string;
}
export interface DocumentTableDefinitionText extends TableDefinitionBase {
  type: 'text';
  textAlignment: 'center' | 'right' | 'left';
  verticalAlignment?: 'top' | 'middle' | 'bottom';
}
export interface DocumentTableDefinitionPlain extends TableDefinitionBase {
  type: 'number' | 'checkbox' | 'files' | 'users' | 'content-ref';
}
export interface DocumentTableDefinitionRating extends TableDefinitionBase {
  type: 'rating';
  max: number;
}
export interface DocumentTableDefinitionSelect extends TableDefinitionBase {
  type: 'select';
  multiple: boolean;
  options: Array<{ value: string; label: string; color: string }>;
}
export type DocumentTableDefinition = DocumentTableDefinitionText | DocumentTableDefinitionPlain | DocumentTableDefinitionRating | DocumentTableDefinitionSelect;
export interface DocumentBlockTable {
  object: 'block';
  type: 'table';
  key?: string;
  data: {
    view: DocumentTableViewGrid | DocumentTableViewCards;
    records: Record<string, DocumentTableRecord>;
    definition: Record<string, DocumentTableDefinition>;
    fullWidth?: boolean;
  };
  fragments: DocumentFragment[];
  isVoid: true;
}

export interface DocumentBlockImage {
  object: 'block';
  type: 'image';
  key?: string;
  data: { ref: ImageRef; refDark?: ImageRef; width?: Length; height?: Length; alt?: string };
  fragments: DocumentFragment[];
  isVoid: true;
}
export interface DocumentBlockImages {
  object: 'block';
  type: 'images';
  key?: string;
  /** `withFrame` is GitBook's newer framed image (`<div data-with-frame="true">`), beyond the client's 0.130.0 model. */
  data: { align?: 'center' | 'left' | 'right'; fullWidth?: boolean; withFrame?: boolean };
  nodes: DocumentBlockImage[];
  isVoid: false;
}
/** `fragments` holds the caption, as on images (the schema leaves the block open to it). */
export interface DocumentBlockFile {
  object: 'block';
  type: 'file';
  key?: string;
  data: { ref: ContentRefFile };
  fragments?: DocumentFragment[];
  isVoid: true;
}
/** `fragments` holds the caption, as on images (the schema leaves the block open to it). */
export interface DocumentBlockEmbed {
  object: 'block';
  type: 'embed';
  key?: string;
  data: { url: string; fullWidth?: boolean };
  fragments?: DocumentFragment[];
  isVoid: true;
}
export interface DocumentBlockContentRef {
  object: 'block';
  type: 'content-ref';
  key?: string;
  data: { ref: ContentRef };
  isVoid: true;
}
export interface DocumentBlockExpandable {
  object: 'block';
  type: 'expandable';
  key?: string;
  data: Record<string, never>;
  fragments: DocumentFragment[];
  meta?: { id: string };
  isVoid: true;
}
export interface DocumentBlockTabsItem {
  object: 'block';
  type: 'tabs-item';
  key?: string;
  /** `icon` is GitBook's newer tab icon (`{% tab title icon %}`), beyond the client's 0.130.0 model. */
  data: { title?: string; icon?: string };
  meta?: { id: string };
  nodes: DocumentBlock[];
  isVoid?: false;
}
export interface DocumentBlockTabs {
  object: 'block';
  type: 'tabs';
  key?: string;
  data?: { fullWidth?: boolean };
  nodes: DocumentBlockTabsItem[];
  isVoid?: false;
}

export interface DocumentBlockStepperStep {
  object: 'block';
  type: 'stepper-step';
  key?: string;
  data: { icon?: string };
  nodes: DocumentBlock[];
  isVoid?: false;
}
export interface DocumentBlockStepper {
  object: 'block';
  type: 'stepper';
  key?: string;
  data: Record<string, never>;
  nodes: DocumentBlockStepperStep[];
  isVoid?: false;
}
export interface DocumentBlockColumn {
  object: 'block';
  type: 'column';
  key?: string;
  data: { width?: Length };
  nodes: DocumentBlock[];
  isVoid: false;
}
export interface DocumentBlockColumns {
  object: 'block';
  type: 'columns';
  key?: string;
  data: { fullWidth?: boolean };
  nodes: DocumentBlockColumn[];
  isVoid: false;
}
/** Adaptive content inside a page: shown when `expression` (the one expression language) holds. */
export interface DocumentBlockIf {
  object: 'block';
  type: 'if';
  key?: string;
  data: { expression: string };
  nodes: DocumentBlock[];
  isVoid?: false;
}
/**
 * A timeline of updates (`{% updates %}`): newer than the client's 0.130.0 model, kept as GitBook writes
 * it (see docs/decisions/0003-client-document-errata.md).
 */
export interface DocumentBlockUpdates {
  object: 'block';
  type: 'updates';
  key?: string;
  data: { format?: string };
  nodes: DocumentBlockUpdate[];
  isVoid: false;
}
export interface DocumentBlockUpdate {
  object: 'block';
  type: 'update';
  key?: string;
  data: { date?: string; tags?: string[]; title?: string };
  nodes: DocumentBlock[];
  isVoid: false;
}
export interface DocumentBlockReusableContent {
  object: 'block';
  type: 'reusable-content';
  key?: string;
  data: { ref: ContentRefReusableContent };
  isVoid: true;
}
export interface DocumentBlockDrawing {
  object: 'block';
  type: 'drawing';
  key?: string;
  /** `alt` is the picture's description as GitBook writes it on the drawing's `<img>`. */
  data: { ref?: ContentRefFile; alt?: string };
  isVoid: true;
}
export interface DocumentBlockIntegration {
  object: 'block';
  type: 'integration';
  key?: string;
  data: { integration: string; block: string; props: Record<string, JsonValue>; url?: string; fullWidth?: boolean };
  isVoid: true;
}
/** `{% openapi src path method %}` (and the older `{% swagger %}`): an operation of a description given by URL or file. */
export interface DocumentBlockSwagger {
  object: 'block';
  type: 'swagger';
  key?: string;
  data: { ref: ContentRefFile | ContentRefURL; path: string; method: string; expanded?: boolean; fullWidth?: boolean };
  isVoid: true;
}
export interface DocumentBlockOpenAPIOperation {
  object: 'block';
  type: 'openapi-operation';
  key?: string;
  data: { ref: ContentRefOpenAPI; path: string; method: string };
  isVoid: true;
}
export interface DocumentBlockOpenAPISchemas {
  object: 'block';
  type: 'openapi-schemas';
  key?: string;
  data: { ref: ContentRefOpenAPI; schemas: string[]; grouped?: boolean };
  isVoid: true;
}
export interface DocumentBlockOpenAPIWebhook {
  object: 'block';
  type: 'openapi-webhook';
  key?: string;
  data: { ref: ContentRefOpenAPI; name: string; method: string };
  isVoid: true;
}

export type DocumentBlock =
  | DocumentBlockParagraph
  | DocumentBlockHeading
  | DocumentBlockList
  | DocumentBlockListItem
  | DocumentBlockDivider
  | DocumentBlockQuote
  | DocumentBlockHint
  | DocumentBlockCode
  | DocumentBlockCodeLine
  | DocumentBlockMath
  | DocumentBlockTable
  | DocumentBlockImages
  | DocumentBlockImage
  | DocumentBlockFile
  | DocumentBlockEmbed
  | DocumentBlockContentRef
  | DocumentBlockExpandable
  | DocumentBlockTabs
  | DocumentBlockTabsItem
  | DocumentBlockStepper
  | DocumentBlockStepperStep
  | DocumentBlockColumns
  | DocumentBlockColumn
  | DocumentBlockIf
  | DocumentBlockUpdates
  | DocumentBlockUpdate
  | DocumentBlockReusableContent
  | DocumentBlockDrawing
  | DocumentBlockIntegration
  | DocumentBlockSwagger
  | DocumentBlockOpenAPIOperation
  | DocumentBlockOpenAPISchemas
  | DocumentBlockOpenAPIWebhook;
export type DocumentBlockType = DocumentBlock['type'];
