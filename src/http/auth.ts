import type { FastifyRequest } from 'fastify';
import { Unauthorized } from '../errors.ts';
import { hashToken } from '../secrets.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** onRequest hook of /v1: the Bearer token names the acting user; a missing or unknown token is a 401. */
export async function authenticate(request: FastifyRequest): Promise<void> {
  const header = request.headers.authorization;
  if (!header) throw new Unauthorized();
  const match = BEARER.exec(header);
  if (!match) throw new Unauthorized('The Authorization header must be "Bearer <token>".');
  const row = await request.ctx.db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .select(['users.id', 'users.email'])
    .where('api_tokens.token_hash', '=', hashToken(match[1]))
    .executeTakeFirst();
  if (!row) throw new Unauthorized('The API token is not valid: it is unknown or has been revoked.');
  request.ctx.actor = { userId: row.id, email: row.email };
}
