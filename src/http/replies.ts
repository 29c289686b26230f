import type { FastifyReply } from 'fastify';

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
