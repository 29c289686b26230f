/**
 * Escaping for the published HTML, and the one gate every URL taken from content goes through.
 */

const HTML_SPECIAL = /[&<>"']/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe to place between tags. Quotes are escaped too, so the same text may go in an attribute. */
export function escapeHtml(text: string): string {
  return text.replace(HTML_SPECIAL, (char) => ENTITIES[char]);
}

/** A value made safe for a double-quoted attribute. */
export function escapeAttribute(value: string): string {
  return escapeHtml(value);
}

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const ALLOWED_SCHEMES: ReadonlySet<string> = new Set(['http', 'https', 'mailto']);

/**
 * The URL as it may be written in an `href` or `src`, or null when its scheme is not http, https or mailto
 * (`javascript:`, `data:`, `vbscript:` …). URLs without a scheme (paths, `#anchors`, `?queries`) are
 * relative and allowed.
 */
export function safeUrl(url: string): string | null {
  // Browsers drop tabs and line breaks anywhere in a URL, and controls and spaces at its ends, before
  // they read the scheme: `java\tscript:` must be judged as the `javascript:` it becomes.
  const cleaned = url.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  if (cleaned === '') return null;
  const scheme = SCHEME.exec(cleaned);
  if (scheme && !ALLOWED_SCHEMES.has(scheme[1].toLowerCase())) return null;
  return cleaned;
}
