/**
 * The little HTML the page format uses (figures, inline images, `<mark>`, aligned paragraphs): reading
 * and writing tag attributes, and the character references that appear in them.
 */

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes `&amp;`, `&quot;`, `&#39;`, `&#x27;` and the like. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** Escapes a value for a double-quoted attribute. */
export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The attributes of one start tag (`<img src="a.png" alt="">`), names lower-cased, values decoded. */
export function readAttributes(tag: string): Map<string, string> {
  const attributes = new Map<string, string>();
  const body = tag.replace(/^<[A-Za-z][\w-]*/, '').replace(/\/?>$/, '');
  for (const match of body.matchAll(/([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
    attributes.set(match[1].toLowerCase(), decodeEntities(match[2] ?? match[3] ?? match[4] ?? ''));
  }
  return attributes;
}

/** Writes a start tag; undefined attributes are left out. */
export function writeStartTag(name: string, attributes: Array<[string, string | undefined]>): string {
  const written = attributes
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${escapeAttribute(value)}"`)
    .join('');
  return `<${name}${written}>`;
}

/** The name of a lone start or end tag (`<sup>` → sup, `</sup>` → /sup), or undefined. */
export function tagName(html: string): string | undefined {
  const match = /^<(\/?)([A-Za-z][\w-]*)(?:\s[^>]*)?\/?>$/.exec(html.trim());
  return match ? `${match[1]}${match[2].toLowerCase()}` : undefined;
}
