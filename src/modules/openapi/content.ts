import type { FastifyReply } from 'fastify';
import type { Context } from '../../context.ts';
import type { OpenAPISpecRow } from '../../access/openapi-specs.ts';
import { versionFileUrl } from '../../openapi/urls.ts';

/**
 * A version's content `{ filesystem, url }`. `filesystem` is the array GitBook's renderer reads (one entry
 * point holding the bundled document), not the object the client's document types it (docs/decisions/0003,
 * erratum 30). The stored JSON text is spliced in as it is: a description of many megabytes is sent
 * without being parsed and serialized again.
 */
export function contentResponse(ctx: Pick<Context, 'config'>, reply: FastifyReply, found: { spec: OpenAPISpecRow; version: { id: string; content?: string } }) {
  const url = versionFileUrl(ctx.config.publicUrl, found.spec, found.version.id);
  const body = `{"filesystem":[{"dir":".","filename":"openapi.json","isEntrypoint":true,"references":[],"specification":${found.version.content}}],"url":${JSON.stringify(url)}}`;
  return reply.type('application/json; charset=utf-8').send(body);
}
