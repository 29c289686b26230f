/**
 * The block tags of the page format: `{% name key="value" %}` … `{% endname %}`, the tags that stand
 * alone (`{% include "…" %}`, `{% embed url="…" %}`, `{% @integration/block … %}`), and the `<details>` /
 * `<summary>` lines of expandables. This file reads and writes single tags; grouping them into blocks is
 * parse-groups.ts's job.
 */

/** Tags that open a block closed by `{% end<name> %}`. */
export const CONTAINER_TAGS = [
  'hint', 'tabs', 'tab', 'code', 'content-ref', 'file', 'embed',
  'stepper', 'step', 'columns', 'column', 'if', 'updates', 'update',
  'openapi', 'swagger', 'openapi-operation', 'openapi-schemas', 'openapi-webhook',
] as const;
export type ContainerTag = (typeof CONTAINER_TAGS)[number];

/** An opening or closing tag; `details` stands for `<details>` and `</details>`. */
export interface TagMarker {
  kind: 'open' | 'close';
  name: ContainerTag | 'details';
  attrs: Record<string, string>;
  /** What follows the name when it is not `key="value"` pairs (the expression of `{% if … %}`). */
  argument?: string;
  /** The tag as written, kept so that a tag which cannot be honoured is given back as text. */
  raw: string;
}

/**
 * A tag that stands alone: `include` and `page-ref`, an integration block (`{% @github-files/code url="…" %}`,
 * name `@github-files/code`), or a tag of another tool (`{% raw %}`, `{% for … %}`), which the reader shows
 * nothing of and the writer keeps as written.
 */
export interface VoidMarker {
  kind: 'void';
  name: string;
  attrs: Record<string, string>;
  /** A quoted first argument (`{% include "…" %}`), decoded. */
  argument?: string;
  raw: string;
}

/** A `<summary>…</summary>` line; `source` is the Markdown between the two tags. */
export interface SummaryMarker {
  kind: 'summary';
  source: string;
  raw: string;
}

/** A piece of a tag line: a marker, or Markdown text between markers. */
export type LineSegment = TagMarker | VoidMarker | SummaryMarker | { kind: 'text'; source: string };

const QUOTED = String.raw`"(?:[^"\\]|\\.)*"`;
const SINGLE_QUOTED = String.raw`'(?:[^'\\]|\\.)*'`;
const NAME = String.raw`@?[A-Za-z][\w./-]*`;
const ATTRIBUTE = new RegExp(String.raw`([A-Za-z][\w-]*)\s*=\s*(${QUOTED}|${SINGLE_QUOTED}|[^\s"'=%]+)`, 'g');
const ATTRIBUTES_ONLY = new RegExp(String.raw`^(?:\s+[A-Za-z][\w-]*\s*=\s*(?:${QUOTED}|${SINGLE_QUOTED}|[^\s"'=%]+))*\s*$`);
const SEGMENT = new RegExp(
  [
    String.raw`\{%((?:[^%"']|${QUOTED}|${SINGLE_QUOTED}|%(?!\}))*)%\}`,
    String.raw`<details(?:\s[^>]*)?>`,
    String.raw`<\/details\s*>`,
    String.raw`<summary>(.*?)(?<!\\)<\/summary>`,
  ].join('|'),
  'g',
);

function isContainerTag(name: string): name is ContainerTag {
  return (CONTAINER_TAGS as readonly string[]).includes(name);
}

function unquote(value: string): string {
  if (value.startsWith('"') || value.startsWith("'")) return value.slice(1, -1).replace(/\\(.)/g, '$1');
  return value;
}

function readAttributes(text: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const [, key, value] of text.matchAll(ATTRIBUTE)) attrs[key] = unquote(value);
  return attrs;
}

/** Reads the inside of `{% … %}`; undefined when it is not a tag at all (`{%%}`, `{% "x" %}`). */
export function readTag(inner: string, raw: string): TagMarker | VoidMarker | undefined {
  const match = new RegExp(String.raw`^\s*(${NAME})([\s\S]*)$`).exec(inner);
  if (!match) return undefined;
  const [, name, rest] = match;
  if (name === 'if' || name === 'elif') {
    const argument = rest.trim();
    return name === 'if' && argument ? { kind: 'open', name: 'if', attrs: {}, argument, raw } : { kind: 'void', name, attrs: {}, raw };
  }
  if (isContainerTag(name) && ATTRIBUTES_ONLY.test(rest)) return { kind: 'open', name, attrs: readAttributes(rest), raw };
  const closed = name.startsWith('end') ? name.slice(3) : '';
  if (isContainerTag(closed) && rest.trim() === '') return { kind: 'close', name: closed, attrs: {}, raw };
  const quoted = new RegExp(String.raw`^\s+(${QUOTED}|${SINGLE_QUOTED})`).exec(rest);
  const marker: VoidMarker = { kind: 'void', name, attrs: readAttributes(quoted ? rest.slice(quoted[0].length) : rest), raw };
  if (quoted) marker.argument = unquote(quoted[1]);
  return marker;
}

/** Splits a tag line into markers and the Markdown between them. */
export function splitTagLine(line: string): LineSegment[] {
  const segments: LineSegment[] = [];
  let last = 0;
  const pushText = (source: string) => {
    if (source.trim() !== '') segments.push({ kind: 'text', source });
  };
  for (const match of line.matchAll(SEGMENT)) {
    const raw = match[0];
    const start = match.index ?? 0;
    let marker: LineSegment | undefined;
    if (raw.startsWith('{%')) marker = readTag(match[1], raw);
    else if (raw.startsWith('<summary')) marker = { kind: 'summary', source: match[2], raw };
    else marker = { kind: raw.startsWith('</') ? 'close' : 'open', name: 'details', attrs: {}, raw };
    if (!marker) continue;
    pushText(line.slice(last, start));
    segments.push(marker);
    last = start + raw.length;
  }
  pushText(line.slice(last));
  return segments;
}

/** Writes a tag: `{% name key="value" %}`, attributes in the order given, undefined ones left out. */
export function writeTag(name: string, attrs: Record<string, string | undefined> = {}, argument?: string): string {
  const written = Object.entries(attrs)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${value.replace(/[\\"]/g, '\\$&')}"`)
    .join('');
  return `{% ${name}${argument === undefined ? '' : ` ${argument}`}${written} %}`;
}
