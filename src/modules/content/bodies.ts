import type { Context } from '../../context.ts';
import { bodyMarkdown, toDocument, toMarkdown, type Document } from '../../content/documents.ts';
import type { RevisionTree, TreePage } from '../../content/tree.ts';
import type { PageQuery } from './schemas.ts';

/** A page body in the format a caller asked for. */
export type PageBody = { format: 'markdown'; markdown: string } | { format: 'document'; document: Document };

/** The body of a document page (groups and links have none): a JSON document unless Markdown is asked for. */
export async function pageBody(ctx: Context, tree: RevisionTree, page: TreePage, query: PageQuery): Promise<PageBody | null> {
  if (page.node.type !== 'document') return null;
  const source = await bodyMarkdown(ctx, page);
  const evaluated = query.evaluated === true;
  if (query.format === 'markdown') return { format: 'markdown', markdown: toMarkdown(source, tree, page, evaluated) };
  return { format: 'document', document: toDocument(source, tree, page, evaluated) };
}
