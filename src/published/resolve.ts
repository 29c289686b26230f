import type { Kysely } from 'kysely';
import type { Context } from '../context.ts';
import { preparedQuery } from '../db/prepared.ts';
import { memoized } from '../db/memo.ts';
import type { DB } from '../db/types.ts';
import type { SiteRow } from '../db/rows.ts';
import { sitePathRoot } from '../sites/urls.ts';

/**
 * From a request to the site it addresses. A site is reached by path under Quire's public URL
 * (`/sites/{organizationId}/{basename}/…`) or, when the request's Host is a site's hostname, at the root of
 * that host. Both lookups are single indexed queries (the unique constraints on the two addresses).
 */

export interface SiteAddressing {
  site: ReaderSite;
  /** The URL path of the site's root on this address, without a trailing slash ('' at the root of a host). */
  root: string;
  /** What comes before `root` in absolute URLs (canonical links, sitemaps, llms.txt): Quire's public URL, or the scheme and host. */
  origin: string;
  /** The decoded path segments below the root. */
  segments: string[];
  /** The current content of the live spaces the site publishes, by space id. */
  live: Map<string, CurrentContent>;
}

type Db = Pick<Context, 'db' | 'dialect'>;

/**
 * The columns of a site the reader needs on every request. Only these: a site row is wide (its adaptive
 * schema, its agents context…), and reading it whole on every page cost more than the join.
 */
const READER_SITE_COLUMNS = ['id', 'organization_id', 'basename', 'hostname', 'title', 'visibility', 'published', 'version', 'auth_key', 'auth_fallback_url'] as const;
export type ReaderSite = Pick<SiteRow, (typeof READER_SITE_COLUMNS)[number]>;

/**
 * A site with the current content of every live space it publishes, in one query: the site's row repeated
 * on each of its site spaces (one row with empty content columns when it has none). Spaces in the trash
 * join nothing, so a site space whose space was deleted since the structure was cached disappears. One
 * query rather than two because on a warm cache it is most of what a page costs.
 */
function withContent(db: Kysely<DB>) {
  return db
    .selectFrom('sites')
    .leftJoin('site_spaces', 'site_spaces.site_id', 'sites.id')
    .leftJoin('spaces', (join) => join.onRef('spaces.id', '=', 'site_spaces.space_id').on('spaces.deleted_at', 'is', null))
    .leftJoin('revisions', 'revisions.id', 'spaces.revision_id')
    .select([...READER_SITE_COLUMNS.map((c) => `sites.${c}` as const), 'spaces.id as content_space_id', 'spaces.revision_id as content_revision_id', 'revisions.root as content_root']);
}

/**
 * Answered from memory while no site, site space or space changed (src/db/memo.ts: a space's head
 * moving, a site's settings or publication, a space added or removed), so a warm page touches no table.
 */
const siteByPath = memoized(preparedQuery((db: Kysely<DB>, organizationId: string, basename: string) =>
  withContent(db).where('sites.organization_id', '=', organizationId).where('sites.basename', '=', basename),
));
const siteByHost = memoized(preparedQuery((db: Kysely<DB>, hostname: string) => withContent(db).where('sites.hostname', '=', hostname)));

export interface CurrentContent {
  revisionId: string;
  root: string;
}

type SiteWithContent = ReaderSite & { content_space_id: string | null; content_revision_id: string | null; content_root: string | null };

function split(rows: SiteWithContent[]): { site: ReaderSite; live: Map<string, CurrentContent> } | null {
  if (rows.length === 0) return null;
  const first = rows[0];
  const site: ReaderSite = {
    id: first.id,
    organization_id: first.organization_id,
    basename: first.basename,
    hostname: first.hostname,
    title: first.title,
    visibility: first.visibility,
    published: first.published,
    version: first.version,
    auth_key: first.auth_key,
    auth_fallback_url: first.auth_fallback_url,
  };
  const live = new Map<string, CurrentContent>();
  for (const row of rows) {
    if (row.content_space_id && row.content_revision_id && row.content_root) live.set(row.content_space_id, { revisionId: row.content_revision_id, root: row.content_root });
  }
  return { site, live };
}

/** Splits a request path into decoded segments; null when a segment is not valid percent-encoding. */
export function pathSegments(url: string): string[] | null {
  const path = url.split('?', 1)[0].split('#', 1)[0];
  const segments: string[] = [];
  for (const raw of path.split('/')) {
    if (raw === '') continue;
    try {
      segments.push(decodeURIComponent(raw));
    } catch {
      return null;
    }
  }
  return segments;
}

/** The site of a `/sites/{organizationId}/{basename}/…` request, or null. */
export async function siteByAddress(ctx: Db & Pick<Context, 'config'>, url: string): Promise<SiteAddressing | null> {
  const segments = pathSegments(url);
  if (!segments || segments.length < 3 || segments[0] !== 'sites') return null;
  const found = split(await siteByPath(ctx, segments[1], segments[2]));
  if (!found) return null;
  return { ...found, root: sitePathRoot(found.site), origin: ctx.config.publicUrl, segments: segments.slice(3) };
}

/**
 * The site whose hostname is the request's host, or null. The host of Quire's own public URL is never a
 * site's: a site given that hostname cannot take over the routes Quire leaves unmatched.
 */
export async function siteByHostname(ctx: Db & Pick<Context, 'config'>, host: string | undefined, protocol: string, url: string): Promise<SiteAddressing | null> {
  if (!host) return null;
  const name = host.toLowerCase();
  if (name === new URL(ctx.config.publicUrl).host.toLowerCase()) return null;
  const bare = name.replace(/:\d+$/, '');
  let found = split(await siteByHost(ctx, name));
  if (!found && bare !== name) found = split(await siteByHost(ctx, bare));
  if (!found) return null;
  const segments = pathSegments(url);
  if (!segments) return null;
  return { ...found, root: '', origin: `${protocol}://${name}`, segments };
}
