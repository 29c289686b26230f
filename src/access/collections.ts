import { lockRows } from '../db/locks.ts';
import type { Context } from '../context.ts';
import { requireActor } from '../context.ts';
import type { CollectionRow } from '../db/rows.ts';
import { BadRequest, NotFound } from '../errors.ts';
import type { MemberRoleOrGuest } from '../policy/roles.ts';
import { collectionRules, effectiveLevel, type CollectionActor } from '../policy/space.ts';
import { grantedRole, memberGrants, raisedLevel } from './grants.ts';
import { collectionChain } from './spaces.ts';

export type { CollectionRow };

export interface CollectionAccess {
  collection: CollectionRow;
  actor: CollectionActor;
}

/** The caller's role in an organization: undefined for outsiders (and disabled members). */
export async function organizationRole(ctx: Context, organizationId: string): Promise<MemberRoleOrGuest | undefined> {
  const user = requireActor(ctx);
  const member = await ctx.db
    .selectFrom('members')
    .select('role')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', user.userId)
    .where('disabled', '=', 0)
    .executeTakeFirst();
  return member ? (member.role as MemberRoleOrGuest) : undefined;
}

/** The caller on a collection of an organization in which their role is `orgRole`. */
export async function collectionActor(ctx: Context, collectionId: string, orgRole: MemberRoleOrGuest | undefined, organizationId?: string): Promise<CollectionActor> {
  const user = requireActor(ctx);
  const chain = await collectionChain(ctx, collectionId);
  const orgId = organizationId ?? (await ctx.db.selectFrom('collections').select('organization_id').where('id', '=', collectionId).executeTakeFirst())?.organization_id;
  const grants = orgId ? await memberGrants(ctx, orgId, user.userId, orgRole) : null;
  const level = effectiveLevel(orgRole, chain.map((link) => link.level));
  return { userId: user.userId, orgRole, level: raisedLevel(level, grantedRole(grants, chain.map((link) => link.id))) };
}

/**
 * Loads a live collection with the caller's standing on it; null when there is none by that id or the
 * caller may not see it (not told apart, so existence is not leaked).
 */
export async function findCollectionAccess(ctx: Context, collectionId: string): Promise<CollectionAccess | null> {
  const collection = await ctx.db.selectFrom('collections').selectAll().where('id', '=', collectionId).where('deleted_at', 'is', null).executeTakeFirst();
  if (!collection) return null;
  const actor = await collectionActor(ctx, collection.id, await organizationRole(ctx, collection.organization_id), collection.organization_id);
  if (!collectionRules.view(actor)) return null;
  return { collection, actor };
}

export async function collectionAccess(ctx: Context, collectionId: string): Promise<CollectionAccess> {
  const access = await findCollectionAccess(ctx, collectionId);
  if (!access) throw collectionNotFound(collectionId);
  return access;
}

export function collectionNotFound(collectionId: string): NotFound {
  return new NotFound(`No collection "${collectionId}" exists that you can see.`);
}

/**
 * The collection a body names as the new parent of some content (`parent`): it must be a live collection of
 * `organizationId` that the caller can see, else 400 naming the field. Whether the caller may add content
 * to it is for the caller to authorize ('collection.create').
 */
export async function parentCollection(ctx: Context, organizationId: string, collectionId: string, field = 'parent'): Promise<CollectionAccess> {
  await lockCollections(ctx, [collectionId], 'share');
  const access = await findCollectionAccess(ctx, collectionId);
  if (!access || access.collection.organization_id !== organizationId) {
    throw new BadRequest(`The body member "${field}" names collection "${collectionId}", which does not exist in this organization.`);
  }
  return access;
}

/**
 * On PostgreSQL, locks collection rows until the transaction ends: 'share' while content is put into a
 * collection, 'update' while a collection is deleted or transferred, so a space cannot land in a collection
 * at the moment it goes to the trash (and be left live inside it). SQLite runs one write transaction at a
 * time already.
 */
export async function lockCollections(ctx: Context, collectionIds: string[], mode: 'share' | 'update'): Promise<void> {
  if (!ctx.db.isTransaction || collectionIds.length === 0) return;
  await lockRows(ctx.db.selectFrom('collections').select('id').where('id', 'in', collectionIds), ctx.dialect, { mode }).execute();
}
