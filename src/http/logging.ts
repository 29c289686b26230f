import type { FastifyRequest } from 'fastify';
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
