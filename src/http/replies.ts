import type { FastifyReply, onSendHookHandler } from 'fastify';

/** Ends a removal: 205 when something was removed, 204 when there was nothing to remove; no body either way. */
export function replyRemoval(reply: FastifyReply, removed: boolean) {
  return reply.code(removed ? 205 : 204).send();
}

/** Ends a successful change that answers nothing: 204 with no body. */
export function replyNoContent(reply: FastifyReply) {
  return reply.code(204).send();
}

/** A Content-Disposition header (RFC 6266 / 5987): a plain fallback name and the exact UTF-8 one. */
export function contentDisposition(inline: boolean, name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${inline ? 'inline' : 'attachment'}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Answers at least this long (characters of serialized JSON) are encoded once by `encodeOnce`. */
const ENCODE_ONCE_FROM = 16_384;

/**
 * An onSend hook for routes whose answers run to a hundred kilobytes (search: 100 pages with their snippets):
 * the serialized JSON encoded to UTF-8 once, here. Left a string, Fastify reads it once to count its bytes for
 * Content-Length and Node's socket encodes it again as it writes it; a Buffer is written as it is. Snippets hold
 * "…" and highlighted text passed through private-use marks, so these strings are two-byte ones, whose every
 * pass is a full conversion (docs/performance.md, "Organization search: the request profiled stage by stage").
 */
export const encodeOnce: onSendHookHandler<unknown> = (_request, _reply, payload, done) => {
  done(null, typeof payload === 'string' && payload.length >= ENCODE_ONCE_FROM ? Buffer.from(payload, 'utf8') : payload);
};
