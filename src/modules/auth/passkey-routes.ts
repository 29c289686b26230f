import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { Forbidden, Unauthorized } from '../../errors.ts';
import { rotateSession, safeReturnTo, startSession, type SignInMethod } from '../../sessions/sign-in.ts';
import { fromOwnOrigin, pageSession } from './forms.ts';
import { registerPasskey, registrationOptions, secondFactorOptions, signInOptions, signInWithPasskey, verifyPasskey } from './passkey-service.ts';
import { endSecondFactor, pendingSecondFactor } from './second-factor.ts';

interface CeremonyBody {
  ceremony?: string;
  response?: unknown;
  name?: string;
  returnTo?: string;
}

function body(request: FastifyRequest): CeremonyBody {
  const value = request.body;
  return value && typeof value === 'object' ? (value as CeremonyBody) : {};
}

/** A request made without a session must still come from Quire's own pages. */
function ownOrigin(request: FastifyRequest): void {
  if (!fromOwnOrigin(request)) throw new Forbidden('This request came from another site: refused as a possible cross-site request forgery (CSRF).');
}

/**
 * The JSON half of passkeys, called by /auth/assets/passkeys.js: register (signed in, with X-CSRF-Token),
 * sign in, and the second factor of a password sign-in. Quire's own, outside /v1 (a browser's ceremony).
 */
export const passkeyRoutes: FastifyPluginAsync = async (app) => {
  const open = { config: { policy: 'public' as const }, schema: { hide: true } };

  app.post('/auth/passkeys/register/options', open, async (request) => {
    const session = await pageSession(request);
    if (!session) throw new Unauthorized('Sign in first to add a passkey.');
    return registrationOptions(request.ctx, session.user.id);
  });

  app.post('/auth/passkeys/register/verify', open, async (request, reply) => {
    const session = await pageSession(request);
    if (!session) throw new Unauthorized('Sign in first to add a passkey.');
    const { ceremony, response, name } = body(request);
    await registerPasskey(request.ctx, session.user.id, String(ceremony ?? ''), response as RegistrationResponseJSON, String(name ?? ''));
    // A new way in is a change of privilege: a new session id.
    await rotateSession(request.ctx, request, reply, session.user.id, session.session.method as SignInMethod);
    return { redirect: '/account?done=passkey-added' };
  });

  app.post('/auth/passkeys/sign-in/options', open, async (request) => {
    ownOrigin(request);
    return signInOptions(request.ctx, safeReturnTo(body(request).returnTo));
  });

  app.post('/auth/passkeys/sign-in/verify', open, async (request, reply) => {
    ownOrigin(request);
    const { ceremony, response } = body(request);
    const { userId, returnTo } = await signInWithPasskey(request.ctx, String(ceremony ?? ''), response as AuthenticationResponseJSON);
    await startSession(request.ctx, request, reply, userId, 'passkey');
    return { redirect: returnTo };
  });

  app.post('/auth/passkeys/second-factor/options', open, async (request) => {
    ownOrigin(request);
    const pending = await pendingSecondFactor(request.ctx, request);
    if (!pending) throw new Unauthorized('This sign-in has expired: sign in with your password again.');
    return { ceremony: '', options: await secondFactorOptions(request.ctx, pending.id, pending.userId) };
  });

  app.post('/auth/passkeys/second-factor/verify', open, async (request, reply) => {
    ownOrigin(request);
    const pending = await pendingSecondFactor(request.ctx, request);
    if (!pending) throw new Unauthorized('This sign-in has expired: sign in with your password again.');
    // The challenge is used once, whatever the outcome.
    await endSecondFactor(request.ctx, reply, pending.id);
    await verifyPasskey(request.ctx, body(request).response as AuthenticationResponseJSON, pending.challenge, pending.userId);
    await startSession(request.ctx, request, reply, pending.userId, 'password');
    return { redirect: pending.returnTo };
  });
};
