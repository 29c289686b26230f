import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { allows } from '../policy/index.ts';
import { siteView } from '../published/model.ts';
import type { SiteAddressing } from '../published/resolve.ts';
import { identifyVisitor, siteAudience, unsignedClaimsFromQuery } from '../sites/visitor.ts';
import { docsServer } from './docs-server.ts';

/**
 * A site's MCP endpoint (`{site}/~mcp`), Streamable HTTP, stateless: each request gets a fresh server
 * bound to what its caller may read. The audience rule is the HTML's (site.readPublished); an assistant
 * carries its credential in the Authorization header (`Bearer <visitor JWT>` on a visitor-auth site,
 * `Bearer <share key>` on a share-link site) or, like a browser, in `?jwt_token=` / `?share=`.
 */

function jsonRpcError(reply: FastifyReply, status: number, message: string, headers: Record<string, string> = {}): FastifyReply {
  return reply.code(status).headers({ 'cache-control': 'no-store', ...headers }).type('application/json').send(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }));
}

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

export async function serveMcp(request: FastifyRequest, reply: FastifyReply, addressing: SiteAddressing | null): Promise<FastifyReply> {
  const notFound = 'There is no documentation at this address.';
  if (!addressing) return jsonRpcError(reply, 404, notFound);
  const { site } = addressing;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const fromQuery = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);
  const credential = bearer(request);
  const visitor = await identifyVisitor(request.ctx, site, {
    shareKey: site.visibility === 'share-link' ? (credential ?? fromQuery('share')) : undefined,
    jwt: site.visibility === 'visitor-auth' ? (credential ?? fromQuery('jwt_token')) : undefined,
    unsigned: unsignedClaimsFromQuery(query),
  });
  const audience = siteAudience(site, visitor, false);
  if (!allows(request.ctx, 'site.readPublished', audience)) {
    if (audience.published && site.visibility === 'visitor-auth') {
      return jsonRpcError(reply, 401, 'This documentation is for signed-in readers: send your visitor token as "Authorization: Bearer <token>".', { 'www-authenticate': 'Bearer realm="documentation"' });
    }
    return jsonRpcError(reply, 404, notFound);
  }
  if (request.method !== 'POST') {
    // Stateless: no stream to resume and no session to end.
    return jsonRpcError(reply, 405, 'This MCP server is stateless: send each JSON-RPC message with POST.', { allow: 'POST' });
  }
  const view = await siteView(request.ctx, addressing, addressing.live, visitor.claims);
  const server = docsServer({ ctx: request.ctx, view, live: addressing.live, claims: visitor.claims });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  reply.hijack();
  reply.raw.setHeader('cache-control', 'no-store');
  reply.raw.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request.raw, reply.raw, request.body);
  return reply;
}
