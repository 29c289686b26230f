import type { Context } from '../../context.ts';
import { nowIso } from '../../context.ts';
import type { UserRow } from '../../db/rows.ts';
import { compareText } from '../../ordering.ts';

/** The reactions to one comment or reply with one emoji: who reacted, and when, first first. */
export interface ReactionView {
  emoji: string;
  users: Array<{ userId: string; reactedAt: string }>;
}

/**
 * Adds and takes back the caller's reactions to a comment or reply (one row per subject, emoji and user).
 * Adding an emoji already there changes nothing; an emoji in both lists ends up removed.
 */
export async function applyReactions(ctx: Context, subjectId: string, userId: string, added: string[], removed: string[]): Promise<void> {
  if (added.length > 0) {
    const now = nowIso(ctx);
    await ctx.db
      .insertInto('comment_reactions')
      .values(added.map((emoji) => ({ subject_id: subjectId, emoji, user_id: userId, created_at: now })))
      .onConflict((oc) => oc.columns(['subject_id', 'emoji', 'user_id']).doNothing())
      .execute();
  }
  if (removed.length > 0) {
    await ctx.db.deleteFrom('comment_reactions').where('subject_id', '=', subjectId).where('user_id', '=', userId).where('emoji', 'in', removed).execute();
  }
}

/** Removes every reaction to these comments and replies (when they are deleted). */
export async function deleteReactions(ctx: Context, subjectIds: string[]): Promise<void> {
  for (let i = 0; i < subjectIds.length; i += 500) {
    await ctx.db.deleteFrom('comment_reactions').where('subject_id', 'in', subjectIds.slice(i, i + 500)).execute();
  }
}

/**
 * The reactions to each subject, grouped by emoji: emoji in the order they were first used (ties by code
 * point), users in the order they reacted (ties by user id). Sorted here rather than by the database, so
 * the order is the same whatever its collation.
 */
export async function loadReactions(ctx: Context, subjectIds: string[]): Promise<Map<string, ReactionView[]>> {
  const bySubject = new Map<string, ReactionView[]>();
  if (subjectIds.length === 0) return bySubject;
  const rows = await ctx.db.selectFrom('comment_reactions').select(['subject_id', 'emoji', 'user_id', 'created_at']).where('subject_id', 'in', subjectIds).execute();
  rows.sort((a, b) => compareText(a.created_at, b.created_at) || compareText(a.emoji, b.emoji) || compareText(a.user_id, b.user_id));
  for (const row of rows) {
    const reactions = bySubject.get(row.subject_id) ?? [];
    bySubject.set(row.subject_id, reactions);
    let reaction = reactions.find((candidate) => candidate.emoji === row.emoji);
    if (!reaction) {
      reaction = { emoji: row.emoji, users: [] };
      reactions.push(reaction);
    }
    reaction.users.push({ userId: row.user_id, reactedAt: row.created_at });
  }
  return bySubject;
}

/** Compares by code units, the same on every machine and database. */

/** The users a set of comments mentions (authors, resolvers, people who reacted), by id, in one query. */
export async function loadUsers(ctx: Context, ids: Iterable<string>): Promise<Map<string, UserRow>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await ctx.db.selectFrom('users').select(['id', 'email', 'display_name', 'photo_url']).where('id', 'in', wanted).execute();
  return new Map(rows.map((row) => [row.id, row]));
}
