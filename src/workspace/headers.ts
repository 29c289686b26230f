/**
 * The workspace's Content-Security-Policy: the reader's bar (Quire's own scripts and styles only: no inline
 * script, no `<style>` element, no `unsafe-eval`), and stricter on one point: no inline style attribute either,
 * since the editor sets what it must through the DOM (which CSP allows) and styles everything with classes.
 */
export const WORKSPACE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https: data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  // The customization preview frames the reader (same origin, src/published/preview.ts).
  "frame-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const WORKSPACE_HEADERS = Object.freeze({
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
});
