import type { Context } from '../context.ts';
import { evaluateDocument } from './evaluate.ts';
import type { ExpressionScope } from '../expressions/page.ts';
import { filePathResolverAt, folderOfFile, linkResolverAt, linkWriter, pageFile } from './links.ts';
import { reusableContentBodies, reusableContentFile, reusableContentResolver, reusableContentsOf } from './reusable-contents.ts';
import { parseMarkdown, renderMarkdown, type Document, type ParseOptions } from './markdown/index.ts';
import type { Variables } from './nodes.ts';
import { getObject } from './objects.ts';
import type { RevisionTree, TreePage } from './tree.ts';
import { safeDecode } from '../url-text.ts';

/** Page bodies are stored as Markdown; these serve them as Markdown or as the JSON document model. */

export type { Document } from './markdown/index.ts';

/** The Markdown of a page's body ('' for an empty page). */
export async function bodyMarkdown(ctx: Pick<Context, 'db' | 'dialect'>, page: TreePage): Promise<string> {
  return page.node.body ? getObject(ctx, page.node.body) : '';
}

/**
 * What an expression on this page can read: the revision's variables (`space.vars`), the page's
 * (`page.vars`) and, on a published site, the reader's claims (`visitor.claims`).
 */
export function expressionScope(tree: RevisionTree, page: TreePage, claims?: Record<string, unknown>): ExpressionScope {
  const scope: ExpressionScope = { space: { vars: (tree.root.variables ?? {}) as Variables }, page: { vars: page.node.variables ?? {} } };
  if (claims) scope.visitor = { claims };
  return scope;
}

/**
 * Resolves a file named in Markdown (`files/<id>`, a path relative to the file the Markdown is in —
 * `../.gitbook/assets/diagram.png` —, a path ending in the file's name, or a bare id) to the id of a file
 * of the revision.
 */
export function fileResolver(tree: RevisionTree, folder: string[] = []): (reference: string) => string | undefined {
  // A tree without files resolves no reference to one (each way below looks among the tree's files).
  if (tree.files.size === 0) return () => undefined;
  const byPath = filePathResolverAt(tree, folder);
  return (reference) => {
    if (tree.files.has(reference)) return reference;
    const found = byPath(reference);
    if (found) return found;
    const byName = filesByName(tree);
    const last = reference.split(/[?#]/)[0].split('/').pop() ?? '';
    const id = /^files\/[^/]+$/.test(reference) && tree.files.has(last) ? last : undefined;
    return id ?? byName.get(safeDecode(last));
  };
}

const namedFiles = new WeakMap<RevisionTree, Map<string, string>>();

/** The files of a tree by name (the first of a name wins), built once per tree rather than once per resolver. */
function filesByName(tree: RevisionTree): Map<string, string> {
  let byName = namedFiles.get(tree);
  if (!byName) namedFiles.set(tree, (byName = new Map([...tree.files.values()].reverse().map((file) => [file.name, file.id]))));
  return byName;
}

/** How Markdown read from a page of this tree names its files and the other pages. */
export function parseOptions(tree: RevisionTree, page: TreePage): ParseOptions {
  return parseOptionsAt(tree, folderOfFile(pageFile(page)));
}

/** How Markdown read from a file of `folder` (a page's, a reusable content's) names files, pages and includes. */
export function parseOptionsAt(tree: RevisionTree, folder: string[]): ParseOptions {
  return { resolveFile: fileResolver(tree, folder), resolveLink: linkResolverAt(tree, folder), resolveReusableContent: reusableContentResolver(tree) };
}

/**
 * A body as a JSON document; `evaluated` replaces expressions by their values and keeps the `if` blocks
 * whose condition holds (for the reader with `claims`, when one is given).
 */
export function toDocument(source: string, tree: RevisionTree, page: TreePage, evaluated: boolean, claims?: Record<string, unknown>): Document {
  const { document } = parseMarkdown(source, parseOptions(tree, page));
  return evaluated ? evaluateDocument(document, expressionScope(tree, page, claims)) : document;
}

/** A body as Markdown; `evaluated` replaces expressions by their values (through the document model). */
export function toMarkdown(source: string, tree: RevisionTree, page: TreePage, evaluated: boolean, claims?: Record<string, unknown>): string {
  if (!source || !evaluated) return source;
  const { document, frontmatter } = parseMarkdown(source, parseOptions(tree, page));
  return renderMarkdown(evaluateDocument(document, expressionScope(tree, page, claims)), { frontmatter, refUrl: linkWriter(tree, page) });
}

/** The ids of the reusable contents a document includes. */
export function includedIds(document: Document): string[] {
  const ids = new Set<string>();
  const visit = (nodes: Document['nodes']) => {
    for (const node of nodes) {
      if (node.type === 'reusable-content') ids.add(node.data.ref.reusableContent);
      if ('nodes' in node && Array.isArray(node.nodes)) visit(node.nodes as Document['nodes']);
      if ('fragments' in node && Array.isArray(node.fragments)) for (const fragment of node.fragments) visit(fragment.nodes);
    }
  };
  visit(document.nodes);
  return [...ids];
}

/**
 * The documents of the reusable contents a page includes, evaluated for the page's reader like the page
 * itself (links inside them are relative to their own file). Includes inside includes are not followed.
 */
export async function reusableContentDocuments(ctx: Pick<Context, 'db'>, tree: RevisionTree, page: TreePage, document: Document, claims?: Record<string, unknown>): Promise<Map<string, Document>> {
  const documents = await includedDocuments(ctx, tree, document);
  const scope = expressionScope(tree, page, claims);
  for (const [id, included] of documents) documents.set(id, evaluateDocument(included, scope));
  return documents;
}

/**
 * A document with its includes replaced by the blocks they hold (one level: includes inside includes stay
 * as they are), for outputs that cannot look an include up as they go (the PDF).
 */
export function expandIncludes(document: Document, includes: Map<string, Document>): Document {
  const expand = (nodes: Document['nodes']): Document['nodes'] =>
    nodes.flatMap((node) => {
      if (node.type === 'reusable-content') return includes.get(node.data.ref.reusableContent)?.nodes ?? [node];
      const copy = { ...node } as typeof node;
      if ('nodes' in copy && Array.isArray(copy.nodes)) (copy as { nodes: unknown }).nodes = expand(copy.nodes as Document['nodes']);
      if ('fragments' in copy && Array.isArray(copy.fragments)) {
        (copy as { fragments: unknown }).fragments = copy.fragments.map((fragment) => ({ ...fragment, nodes: expand(fragment.nodes as Document['nodes']) }));
      }
      return [copy];
    });
  return { ...document, nodes: expand(document.nodes) };
}

/** The documents of the reusable contents a document includes, as written (not evaluated), by id. */
export async function includedDocuments(ctx: Pick<Context, 'db'>, tree: RevisionTree, document: Document): Promise<Map<string, Document>> {
  const wanted = new Set(includedIds(document));
  if (wanted.size === 0) return new Map();
  const contents = reusableContentsOf(tree).filter((content) => wanted.has(content.id));
  const bodies = await reusableContentBodies(ctx, contents);
  const documents = new Map<string, Document>();
  for (const content of contents) {
    const { document: included } = parseMarkdown(bodies.get(content.id) ?? '', parseOptionsAt(tree, folderOfFile(reusableContentFile(content))));
    documents.set(content.id, included);
  }
  return documents;
}
