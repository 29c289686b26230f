import { createHash } from 'node:crypto';
import type { Context } from '../context.ts';
import { bodyMarkdown, expressionScope, includedDocuments, toDocument } from '../content/documents.ts';
import { expressionsOf, outcomesOf, type DocumentExpressions } from '../content/evaluate.ts';
import { FrontmatterError } from '../content/markdown/index.ts';
import type { RevisionTree, TreePage } from '../content/tree.ts';
import { LruCache } from '../lru.ts';

/**
 * Which readers may share a rendered page. A page's body depends on a reader's claims only through the
 * expressions it holds (its `if` conditions and inline expressions, its includes' too), so the cache key
 * of a page is what those expressions make of the reader's claims — not the claims themselves. Readers
 * with distinct claims (an id, an e-mail) but the same outcome share one rendered page; a page with no
 * expression is made once for everyone.
 */

/** A page's expressions, by revision and page (content never changes under a revision). */
const expressionsCache = new LruCache<string, DocumentExpressions>(20_000);

async function pageExpressions(ctx: Pick<Context, 'db' | 'dialect'>, revisionId: string, tree: RevisionTree, page: TreePage): Promise<DocumentExpressions> {
  const key = `${revisionId}|${page.node.id}`;
  const known = expressionsCache.get(key);
  if (known) return known;
  let expressions: DocumentExpressions = { conditions: [], inline: [] };
  const source = await bodyMarkdown(ctx, page);
  if (source.includes('{%') || source.includes('{{')) {
    try {
      const document = toDocument(source, tree, page, false);
      expressions = expressionsOf(document);
      for (const included of (await includedDocuments(ctx, tree, document)).values()) expressions = expressionsOf(included, expressions);
    } catch (error) {
      // A page whose front matter cannot be read is rendered without it (page.ts); its body has no expression here.
      if (!(error instanceof FrontmatterError)) throw error;
    }
  }
  expressionsCache.set(key, expressions);
  return expressions;
}

/** The part of a page's cache key that depends on the reader: '' when the page reads no claim or the reader has none. */
export async function readerKey(ctx: Pick<Context, 'db' | 'dialect'>, revisionId: string, tree: RevisionTree, page: TreePage, claims: Record<string, unknown>): Promise<string> {
  const expressions = await pageExpressions(ctx, revisionId, tree, page);
  if (expressions.conditions.length === 0 && expressions.inline.length === 0) return '';
  const outcomes = outcomesOf(expressions, expressionScope(tree, page, claims));
  return createHash('sha1').update(outcomes).digest('base64url').slice(0, 16);
}
