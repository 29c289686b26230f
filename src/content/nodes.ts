import { canonicalJson } from './canonical-json.ts';

/**
 * Page nodes: the objects of kind 'page' that make a revision's tree. A node holds the page's stable id,
 * its settings, the hash of its body (a 'body' object holding Markdown) and the hashes of its children, so
 * a node's hash covers its whole subtree. Slugs and paths are not stored: they follow from titles and the
 * tree when a revision is read.
 */
export const PAGE_TYPES = ['document', 'group', 'link'] as const;
export type PageType = (typeof PAGE_TYPES)[number];

export type VariableValue = string | number | boolean;
export type Variables = Record<string, VariableValue>;

export interface LayoutOptions {
  width: 'default' | 'wide';
  cover: boolean;
  coverSize: 'hero' | 'full';
  title: boolean;
  description: boolean;
  tableOfContents: boolean;
  outline: boolean;
  pagination: boolean;
  metadata: boolean;
}
export const LAYOUT_PRESETS = ['docs', 'editorial', 'landing'] as const;
export type LayoutPreset = (typeof LAYOUT_PRESETS)[number];

/** A content reference, as the API describes it (`{ kind: 'url', url }`, `{ kind: 'page', page }` …). */
export type ContentRef =
  | { kind: 'file'; file: string }
  | { kind: 'url'; url: string }
  | { kind: 'page'; page: string; space?: string }
  | { kind: 'anchor'; anchor: string; space?: string; page?: string }
  | { kind: 'user'; user: string }
  | { kind: 'collection'; collection: string }
  | { kind: 'space'; space: string }
  | { kind: 'reusable-content'; reusableContent: string; space?: string }
  | { kind: 'openapi'; spec: string };

export interface PageCover {
  ref?: ContentRef;
  refDark?: ContentRef;
  yPos: number;
}

/** Where a page came from in a Git repository; "mutable metadata", left out when asked (`metadata=false`). */
export interface GitBlob {
  oid: string;
  path: string;
}

/** The settings of a page: everything a node holds but its body and children. */
export interface PageFields {
  id: string;
  type: PageType;
  title: string;
  /**
   * The slug the page asks for, when it does not follow from its title: a page imported from a file keeps
   * its file's name (`import.md` is `import`), a group from SUMMARY.md its anchor. Unique among siblings.
   */
  slug?: string;
  description?: string;
  emoji?: string;
  icon?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  /** Only the options that differ from the default layout are stored. */
  layout?: Partial<LayoutOptions>;
  cover?: PageCover;
  variables?: Variables;
  /** Link pages: where they point. */
  target?: ContentRef;
  href?: string;
  git?: GitBlob;
}

export interface PageNode extends PageFields {
  /** Hash of the 'body' object (Markdown); absent for an empty page, a group or a link. */
  body?: string;
  /** Hashes of the child page nodes, in order. */
  children: string[];
}

export const DEFAULT_LAYOUT: LayoutOptions = {
  width: 'default',
  cover: true,
  coverSize: 'hero',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
};

const PRESETS: Record<LayoutPreset, Partial<LayoutOptions>> = {
  docs: {},
  editorial: { width: 'default', tableOfContents: false, outline: false, pagination: false },
  landing: { width: 'wide', coverSize: 'full', tableOfContents: false, outline: false, pagination: false, metadata: false },
};

/** The options of a preset, or of a partial set of options, as stored (differences from the default only). */
export function storedLayout(layout: LayoutPreset | Partial<LayoutOptions> | undefined): Partial<LayoutOptions> | undefined {
  if (layout === undefined) return undefined;
  const options = typeof layout === 'string' ? PRESETS[layout] : layout;
  const differences = Object.fromEntries(
    Object.entries(options).filter(([key, value]) => value !== undefined && DEFAULT_LAYOUT[key as keyof LayoutOptions] !== value),
  ) as Partial<LayoutOptions>;
  return Object.keys(differences).length > 0 ? differences : undefined;
}

/** The full layout of a page, as the API shows it. */
export function fullLayout(stored: Partial<LayoutOptions> | undefined): LayoutOptions {
  return stored ? { ...DEFAULT_LAYOUT, ...stored } : { ...DEFAULT_LAYOUT };
}

/** The JSON text of a node: canonical (sorted keys, no empty or false settings), so equal pages hash equally. */
export function encodeNode(node: PageNode): string {
  const clean: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (value === undefined || value === false || value === '') continue;
    if (key !== 'children' && value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) continue;
    clean[key] = value;
  }
  clean.children = node.children;
  return canonicalJson(clean);
}

export function decodeNode(data: string): PageNode {
  return JSON.parse(data) as PageNode;
}
