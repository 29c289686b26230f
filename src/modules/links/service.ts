import type { Context } from '../../context.ts';
import { requireActor } from '../../context.ts';
import { NotFound } from '../../errors.ts';
import { paginate, type Page } from '../../db/keyset.ts';
import { authorize, type OrganizationActor } from '../../policy/index.ts';
import type { MemberRoleOrGuest } from '../../policy/roles.ts';
import { analyzeRoot, type AnalyzedLink, type LinkStatus, type RevisionLinks } from '../../content/link-analysis/cache.ts';
import { findRevision } from '../../content/revisions.ts';
import type { TreePage } from '../../content/tree.ts';
import { describeScope, type ContentScope } from '../content/service.ts';
import type { OrganizationRow } from '../../access/organizations.ts';
import { findSpaceAccess, spaceAccess, type SpaceAccess } from '../../access/spaces.ts';
import type { BacklinksQuery, LinksQuery } from './schemas.ts';
import { compareText } from '../../ordering.ts';

/** What presenting links needs: the content, and the organizations and spaces its links name, as the caller sees them. */
export interface LinksScope extends ContentScope {
  access: SpaceAccess;
  analysis: RevisionLinks;
  /** Each space a link points at, with the caller's standing on it; null when it is missing or unreadable. */
  spaces: Map<string, SpaceAccess | null>;
  organizations: Map<string, { row: OrganizationRow; actor: OrganizationActor }>;
  /**
   * For a change request: the keys of the links already broken in the space content it started from (its
   * merge base), so that links broken by the change request itself can be counted.
   */
  brokenBefore?: Set<string>;
}

/** A link target with its status for this caller, and the pages that hold it. */
export interface LinkItem {
  link: AnalyzedLink;
  status: LinkStatus;
  pages: string[];
}

export interface LinkStats {
  total: number;
  broken: { total: number; changeRequest: number };
}

export type LinksPage = Page<LinkItem> & LinksScope & { stats: LinkStats };

/** The current revision of a space the caller may read, with its link analysis and what its links name. */
async function linksScope(ctx: Context, spaceId: string): Promise<LinksScope> {
  const access = await spaceAccess(ctx, spaceId);
  authorize(ctx, 'space.view', access.actor);
  const revision = await findRevision(ctx, access.space.revision_id);
  if (!revision) throw new Error(`The current revision of space ${access.space.id} is missing.`);
  return linksScopeOf(ctx, access, { space: access.space, revision, current: true });
}

/**
 * The link analysis of some content of a space the caller was already checked for (the space's current
 * revision, or a change request's head), and what its links name as the caller sees them.
 */
export async function linksScopeOf(ctx: Context, access: SpaceAccess, content: ContentScope, brokenBefore?: Set<string>): Promise<LinksScope> {
  const { space } = access;
  const analysis = await analyzeRoot(ctx, content.revision.root);
  const spaces = new Map<string, SpaceAccess | null>();
  for (const id of analysis.spaces) spaces.set(id, id === space.id ? access : await findSpaceAccess(ctx, id));
  const organizationIds = new Set([space.organization_id]);
  for (const other of spaces.values()) if (other) organizationIds.add(other.space.organization_id);
  const organizations = await loadOrganizations(ctx, [...organizationIds]);
  return { ...content, access, analysis, spaces, organizations, ...(brokenBefore ? { brokenBefore } : {}) };
}

/** The keys of the links of some content that are broken for this caller. */
export async function brokenLinkKeys(ctx: Context, access: SpaceAccess, content: ContentScope): Promise<Set<string>> {
  const scope = await linksScopeOf(ctx, access, content);
  return new Set(scope.analysis.usages.filter((usage) => statusOf(scope, usage) === 'broken').map((usage) => usage.key));
}

/** Organizations with the caller's standing in each (no role, and no team, when the caller is not a member). */
async function loadOrganizations(ctx: Context, ids: string[]): Promise<LinksScope['organizations']> {
  const { userId } = requireActor(ctx);
  const [rows, members, owners] = await Promise.all([
    ctx.db.selectFrom('organizations').selectAll().where('id', 'in', ids).execute(),
    ctx.db.selectFrom('members').select(['organization_id', 'role']).where('user_id', '=', userId).where('disabled', '=', 0).where('organization_id', 'in', ids).execute(),
    ctx.db
      .selectFrom('team_members')
      .innerJoin('teams', 'teams.id', 'team_members.team_id')
      .select('teams.organization_id')
      .where('team_members.user_id', '=', userId)
      .where('team_members.role', '=', 'owner')
      .where('teams.organization_id', 'in', ids)
      .execute(),
  ]);
  const roles = new Map(members.map((member) => [member.organization_id, member.role as MemberRoleOrGuest]));
  const owning = new Set(owners.map((owner) => owner.organization_id));
  return new Map(rows.map((row) => [row.id, { row, actor: { userId, role: roles.get(row.id) ?? null, ownsTeam: owning.has(row.id) } }]));
}

/** A link's status for this caller: links to spaces are ok when the space exists and the caller may read it. */
function statusOf(scope: LinksScope, link: AnalyzedLink): LinkStatus {
  if (link.status !== null) return link.status;
  return link.target.kind === 'space' && scope.spaces.get(link.target.space) ? 'ok' : 'broken';
}

