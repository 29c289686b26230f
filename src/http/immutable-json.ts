import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LruCache } from '../lru.ts';

/**
 * Answers of reads whose whole body is a function of immutable content (a revision's tree, a page's body)
 * and of the request's options, serialized once and sent as bytes to every caller who may read them. The
 * key must name everything the body depends on: the content's hash and every option the presenter reads.
 * Access is checked before the key is looked up, so a cached body is only ever sent to a caller the route
 * admitted. Each answer carries an ETag; a caller who has it gets a 304.
 */
interface SerializedBody {
  body: Buffer;
  etag: string;
}

/** At most 128 MB of serialized answers per process. */
const bodies = new LruCache<string, SerializedBody>(10_000, 128 * 1024 * 1024);

export const immutableJsonStats = { serialized: 0 };

/**
 * Sends the answer kept under `key`, or makes, keeps and sends it. A kept answer is sent in the same turn,
 * without a promise (issue 29, decision 0155: the usual case of every read of a space's head).
 */
export function sendImmutableJson(request: FastifyRequest, reply: FastifyReply, key: string, make: () => unknown | Promise<unknown>): FastifyReply | Promise<FastifyReply> {
  const entry = bodies.get(key);
  if (entry) return sendEntry(request, reply, entry);
  return serializeAndSend(request, reply, key, make);
}

async function serializeAndSend(request: FastifyRequest, reply: FastifyReply, key: string, make: () => unknown | Promise<unknown>): Promise<FastifyReply> {
  immutableJsonStats.serialized++;
  // Through the route's response schema, as any answer: the same bytes, made once.
  const body = Buffer.from(reply.serialize(await make()) as string);
  const entry = { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
  bodies.set(key, entry, body.length);
  return sendEntry(request, reply, entry);
}

function sendEntry(request: FastifyRequest, reply: FastifyReply, entry: SerializedBody): FastifyReply {
  reply.header('etag', entry.etag).header('cache-control', 'private, no-cache');
  if (request.headers['if-none-match'] === entry.etag) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(entry.body);
}

/** Answers kept by the object they were made from (see sendJsonOf), with what else they depend on. */
const bodiesOf = new WeakMap<object, { variant: string; body: Buffer }>();

/**
 * Answers whose body is made wholly from `source`, an object shared from memory while it holds and replaced
 * once what it came from changes (an access row of src/db/memo.ts), and from `variant` (what else the
 * presenter reads, e.g. the public URL): serialized through the route's response schema once per source,
 * then the same bytes, with the same headers as a serialized answer. Access is checked before this is
 * called. A source read afresh (memory not in use) is a new object, so it is serialized as before.
 */
export function sendJsonOf(reply: FastifyReply, source: object | undefined, variant: string, make: () => unknown): FastifyReply {
  if (source === undefined) return reply.send(make());
  let kept = bodiesOf.get(source);
  if (!kept || kept.variant !== variant) {
    kept = { variant, body: Buffer.from(reply.serialize(make()) as string) };
    bodiesOf.set(source, kept);
  }
  return reply.type('application/json; charset=utf-8').send(kept.body);
}
