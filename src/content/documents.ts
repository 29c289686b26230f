import type { Context } from '../context.ts';
import { evaluateDocument } from './evaluate.ts';
import type { ExpressionScope } from './expressions.ts';
import { linkResolver, linkWriter } from './links.ts';
import { parseMarkdown, renderMarkdown, type Document, type ParseOptions } from './markdown/index.ts';
import type { Variables } from './nodes.ts';
import { getObject } from './objects.ts';
import type { RevisionTree, TreePage } from './tree.ts';

/** Page bodies are stored as Markdown; these serve them as Markdown or as the JSON document model. */

export type { Document } from './markdown/index.ts';

/** The Markdown of a page's body ('' for an empty page). */
export async function bodyMarkdown(ctx: Pick<Context, 'db' | 'dialect'>, page: TreePage): Promise<string> {
  return page.node.body ? getObject(ctx, page.node.body) : '';
}

/** The variables an expression on this page can read: the revision's (`space.vars`) and the page's (`page.vars`). */
export function expressionScope(tree: RevisionTree, page: TreePage): ExpressionScope {
  return { space: { vars: (tree.root.variables ?? {}) as Variables }, page: { vars: page.node.variables ?? {} } };
}

/**
 * Resolves a file named in Markdown (`files/<id>`, a path ending in the file's name such as
 * `assets/diagram.png`, or a bare id) to the id of a file of the revision.
 */
export function fileResolver(tree: RevisionTree): (reference: string) => string | undefined {
  let byName: Map<string, string> | undefined;
  return (reference) => {
    if (tree.files.has(reference)) return reference;
    byName ??= new Map([...tree.files.values()].reverse().map((file) => [file.name, file.id]));
    const last = reference.split(/[?#]/)[0].split('/').pop() ?? '';
    const id = /^files\/[^/]+$/.test(reference) && tree.files.has(last) ? last : undefined;
    return id ?? byName.get(safeDecode(last));
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** How Markdown read from a page of this tree names its files and the other pages. */
function parseOptions(tree: RevisionTree, page: TreePage): ParseOptions {
  return { resolveFile: fileResolver(tree), resolveLink: linkResolver(tree, page) };
}

/** A body as a JSON document; `evaluated` replaces expressions by their values. */
export function toDocument(source: string, tree: RevisionTree, page: TreePage, evaluated: boolean): Document {
  const { document } = parseMarkdown(source, parseOptions(tree, page));
  return evaluated ? evaluateDocument(document, expressionScope(tree, page)) : document;
}

/** A body as Markdown; `evaluated` replaces expressions by their values (through the document model). */
export function toMarkdown(source: string, tree: RevisionTree, page: TreePage, evaluated: boolean): string {
  if (!source || !evaluated) return source;
  const { document, frontmatter } = parseMarkdown(source, parseOptions(tree, page));
  return renderMarkdown(evaluateDocument(document, expressionScope(tree, page)), { frontmatter, refUrl: linkWriter(tree, page) });
}
