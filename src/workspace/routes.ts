import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { serveSite } from '../published/handler.ts';
import { siteByHostname } from '../published/resolve.ts';
import { workspaceBuild } from './build.ts';
import { WORKSPACE_CSP, WORKSPACE_HEADERS } from './headers.ts';
import { requestSessionSecret } from '../sessions/sign-in.ts';
import { signInAddress } from './sign-in-redirect.ts';

/**
 * The workspace: the browser application's HTML shell at `/` and at its client-side paths `/o/…`, and its
 * built files under `/assets/`. A request whose Host is a published site's hostname goes on to the reader,
 * which has precedence on such hosts. Signed out, the shell's addresses send the browser to `/sign-in`.
 */
export const workspaceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const open = { config: { policy: 'public' as const }, schema: { hide: true } };

  /** The reader's answer when the Host is a site's; null otherwise. */
  const siteHost = async (request: FastifyRequest, reply: FastifyReply) => {
    const found = await siteByHostname(request.ctx, request.headers.host, request.protocol, request.url);
    return found ? serveSite(request, reply, found) : null;
  };

  const shell = async (request: FastifyRequest, reply: FastifyReply) => {
    const site = await siteHost(request, reply);
    if (site) return site;
    // Only the cookie's presence is looked at: the shell holds nothing private, and the application asks
    // GET /auth/session itself and goes to the sign-in page when the session has ended.
    if (!requestSessionSecret(request)) {
      return reply.code(302).header('cache-control', 'no-store').header('location', signInAddress(request.url)).send();
    }
    const build = workspaceBuild();
    reply.headers(WORKSPACE_HEADERS).header('cache-control', 'no-store').type('text/html; charset=utf-8');
    if (!build) {
      return reply
        .code(503)
        .header('content-security-policy', WORKSPACE_CSP)
        .send('<!doctype html><meta charset="utf-8"><title>Quire</title><h1>The workspace is not built</h1><p>Run <code>npm run build:web</code> (or <code>npm install</code>, which runs it) and restart Quire.</p>');
    }
    return reply.header('content-security-policy', WORKSPACE_CSP).send(build.shell);
  };
  app.get('/', open, shell);
  app.get('/o', open, shell);
  app.get('/o/*', open, shell);

  app.get('/assets/*', open, async (request, reply) => {
    const site = await siteHost(request, reply);
    if (site) return site;
    const name = (request.params as { '*': string })['*'];
    const asset = workspaceBuild()?.assets.get(name);
    if (!asset) return reply.callNotFound();
    return reply
      .headers(WORKSPACE_HEADERS)
      .header('content-type', asset.type)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('etag', asset.etag)
      .send(asset.body);
  });
};
