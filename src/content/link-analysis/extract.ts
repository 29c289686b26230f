/**
 * Finding the links of a page: every reference its document holds (links, content references, images,
 * files, embeds, in tables and captions too), and the references a page holds outside its body (where a
 * link page points, its cover image).
 */
import type { ContentRef, Document } from '../markdown/index.ts';
import type { PageNode } from '../nodes.ts';

/**
 * How a page relates to what it names: `reference` when it points at it (links, content references, link
 * pages), `dependsOn` when the page shows it (images, files, embeds, covers).
 */
export type LinkRelation = 'reference' | 'dependsOn';

/** A reference as written in a page, before it is classified. */
export interface FoundRef {
  ref: ContentRef;
  relation: LinkRelation;
}

interface AnyNode {
  object?: unknown;
  type?: unknown;
  data?: Record<string, unknown>;
  nodes?: unknown;
  fragments?: unknown;
}

function isRef(value: unknown): value is ContentRef {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}

/** The references of one node (not of its children). */
function refsOf(node: AnyNode, found: FoundRef[]): void {
  const data = node.data;
  if (!data) return;
  switch (node.type) {
    case 'link':
    case 'content-ref':
      if (isRef(data.ref)) found.push({ ref: data.ref, relation: 'reference' });
      return;
    case 'image':
    case 'inline-image':
      if (isRef(data.ref)) found.push({ ref: data.ref, relation: 'dependsOn' });
      if (isRef(data.refDark)) found.push({ ref: data.refDark, relation: 'dependsOn' });
      return;
    case 'file':
      if (isRef(data.ref)) found.push({ ref: data.ref, relation: 'dependsOn' });
      return;
    case 'embed':
      if (typeof data.url === 'string' && data.url !== '') found.push({ ref: { kind: 'url', url: data.url }, relation: 'dependsOn' });
      return;
  }
}

/** Walks blocks, inlines and fragments (table cells, captions) depth first, in reading order. */
function walk(value: unknown, found: FoundRef[], depth: number): void {
  if (!Array.isArray(value) || depth > 200) return;
  for (const item of value) {
    if (typeof item !== 'object' || item === null) continue;
    const node = item as AnyNode;
    if (node.object === 'block' || node.object === 'inline') refsOf(node, found);
    walk(node.nodes, found, depth + 1);
    walk(node.fragments, found, depth + 1);
  }
}

/** Every reference in a document, in reading order (duplicates included). */
export function documentRefs(document: Document): FoundRef[] {
  const found: FoundRef[] = [];
  walk(document.nodes, found, 0);
  return found;
}

/** The references a page holds outside its body: a link page's target, a cover image. */
export function nodeRefs(node: PageNode): FoundRef[] {
  const found: FoundRef[] = [];
  if (node.type === 'link' && node.target) found.push({ ref: node.target, relation: 'reference' });
  if (node.cover?.ref) found.push({ ref: node.cover.ref, relation: 'dependsOn' });
  if (node.cover?.refDark) found.push({ ref: node.cover.refDark, relation: 'dependsOn' });
  return found;
}
