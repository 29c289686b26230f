import { inTransaction, requireActor, type Context } from '../../context.ts';
import { slugify } from '../../content/markdown/slug.ts';
import { BadRequest, NotFound } from '../../errors.ts';
import type { MemberRoleOrGuest } from '../../policy/roles.ts';
import { grantedRole, loadGrants, raisedLevel } from '../../access/grants.ts';
import { effectiveLevel, spaceRules, type SpaceActor, type SpaceVisibility, type StoredLevel } from '../../policy/space.ts';
import type { SiteSectionRow, SiteSpaceRow } from '../../sites/structure.ts';
import { authorize } from '../../policy/index.ts';
import { siteAccess, touchSite, type SiteRow } from '../../access/sites.ts';
import type { SpaceRow } from '../../access/spaces.ts';

/**
 * Where things go in a site's structure, and the writes every structure operation shares. Each exported
 * write runs in one transaction (reusing the caller's when there is one: site creation calls
 * addSiteSpaces inside its own) and marks the site changed (touchSite).
 */

/** A site space's container: a section, or the root of a site without sections (null). */
export type Container = string | null;

/** The callers' standing on many spaces of one organization, in three queries whatever their number. */
export async function spaceActorsFor(ctx: Context, spaces: SpaceRow[]): Promise<Map<string, SpaceActor>> {
  const result = new Map<string, SpaceActor>();
  if (spaces.length === 0) return result;
  const user = requireActor(ctx);
  const orgIds = [...new Set(spaces.map((s) => s.organization_id))];
  const [members, collections] = await Promise.all([
    ctx.db
      .selectFrom('members')
      .select(['organization_id', 'role'])
      .where('user_id', '=', user.userId)
      .where('disabled', '=', 0)
      .where('organization_id', 'in', orgIds)
      .execute(),
    spaces.some((s) => s.collection_id)
      ? ctx.db.selectFrom('collections').select(['id', 'parent_id', 'default_level']).where('organization_id', 'in', orgIds).execute()
      : Promise.resolve([]),
  ]);
  const roleByOrg = new Map(members.map((m) => [m.organization_id, m.role as MemberRoleOrGuest]));
  const collectionById = new Map(collections.map((c) => [c.id, c]));
  const chainOf = (collectionId: string | null): Array<{ id: string; level: StoredLevel }> => {
    const chain: Array<{ id: string; level: StoredLevel }> = [];
    for (let id = collectionId, depth = 0; id && depth < 64; depth++) {
      const collection = collectionById.get(id);
      if (!collection) break;
      chain.push({ id: collection.id, level: collection.default_level as StoredLevel });
      id = collection.parent_id;
    }
    return chain;
  };
  const grantsByOrg = new Map(
    await Promise.all(members.map(async (m) => [m.organization_id, await loadGrants(ctx, m.organization_id, user.userId)] as const)),
  );
  for (const space of spaces) {
    const orgRole = roleByOrg.has(space.organization_id) ? roleByOrg.get(space.organization_id) : undefined;
    const chain = chainOf(space.collection_id);
    const granted = grantedRole(grantsByOrg.get(space.organization_id) ?? null, chain.map((link) => link.id), space.id);
    result.set(space.id, {
      userId: user.userId,
      orgRole,
      level: raisedLevel(effectiveLevel(orgRole, [space.default_level as StoredLevel, ...chain.map((link) => link.level)]), granted),
      visibility: space.visibility as SpaceVisibility,
      sharedWith: false,
    });
  }
  return result;
}

/**
 * The spaces a site may publish, by id, in the order asked: live spaces of the site's organization that the
 * caller can read. BadRequest names the first id that is not one.
 */
export async function publishableSpaces(ctx: Context, site: SiteRow, spaceIds: string[]): Promise<SpaceRow[]> {
  const ids = [...new Set(spaceIds)];
  if (ids.length === 0) return [];
  const rows = await ctx.db.selectFrom('spaces').selectAll().where('id', 'in', ids).where('deleted_at', 'is', null).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const actors = await spaceActorsFor(ctx, rows);
  for (const id of ids) {
    const space = byId.get(id);
    if (!space || !spaceRules.view(actors.get(id)!)) {
      throw new NotFound(`No space "${id}" exists that you can read.`);
    }
    if (space.organization_id !== site.organization_id) {
      throw new BadRequest(`Space "${id}" belongs to another organization: a site can only publish spaces of its own organization.`);
    }
  }
  return ids.map((id) => byId.get(id)!);
}

/** The sections of a site (any order). */
export function sectionRows(ctx: Pick<Context, 'db'>, siteId: string): Promise<SiteSectionRow[]> {
  return ctx.db.selectFrom('site_sections').selectAll().where('site_id', '=', siteId).execute();
}

