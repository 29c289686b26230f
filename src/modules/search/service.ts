import type { Context } from '../../context.ts';
import { BadRequest } from '../../errors.ts';
import { decodeCursor, DEFAULT_PAGE_SIZE, encodeCursor, type Page } from '../../db/keyset.ts';
import { authorize } from '../../policy/index.ts';
import { countPages, matchingPages, matchingSpaces, type PageMatch, type SpaceScope } from '../../search/engine.ts';
import { isEmptyQuery, parseSearchQuery } from '../../search/query.ts';
import { matchedSections, type SectionMatch } from '../../search/snippets.ts';
import { organizationAccess } from '../../access/organizations.ts';
import { spaceAccess } from '../../access/spaces.ts';
import { orGranted, spaceGrantRank, spaceResolvedLevel, spaceViewableBy, withContentLevels } from '../../access/levels.ts';
import { loadGrants, type Grants } from '../../access/grants.ts';
import { memoized } from '../../db/memo.ts';
import type { MemberRoleOrGuest } from '../../policy/roles.ts';
import type { SearchRequest } from './schemas.ts';

/**
 * Full-text search over the current content of spaces, through the index kept by src/search/. Results are
 * pages ordered by relevance — a match in the title first, then in a heading, then in the body — with
 * the sections that match. The index follows content changes within a round of the job queue.
 */

export interface PageHit {
  spaceId: string;
  pageId: string;
  title: string;
  path: string;
  sections: SectionMatch[];
}

export interface SpaceHit {
  id: string;
  title: string;
  pages: PageHit[];
}

/** Organization search lists at most this many pages per space, best first. */
export const PAGES_PER_SPACE = 10;

/**
 * Results are ranked, not sorted by a stored value, so the cursor is a position in the ranking (signed with
 * the search it belongs to). A page of results read after the index changed may repeat or skip a hit.
 */
function window(ctx: Context, scope: string, request: SearchRequest): { offset: number; limit: number } {
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  if (!request.page) return { offset: 0, limit };
  const [offset] = decodeCursor(ctx.cursors, scope, request.page);
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) throw new BadRequest('The "page" cursor is not valid for this search.');
  return { offset, limit };
}

function nextPage(ctx: Context, scope: string, offset: number, limit: number, more: boolean): Pick<Page<unknown>, 'next'> {
  return more ? { next: { page: encodeCursor(ctx.cursors, scope, [offset + limit, '']) } } : {};
}

function pageHit(row: PageMatch): PageHit {
  return { spaceId: row.space_id, pageId: row.page_id, title: row.title, path: row.path, sections: matchedSections(row) };
}

/** Searches the current content of a space the caller can read. */
export async function searchSpace(ctx: Context, spaceId: string, request: SearchRequest): Promise<Page<PageHit>> {
  const { space, actor } = await spaceAccess(ctx, spaceId);
  authorize(ctx, 'space.view', actor);
  const scope = `search:space:${space.id}:${actor.userId}:${request.query}`;
  const { offset, limit } = window(ctx, scope, request);
  const query = parseSearchQuery(request.query);
  if (isEmptyQuery(query)) return { items: [], count: 0 };
  const spaces: SpaceScope = { spaceId: space.id };
  const count = await countPages(ctx, query, spaces);
  const rows = limit === 0 || offset >= count ? [] : await matchingPages(ctx, query, spaces, { offset, limit: limit + 1 });
  return { items: rows.slice(0, limit).map(pageHit), count, ...nextPage(ctx, scope, offset, limit, rows.length > limit) };
}

/** A guest's role (null) in the memo's key, which is strings. */
const GUEST = 'guest';

/** The spaces of `organizationId` that a caller of `role` with `grants` may read (the rule of spaceAccess, in SQL), trash left out. */
function readableQuery(db: Context['db'], organizationId: string, role: MemberRoleOrGuest, grants: Grants | null) {
  return withContentLevels(db, organizationId, grants)
    .selectFrom('spaces')
    .leftJoin('collection_levels', 'collection_levels.id', 'spaces.collection_id')
    .where('spaces.organization_id', '=', organizationId)
    .where('spaces.deleted_at', 'is', null)
    .where(orGranted(spaceViewableBy(role, spaceResolvedLevel), spaceGrantRank(grants)));
}

/**
 * The readable spaces' ids and titles for one caller: access, answered from memory while nothing it is read
 * from changes (src/db/memo.ts: spaces, collections, grants, members), so a search does not walk the
 * organization's collections again on every request. At most 200,000 spaces are held in all. The role is
 * part of the key (GUEST for a guest's null).
 */
const readableSpaces = memoized(
  async (target, organizationId: string, userId: string, role: string) => {
    const grants = await loadGrants(target, organizationId, userId);
    return readableQuery(target.db, organizationId, role === GUEST ? null : (role as MemberRoleOrGuest), grants).select(['spaces.id', 'spaces.title']).execute();
  },
  { maxRows: 200_000 },
);

/**
 * Searches the spaces of an organization that the caller can read (the rule of spaceAccess, applied in
 * SQL: members by their level, public and unlisted spaces for everyone), spaces in the trash left out.
 * Hits are grouped by space; spaces are ordered by their best page.
 */
export async function searchOrganization(ctx: Context, organizationId: string, request: SearchRequest): Promise<Page<SpaceHit>> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'spaces.list', actor);
  const scope = `search:organization:${organization.id}:${actor.userId}:${request.query}`;
  const { offset, limit } = window(ctx, scope, request);
  const query = parseSearchQuery(request.query);
  if (isEmptyQuery(query)) return { items: [], count: 0 };
  const readable = await readableSpaces(ctx, organization.id, actor.userId, actor.role ?? GUEST);
  if (readable.length === 0) return { items: [], count: 0 };
  // The ranking in SQL (only when the engine's own way does not answer) reads the same rule as a subquery.
  const inSql = async () => readableQuery(ctx.db, organization.id, actor.role, await loadGrants(ctx, organization.id, actor.userId)).select('spaces.id');
  const { count, rows } = await matchingSpaces(ctx, query, { ids: readable.map((space) => space.id), spaceIds: inSql }, { offset, limit: limit + 1 }, PAGES_PER_SPACE);

  const groups = new Map<string, PageHit[]>();
  for (const row of rows) {
    const pages = groups.get(row.space_id) ?? [];
    pages.push(pageHit(row));
    groups.set(row.space_id, pages);
  }
  const titleOf = new Map(readable.map((space) => [space.id, space.title]));
  const items = [...groups.keys()].slice(0, limit).map((id) => ({ id, title: titleOf.get(id) ?? '', pages: groups.get(id)! }));
  return { items, count, ...nextPage(ctx, scope, offset, limit, groups.size > limit) };
}
