import type { Context } from '../../context.ts';
import { nowIso, requireActor } from '../../context.ts';
import { authorize, type CommentActor, type CommentChange } from '../../policy/index.ts';
import { checkEmoji } from './bodies.ts';
import { applyReactions } from './reactions.ts';
import type { BodyInput } from './schemas.ts';

/** What an update of a comment or a reply may carry (a comment's also `resolved`, handled by its service). */
export interface EditInput {
  body?: BodyInput;
  resolved?: boolean;
  addedReactions?: string[];
  removedReactions?: string[];
}

/** An update, checked: which parts it changes, the new body as stored, and the caller's reactions. */
export interface Edit {
  change: CommentChange;
  body: string | undefined;
  added: string[];
  removed: string[];
}

/** Checks each part of an update with its own policy, so a refusal says which part is not allowed. */
export function authorizeChange(ctx: Context, actor: CommentActor, input: EditInput): CommentChange {
  const change: CommentChange = {
    body: input.body !== undefined,
    resolved: input.resolved !== undefined,
    reactions: input.addedReactions !== undefined || input.removedReactions !== undefined,
  };
  if (change.body) authorize(ctx, 'comment.edit', actor);
  if (change.resolved) authorize(ctx, 'comment.resolve', actor);
  if (change.reactions) authorize(ctx, 'comment.react', actor);
  return change;
}

/**
 * Reads an update of a comment or a reply written by `actor`: each part checked, then the whole with
 * comment.update. `body` is the new body as readBody read it, before the transaction.
 */
export function readEdit(tx: Context, actor: CommentActor, input: EditInput, body: string | undefined): Edit {
  const change = authorizeChange(tx, actor, input);
  authorize(tx, 'comment.update', actor, change);
  const added = checkEmoji(input.addedReactions, 'addedReactions');
  const removed = checkEmoji(input.removedReactions, 'removedReactions');
  return { change, body, added, removed };
}

/**
 * Applies the body and the caller's reactions of an update to a comment or a reply. A body that changes
 * the text sets editedAt; the same text again changes nothing.
 */
export async function applyEdit(tx: Context, table: 'comments' | 'comment_replies', row: { id: string; body: string }, edit: Edit): Promise<void> {
  const now = nowIso(tx);
  if (edit.body !== undefined && edit.body !== row.body) {
    await tx.db.updateTable(table).set({ body: edit.body, edited_at: now, updated_at: now }).where('id', '=', row.id).execute();
  }
  if (edit.change.reactions) await applyReactions(tx, row.id, requireActor(tx).userId, edit.added, edit.removed);
}
