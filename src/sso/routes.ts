import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Mailer } from '../mail/mailer.ts';
import { findSsoChoices } from './choice.ts';
import { finishSignIn, type FederatedMethod } from './finish.ts';
import { browserId, checkFormProof, formProof, sendMagicLink, useMagicLink } from './magic-link.ts';
import { finishOidcSignIn, startOidcSignIn } from './oidc-flow.ts';
import { sendPage, sendRefusal, STYLESHEET, STYLESHEET_PATH } from './pages.ts';
import { confirmLink, emailForm, emailOff, emailSent, ssoChoices, ssoForm } from './pages-content.ts';
import { SignInRefused } from './refusal.ts';
import { safeReturnTo } from '../sessions/sign-in.ts';
import { finishSamlSignIn, samlMetadata, startSamlSignIn } from './saml-flow.ts';

/**
 * The federated ways in, served at the root: /sso/oidc/{id}/…, /sso/saml/{id}/… (the addresses the
 * providers' `service` members name), /sign-in/sso and /sign-in/email. Routes only route: the flows live
 * in oidc-flow.ts, saml-flow.ts and magic-link.ts, and end in finishSignIn. None of these is part of the
 * JSON API: every answer is a page or a redirect, and a refusal is a page that says what to do.
 */
export interface SsoRouteOptions {
  mailer: Mailer;
}

type Form = Record<string, string>;

const FORM_LIMIT = 512 * 1024;
const open = { config: { policy: 'public' as const }, schema: { hide: true } };

function field(body: unknown, name: string): string | undefined {
  const value = (body as Form | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

function query(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

async function guarded(request: FastifyRequest, reply: FastifyReply, work: () => Promise<FastifyReply>): Promise<FastifyReply> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SignInRefused) {
      // Only the fixed reason word: never the request's query, body or a library's message.
      request.log.warn({ reason: error.reason }, 'federated sign-in refused');
      return sendRefusal(reply, error.status, error.message);
    }
    throw error;
  }
}

async function signedIn(request: FastifyRequest, reply: FastifyReply, method: FederatedMethod, result: { userId: string; returnTo: string }): Promise<FastifyReply> {
  return finishSignIn(request.ctx, request, reply, result.userId, method, result.returnTo);
}

export async function ssoRoutes(app: FastifyInstance, options: SsoRouteOptions): Promise<void> {
  const { mailer } = options;
  // Forms and the identity provider's POST arrive form-encoded; only in this area.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  app.get(STYLESHEET_PATH, open, async (_request, reply) => reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(STYLESHEET));

  // OpenID Connect
  app.get('/sso/oidc/:providerId/start', open, (request, reply) =>
    guarded(request, reply, () => startOidcSignIn(request.ctx, reply, (request.params as { providerId: string }).providerId, safeReturnTo(query(request, 'returnTo')))),
  );
  app.get('/sso/oidc/:providerId/callback', open, (request, reply) =>
    guarded(request, reply, async () => signedIn(request, reply, 'oidc', await finishOidcSignIn(request.ctx, request, reply, (request.params as { providerId: string }).providerId))),
  );

  // SAML 2.0
  app.get('/sso/saml/:providerId/start', open, (request, reply) =>
    guarded(request, reply, () => startSamlSignIn(request.ctx, reply, (request.params as { providerId: string }).providerId, safeReturnTo(query(request, 'returnTo')))),
  );
  app.post('/sso/saml/:providerId/acs', open, (request, reply) =>
    guarded(request, reply, async () => {
      const samlResponse = field(request.body, 'SAMLResponse');
      if (!samlResponse) throw new SignInRefused('This address receives the answers of an identity provider, and this request carried none. Start again from the sign-in page.', 'no-saml-response');
      return signedIn(request, reply, 'saml', await finishSamlSignIn(request.ctx, request, reply, (request.params as { providerId: string }).providerId, samlResponse));
    }),
  );
  app.get('/sso/saml/:providerId/metadata', open, (request, reply) =>
    guarded(request, reply, async () =>
      reply.type('application/samlmetadata+xml; charset=utf-8').header('cache-control', 'no-cache').send(await samlMetadata(request.ctx, (request.params as { providerId: string }).providerId)),
    ),
  );

  // Choosing single sign-on by address or organization
  app.get('/sign-in/sso', open, async (request, reply) => sendPage(reply, 200, 'Single sign-on', ssoForm(safeReturnTo(query(request, 'returnTo')))));
  app.post('/sign-in/sso', open, async (request, reply) => {
    const returnTo = safeReturnTo(field(request.body, 'returnTo'));
    const email = field(request.body, 'email')?.slice(0, 254) ?? '';
    const organization = field(request.body, 'organization')?.slice(0, 100);
    const choices = await findSsoChoices(request.ctx, { email, organization });
    if (choices.length === 0) {
      return sendPage(reply, 200, 'Single sign-on', ssoForm(returnTo, email, 'No single sign-on is set up for this address or organization. Check it, or sign in with your password or an e-mail link.'));
    }
    return sendPage(reply, 200, 'Single sign-on', ssoChoices(choices, returnTo));
  });

  // Magic links
  app.get('/sign-in/email', open, async (request, reply) => {
    if (!mailer.enabled) return sendPage(reply, 200, 'Sign in with an e-mail link', emailOff());
    const browser = browserId(request.ctx, request, reply);
    return sendPage(reply, 200, 'Sign in with an e-mail link', emailForm(safeReturnTo(query(request, 'returnTo')), formProof(request.ctx, browser)));
  });
  app.post('/sign-in/email', open, (request, reply) =>
    guarded(request, reply, async () => {
      if (!mailer.enabled) return sendPage(reply, 200, 'Sign in with an e-mail link', emailOff());
      const browser = checkFormProof(request.ctx, request, field(request.body, '_form'));
      const email = field(request.body, 'email') ?? '';
      if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) {
        return sendPage(reply, 400, 'Sign in with an e-mail link', `<p class="error" role="alert">Give an e-mail address such as ada@example.com.</p>${emailForm(safeReturnTo(field(request.body, 'returnTo')), formProof(request.ctx, browser))}`);
      }
      await sendMagicLink(request.ctx, mailer, request, browser, email, safeReturnTo(field(request.body, 'returnTo')));
      return sendPage(reply, 200, 'Check your mail', emailSent());
    }),
  );
  app.get('/sign-in/email/verify', open, async (request, reply) => {
    const token = query(request, 'token') ?? '';
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return sendRefusal(reply, 400, 'This sign-in link is incomplete. Copy the whole link from the mail, or ask for a new one.');
    const browser = browserId(request.ctx, request, reply);
    return sendPage(reply, 200, 'Sign in', confirmLink(token, formProof(request.ctx, browser)));
  });
  app.post('/sign-in/email/verify', open, (request, reply) =>
    guarded(request, reply, async () => {
      checkFormProof(request.ctx, request, field(request.body, '_form'));
      return signedIn(request, reply, 'magic-link', await useMagicLink(request.ctx, request, field(request.body, 'token')));
    }),
  );
}