/** The site spaces of one container, in order. */
export async function containerSiteSpaces(ctx: Pick<Context, 'db'>, siteId: string, container: Container): Promise<SiteSpaceRow[]> {
  const rows = await ctx.db
    .selectFrom('site_spaces')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('section_id', container === null ? 'is' : '=', container)
    .execute();
  return rows.sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1));
}

/** `base`, or `base-2`, `base-3`… : the first that is not taken. */
export function uniquePath(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  let path = base;
  for (let n = 2; used.has(path); n++) path = `${base}-${n}`;
  return path;
}

/** A URL segment made from a title. */
export function pathOf(title: string, fallback: string): string {
  return slugify(title, fallback).slice(0, 90).replace(/-+$/, '') || fallback;
}

/** A fresh (re-read) row of the site; writes take their decisions on it, not on a row read before. */
export async function freshSite(ctx: Pick<Context, 'db'>, siteId: string): Promise<SiteRow> {
  const row = await ctx.db.selectFrom('sites').selectAll().where('id', '=', siteId).executeTakeFirst();
  if (!row) throw new NotFound(`No site "${siteId}" exists in this organization.`);
  return row;
}

/** Resolves an omitted section: the default section of a site with sections, the root otherwise. */
export async function resolveContainer(ctx: Context, site: SiteRow, sectionId: string | null | undefined): Promise<Container> {
  const sections = await sectionRows(ctx, site.id);
  if (sectionId) {
    if (!sections.some((s) => s.id === sectionId)) throw new BadRequest(`Section "${sectionId}" is not a section of site "${site.id}".`);
    return sectionId;
  }
  if (sections.length === 0) return null;
  const fresh = await freshSite(ctx, site.id);
  return sections.find((s) => s.id === fresh.default_section_id)?.id ?? firstInOrder(sections).id;
}

/** The first section in the site's order (top-level order, then order within groups). */
function firstInOrder(sections: SiteSectionRow[]): SiteSectionRow {
  return [...sections].sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1))[0]!;
}

/**
 * Adds spaces to a site as site spaces, at the end of a container: `sectionId`, or when null the default
 * section (the root when the site has no sections). Each gets the space's title as title and its slug as
 * path (unique in the container); the first site space of a container becomes its default. The spaces must
 * be live spaces of the site's organization that the caller can read.
 */
export async function addSiteSpaces(ctx: Context, site: SiteRow, spaceIds: string[], sectionId: string | null): Promise<SiteSpaceRow[]> {
  return inTransaction(ctx, async (tx) => {
    const spaces = await publishableSpaces(tx, site, spaceIds);
    const container = await resolveContainer(tx, site, sectionId);
    const existing = await containerSiteSpaces(tx, site.id, container);
    const taken = existing.map((s) => s.path);
    let position = existing.reduce((max, s) => Math.max(max, s.position), 0);
    const now = tx.clock.now().toISOString();
    const added: SiteSpaceRow[] = [];
    for (const space of spaces) {
      const path = uniquePath(pathOf(space.title, 'space'), taken);
      taken.push(path);
      const row: SiteSpaceRow = {
        id: tx.ids.next(),
        site_id: site.id,
        section_id: container,
        space_id: space.id,
        path,
        condition: null,
        position: ++position,
        created_at: now,
      };
      await tx.db.insertInto('site_spaces').values(row).execute();
      added.push(row);
    }
    if (added.length) {
      await ensureContainerDefault(tx, site.id, container);
      await touchSite(tx, site.id);
    }
    return added;
  });
}

/** Gives a container a default when it has none (or a stale one): its first site space. */
export async function ensureContainerDefault(ctx: Context, siteId: string, container: Container): Promise<void> {
  const spaces = await containerSiteSpaces(ctx, siteId, container);
  const current =
    container === null
      ? (await freshSite(ctx, siteId)).default_site_space_id
      : ((await ctx.db.selectFrom('site_sections').select('default_site_space_id').where('id', '=', container).executeTakeFirst())?.default_site_space_id ?? null);
  if (current && spaces.some((s) => s.id === current)) return;
  const next = spaces[0]?.id ?? null;
  if (next === current) return;
  if (container === null) await ctx.db.updateTable('sites').set({ default_site_space_id: next }).where('id', '=', siteId).execute();
  else await ctx.db.updateTable('site_sections').set({ default_site_space_id: next }).where('id', '=', container).execute();
}

/** Gives a site a default section when it has sections and none (or a stale one) is the default. */
export async function ensureSiteDefaultSection(ctx: Context, siteId: string): Promise<void> {
  const site = await freshSite(ctx, siteId);
  const sections = await sectionRows(ctx, siteId);
  if (site.default_section_id && sections.some((s) => s.id === site.default_section_id)) return;
  const next = sections.length ? await firstSectionInSiteOrder(ctx, siteId, sections) : null;
  if (next === site.default_section_id) return;
  await ctx.db.updateTable('sites').set({ default_section_id: next }).where('id', '=', siteId).execute();
}

