import type { Context } from '../../context.ts';
import type { StoredFile, RevisionRecord } from '../../content/revisions.ts';
import { findRevision } from '../../content/revisions.ts';
import type { TreePage } from '../../content/tree.ts';
import type { Page } from '../../db/keyset.ts';
import { authorize } from '../../policy/index.ts';
import { fileIn, filesIn, pageByPathIn, pageIn, treeIn, type ContentScope, type FileView, type PageView, type TreeView } from '../content/service.ts';
import type { FilesQuery, PageQuery } from '../content/schemas.ts';
import { brokenLinkKeys, fileBacklinksIn, linksIn, linksScopeOf, pageBacklinksIn, pageLinksIn, type LinksPage, type LinksScope } from '../links/service.ts';
import type { BacklinksQuery, ChangeRequestLinksQuery, LinksQuery } from '../links/schemas.ts';
import { changeRequestAccess, type ChangeRequestAccess } from '../../access/change-requests.ts';

/**
 * The content of a change request: its head revision, read with the space reads' own code and shapes
 * (src/modules/content, src/modules/links), so that a change request mirrors its space exactly.
 */

async function revision(ctx: Context, id: string): Promise<RevisionRecord> {
  const found = await findRevision(ctx, id);
  if (!found) throw new Error(`Revision ${id} of a change request is missing.`);
  return found;
}

/** A change request the caller may read, and its head as a content scope. */
async function readableHead(ctx: Context, spaceId: string, changeRequestId: string): Promise<{ access: ChangeRequestAccess; scope: ContentScope }> {
  const access = await changeRequestAccess(ctx, spaceId, changeRequestId);
  authorize(ctx, 'space.view', access.actor);
  const { space, changeRequest } = access;
  const scope: ContentScope = {
    space,
    revision: await revision(ctx, changeRequest.revision),
    current: false,
    changeRequest: { id: changeRequest.id, number: changeRequest.number },
  };
  return { access, scope };
}

export async function getChangeRequestContent(ctx: Context, spaceId: string, changeRequestId: string): Promise<TreeView> {
  return treeIn(ctx, (await readableHead(ctx, spaceId, changeRequestId)).scope);
}

export async function getChangeRequestPage(ctx: Context, spaceId: string, changeRequestId: string, pageId: string, query: PageQuery): Promise<PageView> {
  return pageIn(ctx, (await readableHead(ctx, spaceId, changeRequestId)).scope, pageId, query);
}

export async function getChangeRequestPageByPath(ctx: Context, spaceId: string, changeRequestId: string, path: string, query: PageQuery): Promise<PageView> {
  return pageByPathIn(ctx, (await readableHead(ctx, spaceId, changeRequestId)).scope, path, query);
}

export async function listChangeRequestFiles(ctx: Context, spaceId: string, changeRequestId: string, query: FilesQuery): Promise<Page<StoredFile> & ContentScope> {
  return filesIn(ctx, (await readableHead(ctx, spaceId, changeRequestId)).scope, query);
}

export async function getChangeRequestFile(ctx: Context, spaceId: string, changeRequestId: string, fileId: string): Promise<FileView> {
  return fileIn(ctx, (await readableHead(ctx, spaceId, changeRequestId)).scope, fileId);
}

/**
 * The link analysis of the change request's head. Links already broken in the space content the change
 * request last included (its merge base) are known, so `stats.broken.changeRequest` counts the links the
 * change request itself broke.
 */
async function changeRequestLinks(ctx: Context, spaceId: string, changeRequestId: string, compare = true): Promise<LinksScope> {
  const { access, scope } = await readableHead(ctx, spaceId, changeRequestId);
  const spaceAccess = { space: access.space, actor: access.actor };
  if (!compare) return linksScopeOf(ctx, spaceAccess, scope);
  const base: ContentScope = { space: access.space, revision: await revision(ctx, access.changeRequest.revision_merged_ancestor), current: false };
  return linksScopeOf(ctx, spaceAccess, scope, await brokenLinkKeys(ctx, spaceAccess, base));
}

export async function listChangeRequestLinks(ctx: Context, spaceId: string, changeRequestId: string, query: ChangeRequestLinksQuery): Promise<LinksPage> {
  return linksIn(ctx, await changeRequestLinks(ctx, spaceId, changeRequestId), query);
}

export async function listChangeRequestPageLinks(ctx: Context, spaceId: string, changeRequestId: string, pageId: string, query: LinksQuery): Promise<LinksPage> {
  return pageLinksIn(ctx, await changeRequestLinks(ctx, spaceId, changeRequestId), pageId, query);
}

export async function listChangeRequestPageBacklinks(ctx: Context, spaceId: string, changeRequestId: string, pageId: string, query: BacklinksQuery): Promise<Page<TreePage> & LinksScope> {
  return pageBacklinksIn(ctx, await changeRequestLinks(ctx, spaceId, changeRequestId, false), pageId, query);
}

export async function listChangeRequestFileBacklinks(ctx: Context, spaceId: string, changeRequestId: string, fileId: string, query: BacklinksQuery): Promise<Page<TreePage> & LinksScope> {
  return fileBacklinksIn(ctx, await changeRequestLinks(ctx, spaceId, changeRequestId, false), fileId, query);
}
