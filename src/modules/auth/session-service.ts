import type { FastifyRequest } from 'fastify';
import { requireActor, type Context } from '../../context.ts';
import { NotFound, Unauthorized } from '../../errors.ts';
import { requestSessionSecret } from '../../sessions/sign-in.ts';
import { endSession, endUserSessions, listUserSessions, resolveSession, type ResolvedSession, type SessionRow } from '../../sessions/store.ts';

/** The session the request's cookie names, or a 401 saying how to get one. */
export async function currentSession(ctx: Context, request: FastifyRequest): Promise<ResolvedSession> {
  const secret = requestSessionSecret(request);
  if (secret === undefined) throw new Unauthorized('You are not signed in: sign in at /sign-in.');
  const resolved = await resolveSession(ctx, secret, request.ip ?? null);
  if (!resolved) throw new Unauthorized('Your session has ended (signed out, expired or revoked): sign in again at /sign-in.');
  return resolved;
}

/** The caller's live sessions, most recently used first. */
export function listMySessions(ctx: Context): Promise<SessionRow[]> {
  return listUserSessions(ctx, requireActor(ctx).userId);
}

/** Ends one of the caller's sessions; another user's is not found. */
export async function endMySession(ctx: Context, sessionId: string): Promise<void> {
  if (!(await endSession(ctx, requireActor(ctx).userId, sessionId))) throw new NotFound(`No session "${sessionId}" of yours is active.`);
}

/** Ends every session of the caller ("sign out everywhere"), or every other one when `keepCurrent`. */
export function endMySessions(ctx: Context, keepCurrent: boolean): Promise<number> {
  const actor = requireActor(ctx);
  return endUserSessions(ctx, actor.userId, keepCurrent ? actor.sessionId : undefined);
}