/** The id of the first section in the site's reading order (a group's first section when a group leads). */
async function firstSectionInSiteOrder(ctx: Context, siteId: string, sections: SiteSectionRow[]): Promise<string> {
  const groups = await ctx.db.selectFrom('site_section_groups').select(['id', 'position']).where('site_id', '=', siteId).execute();
  const groupIds = new Set(groups.map((g) => g.id));
  const order = (a: { position: number; id: string }, b: { position: number; id: string }) => a.position - b.position || (a.id < b.id ? -1 : 1);
  const top = [
    ...sections.filter((s) => !s.group_id || !groupIds.has(s.group_id)).map((s) => ({ id: s.id, position: s.position, group: false })),
    ...groups.map((g) => ({ id: g.id, position: g.position, group: true })),
  ].sort(order);
  for (const item of top) {
    if (!item.group) return item.id;
    const inGroup = sections.filter((s) => s.group_id === item.id).sort(order);
    if (inGroup.length) return inGroup[0]!.id;
  }
  return firstInOrder(sections).id;
}

/**
 * Makes a site space the default: of the root for a site without sections, else of the default section
 * (it must be in the default section; the default of another section is set on that section).
 */
export async function setDefaultSiteSpace(ctx: Context, site: SiteRow, siteSpaceId: string): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const row = await tx.db.selectFrom('site_spaces').selectAll().where('id', '=', siteSpaceId).where('site_id', '=', site.id).executeTakeFirst();
    if (!row) throw new BadRequest(`Site space "${siteSpaceId}" is not a site space of site "${site.id}".`);
    const fresh = await freshSite(tx, site.id);
    if (row.section_id === null) {
      await tx.db.updateTable('sites').set({ default_site_space_id: row.id }).where('id', '=', site.id).execute();
    } else {
      const defaultSection = await resolveContainer(tx, fresh, null);
      if (row.section_id !== defaultSection) {
        throw new BadRequest(
          `Site space "${siteSpaceId}" is in section "${row.section_id}", not in the default section: make it the default of its section with PATCH …/sections/${row.section_id} { "defaultSiteSpace": "${siteSpaceId}" }, or make that section the default first.`,
        );
      }
      await tx.db.updateTable('site_sections').set({ default_site_space_id: row.id }).where('id', '=', row.section_id).execute();
    }
    await touchSite(tx, site.id);
  });
}

/** Makes a section the default section of its site. */
export async function setDefaultSection(ctx: Context, site: SiteRow, sectionId: string): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const row = await tx.db.selectFrom('site_sections').select('id').where('id', '=', sectionId).where('site_id', '=', site.id).executeTakeFirst();
    if (!row) throw new BadRequest(`Section "${sectionId}" is not a section of site "${site.id}".`);
    await tx.db.updateTable('sites').set({ default_section_id: sectionId }).where('id', '=', site.id).execute();
    await touchSite(tx, site.id);
  });
}

/** Sets the default site space of a section (it must be one of that section's site spaces). */
export async function setSectionDefaultSiteSpace(ctx: Context, site: SiteRow, sectionId: string, siteSpaceId: string): Promise<void> {
  const row = await ctx.db.selectFrom('site_spaces').select(['id', 'section_id']).where('id', '=', siteSpaceId).where('site_id', '=', site.id).executeTakeFirst();
  if (!row || row.section_id !== sectionId) {
    throw new BadRequest(`Site space "${siteSpaceId}" is not in section "${sectionId}": the default site space of a section must be one of its site spaces.`);
  }
  await ctx.db.updateTable('site_sections').set({ default_site_space_id: siteSpaceId }).where('id', '=', sectionId).execute();
}

/** Loads a site the caller may act on with `policy` (site.view or site.manage); outsiders get 404. */
export async function structureAccess(ctx: Context, organizationId: string, siteId: string, policy: 'site.view' | 'site.manage'): Promise<SiteRow> {
  const { site, actor } = await siteAccess(ctx, organizationId, siteId);
  authorize(ctx, policy, actor);
  return site;
}

/** Checks that a path is one URL segment. */
export function checkSegment(member: string, path: string): string {
  if (path.includes('/') || /\s/.test(path) || path === '.' || path === '..' || /[?#%\\]/.test(path)) {
    throw new BadRequest(`The body member "${member}" must be one URL segment: no "/", spaces, "?", "#", "%" or "\\", and not "." or "..". Got "${path}".`);
  }
  return path;
}
