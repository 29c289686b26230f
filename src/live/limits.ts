import { QuireError } from '../errors.ts';
import type { Config } from '../config.ts';

/**
 * A live connection refused or closed, with a WebSocket close code of the application range (4000–4999) and
 * a reason short enough for a close frame (123 bytes). Hocuspocus sends `reason` to the client with the
 * close (or as the permission-denied reason of a refused authentication).
 */
export class LiveRefusal extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** A refusal for what an authentication or a re-check threw: the API's status in the 4xxx range. */
export function refusalOf(error: unknown): LiveRefusal {
  if (error instanceof LiveRefusal) return error;
  if (error instanceof QuireError && error.status < 500) return new LiveRefusal(4000 + error.status, error.message.slice(0, 120));
  return new LiveRefusal(4500, 'could not check access; try again');
}

/**
 * Per connection: the largest message, and a rate of messages (a token bucket holding one second's worth,
 * refilled continuously). Past either, the connection is closed with the reason.
 */
export class LiveLimits {
  private tokens: number;
  private at = performance.now();

  constructor(private readonly config: Config['live']) {
    this.tokens = config.maxUpdatesPerSecond;
  }

  take(bytes: number): void {
    if (bytes > this.config.maxUpdateBytes) throw new LiveRefusal(4400, `update too large: at most ${this.config.maxUpdateBytes} bytes per message`);
    const now = performance.now();
    const rate = this.config.maxUpdatesPerSecond;
    this.tokens = Math.min(rate, this.tokens + ((now - this.at) / 1000) * rate);
    this.at = now;
    if (this.tokens < 1) throw new LiveRefusal(4429, `too many updates: at most ${rate} messages a second`);
    this.tokens -= 1;
  }
}
