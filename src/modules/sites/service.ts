import { sql, type Updateable } from 'kysely';
import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import { slugify } from '../../content/markdown/slug.ts';
import { containsPattern, isUniqueViolation, jsonTextMember } from '../../db/dialect.ts';
import type { SitesTable } from '../../db/tables/sites.ts';
import { BadRequest, Conflict } from '../../errors.ts';
import { after, paginate, type Page } from '../../db/keyset.ts';
import { authorize } from '../../policy/index.ts';
import { spaceRules } from '../../policy/space.ts';
import { newVisitorAuthKey } from '../../sites/visitor.ts';
import { applySpaceTemplate } from '../content/template-service.ts';
import { organizationAccess } from '../../access/organizations.ts';
import { addSiteSpaces, setDefaultSection, setDefaultSiteSpace, spaceActorsFor } from './placement.ts';
import { createSpace } from '../spaces/service.ts';
import { siteAccess, touchSite, type SiteRow } from '../../access/sites.ts';
import { loadSiteView, loadSiteViews, type SiteView } from './site-views.ts';
import type { CreateSiteBody, ListSitesQuery, UpdateSiteBody } from './schemas.ts';

export const DEFAULT_SITE_TITLE = 'Untitled site';
export const DEFAULT_SITE_TYPE = 'basic';
export const DEFAULT_SITE_VISIBILITY = 'public';
export const DEFAULT_AGENTS_CONTEXT = 'excluded';
/** The template of the space made for a site created with `spaces: "sample"`. */
export const SAMPLE_TEMPLATE = 'product-docs';
const SPACE_TITLE_MAX = 50;
const BASENAME_BASE_MAX = 90;

/** A title as stored: trimmed, and still 2 characters or more. */
function cleanTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed.length < 2) throw new BadRequest('The body member "title" must have at least 2 characters besides spaces: give the site a name of 2 to 128 characters.');
  return trimmed;
}

/** The sites of an organization, oldest first (then by id), filtered by space, title, published state and type. */
export async function listSites(ctx: Context, organizationId: string, query: ListSitesQuery): Promise<Page<SiteView>> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'site.view', actor);
  const types = query.type && query.type.length > 0 ? [...new Set(query.type)].sort() : undefined;
  const title = query.title === undefined || query.title === '' ? undefined : query.title;
  const base = ctx.db
    .selectFrom('sites')
    .where('sites.organization_id', '=', organization.id)
    .$if(query.space !== undefined, (q) =>
      q.where(({ exists, selectFrom }) => exists(selectFrom('site_spaces').select('site_spaces.id').whereRef('site_spaces.site_id', '=', 'sites.id').where('site_spaces.space_id', '=', query.space!))),
    )
    .$if(title !== undefined, (q) => q.where(sql<boolean>`lower(sites.title) like ${containsPattern(title!)} escape '\\'`))
    .$if(query.published !== undefined, (q) => q.where('sites.published', '=', query.published ? 1 : 0))
    .$if(types !== undefined, (q) => q.where('sites.type', 'in', types!));
  const page = await paginate({
    signer: ctx.cursors,
    scope: `sites:${organization.id}:${JSON.stringify([query.space ?? null, title ?? null, query.published ?? null, types ?? null])}`,
    request: query,
    count: async () => Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
    fetch: (cursor, take) =>
      base
        .selectAll('sites')
        .$if(cursor !== undefined, (q) => q.where(after('sites.created_at', 'sites.id', 'asc', cursor!)))
        .orderBy('sites.created_at', 'asc')
        .orderBy('sites.id', 'asc')
        .limit(take)
        .execute(),
    key: (row) => [row.created_at, row.id],
  });
  return { ...page, items: await loadSiteViews(ctx, page.items) };
}

/**
 * Checks that every space named for a new site is a live space of the organization that the caller can
 * read; 400 naming the first that is not, before anything is written.
 */
async function checkSpacesForSite(ctx: Context, organizationId: string, spaceIds: string[]): Promise<void> {
  if (spaceIds.length === 0) return;
  const rows = await ctx.db.selectFrom('spaces').selectAll().where('id', 'in', spaceIds).where('deleted_at', 'is', null).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const actors = await spaceActorsFor(ctx, rows);
  for (const id of spaceIds) {
    const space = byId.get(id);
    if (!space || space.organization_id !== organizationId || !spaceRules.view(actors.get(id)!)) {
      throw new BadRequest(`The body member "spaces" names "${id}", which is not a space of this organization that you can read.`);
    }
  }
}

