import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { stringify as toYaml } from 'yaml';
import { publishedVersion } from './service.ts';

/**
 * Public specs, served without a token: `/openapi/{organizationId}/{slug}` is the latest version
 * (`.json`, `.yaml`, or by `Accept`), `/openapi/{organizationId}/{slug}/versions/{versionId}` one version.
 * A private spec, a missing one and one without a version all get the same 404, so nothing private leaks.
 */
export const publishedOpenAPIRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const split = (file: string) => {
    const match = /^(.+?)(?:\.(json|ya?ml))?$/.exec(file)!;
    return { name: match[1], extension: match[2] };
  };
  const serve = async (request: FastifyRequest, reply: FastifyReply, organizationId: string, slug: string, versionId: string | null, extension: string | undefined) => {
    const yaml = extension ? extension !== 'json' : /\b(application|text)\/(x-)?yaml\b/.test(String(request.headers.accept ?? ''));
    const version = await publishedVersion(request.ctx, organizationId, slug, versionId);
    reply.header('etag', `"${version.content_hash}"`).header('cache-control', 'public, max-age=60').header('access-control-allow-origin', '*').header('vary', 'accept');
    if (request.headers['if-none-match'] === `"${version.content_hash}"`) return reply.code(304).send();
    if (yaml) return reply.type('application/yaml; charset=utf-8').send(toYaml(JSON.parse(version.content), { aliasDuplicateObjects: false }));
    return reply.type('application/json; charset=utf-8').send(version.content);
  };
  const open = { config: { policy: 'public' as const }, schema: { hide: true } };
  app.get('/openapi/:organizationId/:file', open, (request, reply) => {
    const { organizationId, file } = request.params as { organizationId: string; file: string };
    const { name, extension } = split(file);
    return serve(request, reply, organizationId, name, null, extension);
  });
  app.get('/openapi/:organizationId/:slug/versions/:file', open, (request, reply) => {
    const { organizationId, slug, file } = request.params as { organizationId: string; slug: string; file: string };
    const { name, extension } = split(file);
    return serve(request, reply, organizationId, slug, name, extension);
  });
};
