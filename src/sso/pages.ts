import type { FastifyReply } from 'fastify';
import { escapeAttribute, escapeHtml } from '../published/render/escape.ts';

/**
 * The server-rendered pages of the federated ways in (/sign-in/sso, /sign-in/email and the answers of a
 * flow). Strict CSP as the reader's: no script at all, no inline style; one stylesheet of Quire's own,
 * with light and dark colours. Every text is escaped here; the only HTML taken as is comes from these
 * functions. Forms post to this server only; leaving for an identity provider is a link, never a form,
 * because `form-action 'self'` also governs where a submitted form may be redirected.
 */
export const PAGES_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self' data:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const STYLESHEET_PATH = '/auth/assets/federated.css';

export const STYLESHEET = `:root { color-scheme: light dark; --bg: #f7f7f8; --card: #ffffff; --text: #1d1d21; --muted: #55565e; --line: #d4d5da; --accent: #2452c9; --accent-text: #ffffff; --error: #a3192b; --focus: #f2a900; }
@media (prefers-color-scheme: dark) { :root { --bg: #141518; --card: #1f2025; --text: #ececf0; --muted: #b2b3bb; --line: #3b3d45; --accent: #8fb0ff; --accent-text: #0c1633; --error: #ff9aa6; --focus: #ffd25e; } }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center; background: var(--bg); color: var(--text); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
main { width: min(28rem, 100% - 2rem); background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 2rem; margin: 2rem 0; }
h1 { font-size: 1.5rem; margin: 0 0 1rem; }
p { margin: 0 0 1rem; }
.muted { color: var(--muted); }
.error { color: var(--error); font-weight: 600; }
label { display: block; font-weight: 600; margin: 0 0 .25rem; }
input[type=email], input[type=text] { width: 100%; padding: .6rem .75rem; font: inherit; color: var(--text); background: var(--bg); border: 1px solid var(--line); border-radius: 8px; margin: 0 0 1rem; }
button, .button { display: inline-block; width: 100%; text-align: center; padding: .65rem 1rem; font: inherit; font-weight: 600; color: var(--accent-text); background: var(--accent); border: 0; border-radius: 8px; cursor: pointer; text-decoration: none; margin: 0 0 .75rem; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
ul.providers { list-style: none; padding: 0; margin: 0 0 1rem; }
.or { text-align: center; color: var(--muted); margin: .5rem 0 1rem; }
nav { margin-top: 1.5rem; font-size: .95rem; }
nav a { margin-right: 1rem; }
`;

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · Quire</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
<nav aria-label="Other ways to sign in"><a href="/sign-in">Sign in with a password</a><a href="/sign-in/sso">Single sign-on</a><a href="/sign-in/email">E-mail link</a></nav>
</main>
</body>
</html>
`;
}

export function hidden(name: string, value: string): string {
  return `<input type="hidden" name="${escapeAttribute(name)}" value="${escapeAttribute(value)}">`;
}

export function paragraph(text: string, className?: string): string {
  return `<p${className ? ` class="${className}"` : ''}>${escapeHtml(text)}</p>`;
}

export function link(href: string, text: string, className?: string): string {
  return `<a href="${escapeAttribute(href)}"${className ? ` class="${className}"` : ''}>${escapeHtml(text)}</a>`;
}

/** Sends a page: never cached, never framed, no script. */
export function sendPage(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  return reply
    .code(status)
    .header('content-security-policy', PAGES_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(page(title, body));
}

/** The page of a refused sign-in: what happened and what to do, and a way back. */
export function sendRefusal(reply: FastifyReply, status: number, message: string): FastifyReply {
  return sendPage(reply, status, 'Sign-in refused', `<p class="error" role="alert">${escapeHtml(message)}</p><p>${link('/sign-in', 'Back to sign-in', 'button')}</p>`);
}