/** The basename made from a title: its slug, or the slug with the first free suffix -2, -3… in the organization. */
async function freeBasename(ctx: Context, organizationId: string, title: string): Promise<string> {
  const base = slugify(title, 'site').slice(0, BASENAME_BASE_MAX).replace(/-+$/, '') || 'site';
  // The slug holds only [a-z0-9-], so it has no LIKE wildcard to escape.
  const rows = await ctx.db
    .selectFrom('sites')
    .select('basename')
    .where('organization_id', '=', organizationId)
    .where((eb) => eb.or([eb('basename', '=', base), eb('basename', 'like', `${base}-%`)]))
    .execute();
  const taken = new Set(rows.map((row) => row.basename));
  let basename = base;
  for (let n = 2; taken.has(basename); n++) basename = `${base}-${n}`;
  return basename;
}

/**
 * Creates a site, unpublished. Its spaces are existing spaces (site spaces at the root, the first the
 * default), or a new space: empty, or with the product-docs template. Everything happens in one
 * transaction: a refused space or a failed template leaves no site and no space behind.
 */
export async function createSite(ctx: Context, organizationId: string, input: CreateSiteBody): Promise<SiteView> {
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'site.manage', actor);
    const title = cleanTitle(input.title ?? DEFAULT_SITE_TITLE);
    let spaceIds = Array.isArray(input.spaces) ? [...new Set(input.spaces)] : [];
    await checkSpacesForSite(tx, organization.id, spaceIds);
    const now = nowIso(tx);
    const site: SiteRow = {
      id: tx.ids.next(),
      organization_id: organization.id,
      type: input.type ?? DEFAULT_SITE_TYPE,
      title,
      visibility: input.visibility ?? DEFAULT_SITE_VISIBILITY,
      published: 0,
      basename: await freeBasename(tx, organization.id, title),
      hostname: null,
      proxy: null,
      agents_context: DEFAULT_AGENTS_CONTEXT,
      adaptive_enabled: 0,
      adaptive_schema: null,
      adaptive_schema_updated_at: null,
      auth_key: tx.secrets.encrypt(newVisitorAuthKey()),
      auth_backend: 'custom',
      auth_fallback_url: null,
      default_section_id: null,
      default_site_space_id: null,
      version: 0,
      created_by: actor.userId,
      created_at: now,
      updated_at: now,
    };
    await tx.db.insertInto('sites').values(site).execute();
    if (input.spaces === 'empty' || input.spaces === 'sample') {
      const space = await createSpace(tx, organization.id, { title: title.slice(0, SPACE_TITLE_MAX).trim() });
      if (input.spaces === 'sample') await applySpaceTemplate(tx, space.space.id, { id: SAMPLE_TEMPLATE });
      spaceIds = [space.space.id];
    }
    if (spaceIds.length > 0) await addSiteSpaces(tx, site, spaceIds, null);
    return loadSiteView(tx, await reload(tx, site.id));
  });
}

async function reload(ctx: Context, siteId: string): Promise<SiteRow> {
  return ctx.db.selectFrom('sites').selectAll().where('id', '=', siteId).executeTakeFirstOrThrow();
}

export async function getSite(ctx: Context, organizationId: string, siteId: string): Promise<SiteView> {
  const { site, actor } = await siteAccess(ctx, organizationId, siteId);
  authorize(ctx, 'site.view', actor);
  return loadSiteView(ctx, site);
}

/** Refuses a hostname that another site holds, or that is Quire's own. */
async function checkHostname(ctx: Context, site: SiteRow, hostname: string): Promise<void> {
  if (hostname === new URL(ctx.config.publicUrl).hostname.toLowerCase()) {
    throw new BadRequest(`The body member "hostname" cannot be "${hostname}": that is the address of Quire itself. Choose a hostname of your own, e.g. docs.example.com.`);
  }
  const other = await ctx.db.selectFrom('sites').select('id').where('hostname', '=', hostname).where('id', '<>', site.id).executeTakeFirst();
  if (other) throw new Conflict(`The hostname "${hostname}" is already used by another site. Remove it from that site first, or choose another hostname.`);
}

