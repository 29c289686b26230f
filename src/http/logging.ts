import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';
import type { LogLevel } from '../config.ts';

// code and state: an OpenID provider's answer (/sso/oidc/{id}/callback); SAMLResponse when sent by redirect.
const SECRET_QUERY = /([?&](?:sharekey|jwt_token|token|key|signature|sig|password|code|state|id_token|access_token|samlresponse|samlrequest)=)[^&]*/gi;

/** Paths whose last segment is a one-time secret (an invite's or a password reset's link). */
const SECRET_PATH = /^(\/(?:invite|reset-password)\/)[^/?#]+/;

/** A URL as it may appear in logs: credentials in the query string, and one-time links' secrets in the path, are replaced. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PATH, '$1[redacted]').replace(SECRET_QUERY, '$1[redacted]');
}

/** Pino options: no header is logged (so neither Authorization nor Cookie), credentials in URLs are redacted. */
export function loggerOptions(level: LogLevel) {
  return {
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.token', '*.password', '*.secret'], censor: '[redacted]' },
    serializers: {
      req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
    },
  };
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogArguments = Parameters<FastifyBaseLogger['info']>;

/**
 * The logger of one request (Fastify's `request.log`), made only when something is logged through it.
 *
 * Fastify makes a child of the app's logger for every request, binding the request's id; pino renders that
 * binding as the child is made, through the redaction of the wildcard paths above (`*.token`): about a
 * microsecond and a few hundred bytes per request (issue 29's profile of every read) for a logger that, at
 * the `warn` level and above, logs nothing on a request that goes well. This one answers for the child
 * until it is needed: a call at a level that is enabled makes the same child (same bindings, same options)
 * and hands the call on, so every line logged is the line the child would have logged.
 */
export class RequestLogger {
  #child: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly childBindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The child Fastify would have made, made now. */
  private made(): Logger {
    return (this.#child ??= this.parent.child(this.childBindings, this.options) as Logger);
  }

  private log(level: Level, args: LogArguments): void {
    if (this.isLevelEnabled(level)) (this.made()[level] as (...args: LogArguments) => void)(...args);
  }

  get level(): string {
    return (this.#child ?? this.parent).level;
  }

  set level(level: string) {
    this.made().level = level;
  }

  isLevelEnabled(level: string): boolean {
    return (this.#child ?? this.parent).isLevelEnabled(level);
  }

  fatal(...args: LogArguments): void {
    this.log('fatal', args);
  }

  error(...args: LogArguments): void {
    this.log('error', args);
  }

  warn(...args: LogArguments): void {
    this.log('warn', args);
  }

  info(...args: LogArguments): void {
    this.log('info', args);
  }

  debug(...args: LogArguments): void {
    this.log('debug', args);
  }

  trace(...args: LogArguments): void {
    this.log('trace', args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.made().child(bindings, options);
  }

  bindings(): Bindings {
    return this.made().bindings();
  }

  setBindings(bindings: Bindings): void {
    this.made().setBindings(bindings);
  }

  flush(callback?: (error?: Error) => void): void {
    this.made().flush(callback);
  }
}

/** Fastify's `childLoggerFactory` when Quire logs (a pino logger): each request's logger, made when first used (RequestLogger). */
export function requestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLogger(logger as Logger, bindings, options) as unknown as FastifyBaseLogger;
}
