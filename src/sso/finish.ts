import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';

export type FederatedMethod = 'oidc' | 'saml' | 'magic-link';

/**
 * The last step of every federated way in: the session is started (the one session module rotates any
 * session the request carried, sets the cookie and writes the audit entry), then the person goes where
 * they were going — a path on this server, checked by safeReturnTo before it was stored.
 */
export async function finishSignIn(ctx: Context, request: FastifyRequest, reply: FastifyReply, userId: string, method: FederatedMethod, returnTo: string): Promise<FastifyReply> {
  await startSessionPending(ctx, request, reply, userId, method);
  return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
}

/** Stands in for the session module's startSession until it is available. */
async function startSessionPending(_ctx: Context, request: FastifyRequest, _reply: FastifyReply, _userId: string, method: FederatedMethod): Promise<void> {
  request.log.info({ method }, 'federated sign-in accepted (sessions not available yet)');
}