async function checkBasename(ctx: Context, site: SiteRow, basename: string): Promise<void> {
  if (basename === '.' || basename === '..') {
    throw new BadRequest(`The body member "basename" cannot be "${basename}": use letters, digits, "-", "_" or "." with at least one letter or digit.`);
  }
  const other = await ctx.db
    .selectFrom('sites')
    .select('id')
    .where('organization_id', '=', site.organization_id)
    .where('basename', '=', basename)
    .where('id', '<>', site.id)
    .executeTakeFirst();
  if (other) throw new Conflict(`Another site of this organization already has the basename "${basename}": choose another one, or change that site's first.`);
}

/**
 * Changes a site's settings in one transaction: a refused part (a basename or hostname taken, a default
 * that is not in the site) leaves the site as it was.
 */
export async function updateSite(ctx: Context, organizationId: string, siteId: string, patch: UpdateSiteBody): Promise<SiteView> {
  return inTransaction(ctx, async (tx) => {
    const { site, actor } = await siteAccess(tx, organizationId, siteId);
    authorize(tx, 'site.manage', actor);
    const changes: Updateable<SitesTable> = {};
    if (patch.title !== undefined) changes.title = cleanTitle(patch.title);
    if (patch.visibility !== undefined) changes.visibility = patch.visibility;
    if (patch.agentsContext !== undefined) changes.agents_context = patch.agentsContext;
    if (patch.adaptiveContent !== undefined) changes.adaptive_enabled = patch.adaptiveContent.enabled ? 1 : 0;
    if (patch.proxy !== undefined) changes.proxy = patch.proxy;
    if (patch.basename !== undefined && patch.basename !== site.basename) {
      await checkBasename(tx, site, patch.basename);
      changes.basename = patch.basename;
    }
    if (patch.hostname !== undefined && patch.hostname !== site.hostname) {
      if (patch.hostname !== null) await checkHostname(tx, site, patch.hostname);
      changes.hostname = patch.hostname;
    }
    if (Object.keys(changes).length > 0) {
      try {
        await tx.db.updateTable('sites').set(changes).where('id', '=', site.id).execute();
      } catch (error) {
        // Another request took the basename or hostname between the check and the write.
        if (isUniqueViolation(tx.dialect, error)) throw new Conflict('The basename or hostname was just taken by another site: choose another one.');
        throw error;
      }
    }
    // The section first: a default site space is looked for in the default section.
    if (patch.defaultSiteSection !== undefined) await setDefaultSection(tx, site, patch.defaultSiteSection);
    if (patch.defaultSiteSpace !== undefined) await setDefaultSiteSpace(tx, site, patch.defaultSiteSpace);
    await touchSite(tx, site.id);
    return loadSiteView(tx, await reload(tx, site.id));
  });
}

/**
 * Deletes a site with everything of it (sections, groups, site spaces, share links: by cascade); the spaces
 * stay. An organization whose default content was the site no longer has one. True when a site was
 * deleted, false when there was none.
 */
export async function deleteSite(ctx: Context, organizationId: string, siteId: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    const site = await tx.db.selectFrom('sites').select('id').where('id', '=', siteId).where('organization_id', '=', organization.id).executeTakeFirst();
    authorize(tx, 'site.delete', actor, site !== undefined);
    if (!site) return false;
    await tx.db
      .updateTable('organizations')
      .set({ default_content: null })
      .where('id', '=', organization.id)
      .where(jsonTextMember(tx.dialect, 'default_content', 'site'), '=', site.id)
      .execute();
    await tx.db.deleteFrom('sites').where('id', '=', site.id).execute();
    return true;
  });
}

/** Publishes or unpublishes a site (administrators). Doing it twice is not an error. */
export async function setSitePublished(ctx: Context, organizationId: string, siteId: string, published: boolean): Promise<SiteView> {
  return inTransaction(ctx, async (tx) => {
    const { site, actor } = await siteAccess(tx, organizationId, siteId);
    authorize(tx, 'site.admin', actor);
    await tx.db.updateTable('sites').set({ published: published ? 1 : 0 }).where('id', '=', site.id).execute();
    await touchSite(tx, site.id);
    if (published && !site.published) await tx.events.emit(tx, 'site.published', { organizationId: site.organization_id, actorId: actor.userId, siteId: site.id });
    return loadSiteView(tx, await reload(tx, site.id));
  });
}
