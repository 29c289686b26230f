import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { assetVersion, findAsset } from './assets.ts';
import { serveSite, serveSpace } from './handler.ts';
import { spaceByAddress } from './space-address.ts';
import { answerWarm } from './warm-pages.ts';
import { bareErrorPage } from './layout.ts';
import { siteByAddress, siteByHostname, type SiteAddressing } from './resolve.ts';

/**
 * The published reader: sites as HTML, at `/sites/{organizationId}/{basename}/…` under Quire's public URL
 * and at the root of their own hostname, and the reader's static files under `/~quire/`. Routes only
 * route; src/published/handler.ts does the work.
 */
export const publishedRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const site = async (request: FastifyRequest, reply: FastifyReply, find: () => Promise<SiteAddressing | null>) => {
    try {
      return await serveSite(request, reply, await find());
    } catch (error) {
      // A reader gets an HTML page, never the API's JSON error body.
      request.log.error({ err: error }, 'published page failed');
      return reply.code(500).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(bareErrorPage(500, 'Something went wrong', 'This page could not be shown. Try again in a moment.'));
    }
  };

  // A warm page is answered by the first of the route's own hooks, before the handler (warm-pages.ts).
  const byPath = { config: { policy: 'site.readPublished' as const }, schema: { hide: true }, onRequest: answerWarm };
  app.get('/sites/:organizationId/:basename', byPath, (request, reply) => site(request, reply, () => siteByAddress(request.ctx, request.url)));
  app.get('/sites/:organizationId/:basename/*', byPath, (request, reply) => site(request, reply, () => siteByAddress(request.ctx, request.url)));

  // A public or unlisted space at its own published address.
  const space = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      return await serveSpace(request, reply, await spaceByAddress(request.ctx, request.url));
    } catch (error) {
      request.log.error({ err: error }, 'published space failed');
      return reply.code(500).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(bareErrorPage(500, 'Something went wrong', 'This page could not be shown. Try again in a moment.'));
    }
  };
  app.get('/s/:spaceId', byPath, space);
  app.get('/s/:spaceId/*', byPath, space);

  // What readers' browsers send about their reading (src/published/insights.ts): small JSON bodies only.
  const beacon = { config: { policy: 'site.readPublished' as const }, schema: { hide: true }, bodyLimit: 8 * 1024 };
  app.post('/sites/:organizationId/:basename/~insights', beacon, (request, reply) => site(request, reply, () => siteByAddress(request.ctx, request.url)));
  app.post('/~insights', beacon, async (request, reply) => {
    const found = await siteByHostname(request.ctx, request.headers.host, request.protocol, request.url);
    if (!found) return reply.callNotFound();
    return site(request, reply, async () => found);
  });

  // A site with a hostname is served at the root of that host: every address no other route takes.
  app.get('/*', byPath, async (request, reply) => {
    const found = await siteByHostname(request.ctx, request.headers.host, request.protocol, request.url);
    if (!found) return reply.callNotFound();
    return site(request, reply, async () => found);
  });

  app.get('/~quire/:version/*', { config: { policy: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const { version, '*': name } = request.params as { version: string; '*': string };
    const asset = findAsset(name);
    if (!asset) return reply.callNotFound();
    // Only the current version's address may be kept forever; an old one still works but is revalidated.
    const immutable = version === assetVersion();
    if (asset.csp) reply.header('content-security-policy', asset.csp);
    return reply
      .header('content-type', asset.type)
      .header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, no-cache')
      .header('etag', asset.etag)
      .header('x-content-type-options', 'nosniff')
      .send(asset.body);
  });
};
