import type { FastifyReply } from 'fastify';
import { escapeHtml } from '../../../published/render/escape.ts';

/**
 * The frame of Quire's server-rendered sign-in and account pages: one stylesheet and (where a page needs
 * it) scripts, all from /auth/assets/, under a strict Content-Security-Policy: no inline script or style,
 * no framing, forms only to Quire itself.
 */
export const AUTH_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https: data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export { escapeHtml };

/** A tagged template's values escaped, unless they are already `Html`. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Value = string | number | Html | undefined | null | false | Array<Html | string>;

function render(value: Value): string {
  if (value === undefined || value === null || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map((item) => render(item)).join('');
  return escapeHtml(String(value));
}

/** HTML from a template, every interpolated value escaped. */
export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0];
  values.forEach((value, index) => {
    out += render(value) + strings[index + 1];
  });
  return new Html(out);
}

export interface PageOptions {
  title: string;
  body: Html;
  /** Scripts of /auth/assets/ the page runs (deferred). */
  scripts?: string[];
}

export function page({ title, body, scripts = [] }: PageOptions): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="same-origin">
<title>${title} · Quire</title>
<link rel="stylesheet" href="/auth/assets/auth.css">
${scripts.map((name) => html`<script defer src="/auth/assets/${name}"></script>`)}
</head>
<body>
${body}
</body>
</html>
`.text;
}

/** Sends a page with the security headers every sign-in page carries; never cached. */
export function sendPage(reply: FastifyReply, status: number, document: string): FastifyReply {
  return reply
    .code(status)
    .header('content-security-policy', AUTH_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'same-origin')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(document);
}

/** A notice at the top of a form: an error (announced at once) or a confirmation. */
export function notice(kind: 'error' | 'success', text: string | undefined): Html {
  if (!text) return html``;
  return kind === 'error' ? html`<p class="notice notice-error" role="alert">${text}</p>` : html`<p class="notice notice-success" role="status">${text}</p>`;
}

/** The hidden field that carries the session's CSRF token in a form. */
export function csrfField(token: string): Html {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}
