import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import { startSession } from '../sessions/sign-in.ts';

export type FederatedMethod = 'oidc' | 'saml' | 'magic-link';

/**
 * The last step of every federated way in: the session module starts the session (it ends any session
 * the request carried, sets the cookie and writes the audit entry), then the person goes where they were
 * going — a path on this server, checked by safeReturnTo before it was stored.
 */
export async function finishSignIn(ctx: Context, request: FastifyRequest, reply: FastifyReply, userId: string, method: FederatedMethod, returnTo: string): Promise<FastifyReply> {
  await startSession(ctx, request, reply, userId, method);
  return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
}
