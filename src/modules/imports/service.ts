import type { Context } from '../../context.ts';
import { inTransaction } from '../../context.ts';
import { lockSpaceHead, setSpaceHead } from '../../content/head.ts';
import { findRevision } from '../../content/revisions.ts';
import { loadTree } from '../../content/tree.ts';
import { NotFound } from '../../errors.ts';
import { assertSupportedSource, checkImportUrl, importInto, loadImport, prepareImport, type ImportedContent, type ImportResult, type LoadOptions } from '../../imports/index.ts';
import { authorize } from '../../policy/index.ts';
import { spaceAccess, spaceNotFound, type SpaceRow } from '../../access/spaces.ts';
import { assertEditable } from '../../access/editable.ts';
import type { ImportContentBody } from './schemas.ts';

/**
 * Imports into a space: checks the caller (edit level, space not locked) before fetching anything, reads
 * the source with no transaction open, then in one transaction checks again, writes the new revision over
 * the space's current one (the row locked on PostgreSQL) and makes it current. An import that fails at any
 * point changes nothing.
 */

type Check = (tx: Context) => Promise<SpaceRow>;

async function checkPage(ctx: Context, space: SpaceRow, pageId: string | undefined): Promise<void> {
  if (pageId === undefined) return;
  const revision = await findRevision(ctx, space.revision_id);
  if (!revision || !(await loadTree(ctx, revision.root)).byId.has(pageId)) throw new NotFound(`No page "${pageId}" exists in the space "${space.id}".`);
}

async function commit(ctx: Context, spaceId: string, content: ImportedContent, pageId: string | undefined, check: Check): Promise<ImportResult> {
  // The pages are laid over the current revision before the transaction (the CPU-heavy part: every body
  // is rewritten); inside it, that work is reused unless the space moved on meanwhile.
  const before = await check(ctx);
  const prepared = await prepareImport(ctx, content, { baseRevisionId: before.revision_id, spaceId, underPageId: pageId });
  return inTransaction(ctx, async (tx) => {
    const space = await check(tx);
    // Two writers cannot both build on the same current revision.
    const current = await lockSpaceHead(tx, space.id);
    const result = await importInto(tx, { baseRevisionId: current, spaceId: space.id, underPageId: pageId, prepared });
    await setSpaceHead(tx, space.id, result.revisionId, { expected: current });
    return result;
  });
}

/** POST /spaces/{spaceId}/content/import and …/content/page/{pageId}/import, for the calling user. */
export async function importIntoSpace(ctx: Context, spaceId: string, body: ImportContentBody, pageId?: string, options: LoadOptions = {}): Promise<ImportResult> {
  const check: Check = async (tx) => {
    const { space, actor } = await spaceAccess(tx, spaceId);
    authorize(tx, 'space.edit', actor);
    assertEditable(space);
    return space;
  };
  const space = await check(ctx);
  assertSupportedSource(body.source);
  checkImportUrl(body.url);
  await checkPage(ctx, space, pageId);
  const content = await loadImport(ctx, body, options);
  return commit(ctx, spaceId, content, pageId, check);
}

/** The operator's import (the CLI): no user, so no permission check, but a locked space is still refused. */
export async function importIntoSpaceAsOperator(ctx: Context, spaceId: string, content: () => Promise<ImportedContent>): Promise<ImportResult> {
  const check: Check = async (tx) => {
    const space = await tx.db.selectFrom('spaces').selectAll().where('id', '=', spaceId).where('deleted_at', 'is', null).executeTakeFirst();
    if (!space) throw spaceNotFound(spaceId);
    assertEditable(space);
    return space;
  };
  await check(ctx);
  return commit(ctx, spaceId, await content(), undefined, check);
}
