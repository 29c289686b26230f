/**
 * What the renderer carries while it walks one page: how references resolve, the page's heading ids,
 * and a counter that keeps the ids of tab groups unique within the page.
 */
import { inlineText } from '../../content/markdown/nodes.ts';
import { slugify, UniqueSlugs } from '../../content/markdown/slug.ts';
import type { Document, DocumentBlock, DocumentBlockHeading } from '../../content/markdown/index.ts';

export interface RenderLinks {
  /** URL of a revision file (images, file blocks), or null when the file is missing. */
  fileUrl(fileId: string): string | null;
  /** URL of another page of the same site space (optionally with an #anchor), or null when unknown/hidden. */
  pageUrl(pageId: string, anchor?: string): string | null;
  /** Title of a page of the same site space (mentions and content references show it), or null. */
  pageTitle(pageId: string): string | null;
  /** The document of a reusable content the page includes, or null when it has none by that id. */
  reusableContent(id: string): Document | null;
  /** HTML of an OpenAPI block (an operation, schemas, a webhook), when the site can render one. */
  openApi?(block: DocumentBlock): string | null;
  /** The operations an OpenAPI block shows, with the ids of their sections, for the page's outline. */
  openApiOutline?(block: DocumentBlock): Array<{ id: string; title: string }>;
}

export interface OutlineEntry {
  id: string;
  title: string;
  depth: 1 | 2 | 3;
}

export interface RenderContext {
  links: RenderLinks;
  /** Renders nested blocks; set by index.ts so that the block modules need not import each other. */
  blocks(nodes: DocumentBlock[], out: string[]): void;
  /** The id of a heading, claimed the first time it is asked for. */
  headingId(heading: DocumentBlockHeading): string;
  /** A fresh, page-unique name for a group of tabs. */
  nextTabsName(): string;
  /** A fresh, page-unique id for an annotation's note. */
  nextNoteId(): string;
  /** The number an annotation's marker shows (1, 2 … in reading order). */
  noteNumber(id: string): number;
}

export function isHeading(block: DocumentBlock): block is DocumentBlockHeading {
  return block.type === 'heading-1' || block.type === 'heading-2' || block.type === 'heading-3';
}

export function headingTitle(heading: DocumentBlockHeading): string {
  return inlineText(heading.nodes ?? []).trim();
}

function wantedSlug(heading: DocumentBlockHeading): string {
  return heading.data?.id ?? slugify(headingTitle(heading), 'section');
}

/**
 * Heading ids. The top-level headings are claimed first, in order, exactly as extractSections does, so
 * that their anchors are the ones the content API gives for the page's sections; headings nested in
 * containers are claimed afterwards, as they are met, and so never take a top-level heading's anchor.
 */
export class HeadingIds {
  private readonly slugs = new UniqueSlugs();
  private readonly ids = new Map<DocumentBlockHeading, string>();
  readonly outline: OutlineEntry[] = [];

  constructor(topLevel: DocumentBlock[]) {
    for (const block of topLevel) {
      if (!isHeading(block)) continue;
      const id = this.slugs.claim(wantedSlug(block));
      this.ids.set(block, id);
      this.outline.push({ id, title: headingTitle(block), depth: Number(block.type.slice(-1)) as 1 | 2 | 3 });
    }
  }

  idOf(heading: DocumentBlockHeading): string {
    let id = this.ids.get(heading);
    if (id === undefined) {
      id = this.slugs.claim(wantedSlug(heading));
      this.ids.set(heading, id);
    }
    return id;
  }
}
