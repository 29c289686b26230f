/**
 * A body over the limit is refused with 413 before it has arrived, and the connection is then closed (the
 * client may be sending more). Closing at once loses the answer: the client is still writing, so the data
 * that keeps arriving at a closed socket makes the kernel reset the connection, and a reset discards the
 * 413 the client has not read yet; the client sees "connection reset" instead of the refusal. So after a
 * 413 the server keeps reading (and discarding) the rest of the body, and closes once it has ended, as
 * web servers do ("lingering close"). The wait is bounded in bytes and time, after which the connection is
 * dropped anyway: a client that keeps sending far past the limit gets no more of the server's patience.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';

export interface LingerBounds {
  /** Most bytes read and discarded after the refusal. */
  maxBytes: number;
  /** Longest wait for the rest of the body, in milliseconds. */
  timeoutMs: number;
}

/** Keeps `request`'s socket open until its body has ended (within the bounds), then lets it close. */
export function lingerUntilBodyEnds(request: IncomingMessage, bounds: LingerBounds): void {
  const socket = request.socket;
  // Injected requests (tests) have no real socket to hold.
  if (request.complete || !socket || socket.destroyed || typeof socket.destroySoon !== 'function') return;
  const closeSoon = socket.destroySoon.bind(socket);
  let discarded = 0;
  let answered = false;
  const drop = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(drop, bounds.timeoutMs);
  timer.unref();
  const ended = () => {
    clearTimeout(timer);
    if (answered) closeSoon();
  };
  request.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > bounds.maxBytes) drop();
  });
  request.once('end', ended);
  request.once('error', drop);
  socket.once('close', () => clearTimeout(timer));
  request.resume();
  // Node closes a connection whose answer says `Connection: close` with destroySoon once the answer is
  // written; hold that until the body has ended.
  socket.destroySoon = () => {
    answered = true;
    socket.destroySoon = closeSoon;
    if (request.complete) ended();
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** How long and how much a refused body is read before its connection closes (registerLingeringClose). */
    lingerBounds?: LingerBounds;
  }
}

/**
 * After every 413 on a request whose body has not fully arrived, reads the rest before closing. Every 413
 * leaves through the one error handler (src/http/errors.ts), which calls `lingerAfterRefusal`: no hook runs
 * on the other requests.
 */
export function registerLingeringClose(app: FastifyInstance, bodyLimit: number): void {
  app.decorate('lingerBounds', { maxBytes: Math.max(4 * bodyLimit, 64 * 1024 * 1024), timeoutMs: 30_000 });
}

/** Called with the reply of a 413: keeps the connection until the refused body has ended. */
export function lingerAfterRefusal(reply: FastifyReply): void {
  const bounds = reply.server.lingerBounds;
  if (bounds) lingerUntilBodyEnds(reply.request.raw, bounds);
}