/** Stats over every link of the list, then the status filter, then a page of `limit` in key order. */
async function pageOfLinks(ctx: Context, scope: LinksScope, listing: string, links: Array<{ link: AnalyzedLink; pages: string[] }>, query: LinksQuery): Promise<LinksPage> {
  const all = links.map(({ link, pages }) => ({ link, pages, status: statusOf(scope, link) }));
  const broken = all.filter((item) => item.status === 'broken');
  const brokenHere = scope.brokenBefore ? broken.filter((item) => !scope.brokenBefore!.has(item.link.key)) : [];
  const listed = query.brokenContext === 'change-request' && scope.brokenBefore ? all.filter((item) => item.status !== 'broken' || !scope.brokenBefore!.has(item.link.key)) : all;
  const wanted = query.status ? listed.filter((item) => item.status === query.status) : listed;
  const page = await paginate({
    signer: ctx.cursors,
    scope: `${listing}:${query.status ?? 'all'}`,
    request: query,
    count: async () => wanted.length,
    fetch: async (cursor, take) => {
      const start = cursor ? wanted.findIndex((item) => item.link.key > String(cursor[0])) : 0;
      return start < 0 ? [] : wanted.slice(start, start + take);
    },
    key: (item) => [item.link.key, item.link.relation],
  });
  // Outside change requests, no link was broken by one.
  return { ...page, ...scope, stats: { total: all.length, broken: { total: broken.length, changeRequest: brokenHere.length } } };
}

/** Names the listing in cursors: a change request's lists are not the space's. */
function listingOf(scope: LinksScope): string {
  return scope.changeRequest ? `${scope.space.id}:cr:${scope.changeRequest.id}` : scope.space.id;
}

/** Every link of the space's current content, grouped by target, with its status. */
export async function listSpaceLinks(ctx: Context, spaceId: string, query: LinksQuery): Promise<LinksPage> {
  return linksIn(ctx, await linksScope(ctx, spaceId), query);
}

export async function linksIn(ctx: Context, scope: LinksScope, query: LinksQuery): Promise<LinksPage> {
  const links = scope.analysis.usages.map((usage) => ({ link: usage, pages: usage.pages }));
  return pageOfLinks(ctx, scope, `links:${listingOf(scope)}:${query.brokenContext ?? ''}`, links, query);
}

/** The links of one page of the space's current content. */
export async function listPageLinks(ctx: Context, spaceId: string, pageId: string, query: LinksQuery): Promise<LinksPage> {
  return pageLinksIn(ctx, await linksScope(ctx, spaceId), pageId, query);
}

export async function pageLinksIn(ctx: Context, scope: LinksScope, pageId: string, query: LinksQuery): Promise<LinksPage> {
  if (!scope.analysis.tree.byId.has(pageId)) throw new NotFound(`No page "${pageId}" exists in ${describeScope(scope)}.`);
  const links = (scope.analysis.byPage.get(pageId) ?? []).map((link) => ({ link, pages: [pageId] }));
  return pageOfLinks(ctx, scope, `page-links:${listingOf(scope)}:${pageId}`, links, query);
}

/** The pages of the space's current content that use a file (links, images, file blocks, covers), by path. */
export async function listFileBacklinks(ctx: Context, spaceId: string, fileId: string, query: BacklinksQuery): Promise<Page<TreePage> & LinksScope> {
  return fileBacklinksIn(ctx, await linksScope(ctx, spaceId), fileId, query);
}

export async function fileBacklinksIn(ctx: Context, scope: LinksScope, fileId: string, query: BacklinksQuery): Promise<Page<TreePage> & LinksScope> {
  if (!scope.analysis.tree.files.has(fileId)) throw new NotFound(`No file "${fileId}" exists in ${describeScope(scope)}.`);
  return backlinksPage(ctx, scope, `backlinks:${listingOf(scope)}:${fileId}`, scope.analysis.fileBacklinks.get(fileId) ?? [], query);
}

/** The pages of the space's current content that link to a page of it (or to an anchor in it), by path. */
export async function listPageBacklinks(ctx: Context, spaceId: string, pageId: string, query: BacklinksQuery): Promise<Page<TreePage> & LinksScope> {
  return pageBacklinksIn(ctx, await linksScope(ctx, spaceId), pageId, query);
}

export async function pageBacklinksIn(ctx: Context, scope: LinksScope, pageId: string, query: BacklinksQuery): Promise<Page<TreePage> & LinksScope> {
  if (!scope.analysis.tree.byId.has(pageId)) throw new NotFound(`No page "${pageId}" exists in ${describeScope(scope)}.`);
  const users: string[] = [];
  for (const [from, links] of scope.analysis.byPage) {
    if (from !== pageId && links.some((link) => link.target.kind === 'page' && link.target.page === pageId)) users.push(from);
  }
  return backlinksPage(ctx, scope, `page-backlinks:${listingOf(scope)}:${pageId}`, users, query);
}

/** A page of the pages `pageIds`, ordered by path (then id). */
async function backlinksPage(ctx: Context, scope: LinksScope, listing: string, pageIds: string[], query: BacklinksQuery): Promise<Page<TreePage> & LinksScope> {
  const { tree } = scope.analysis;
  const pages = pageIds
    .map((id) => tree.byId.get(id)!)
    .sort((a, b) => compareText(sortPath(a), sortPath(b)) || compareText(a.node.id, b.node.id));
  const page = await paginate({
    signer: ctx.cursors,
    scope: listing,
    request: query,
    count: async () => pages.length,
    fetch: async (cursor, take) => {
      const start = cursor
        ? pages.findIndex((candidate) => compareText(sortPath(candidate), String(cursor[0])) > 0 || (sortPath(candidate) === cursor[0] && compareText(candidate.node.id, cursor[1]) > 0))
        : 0;
      return start < 0 ? [] : pages.slice(start, start + take);
    },
    key: (candidate) => [sortPath(candidate), candidate.node.id],
  });
  return { ...page, ...scope };
}

/** Link pages have no path; they sort by their title after the pages that have one. */
function sortPath(page: TreePage): string {
  return page.path ?? `\uffff${page.node.title}`;
}

/** Compares by code points, the same on every machine (not by locale). */
