/**
 * The block tags of the page format: `{% name key="value" %}` … `{% endname %}`, and the `<details>` /
 * `<summary>` lines of expandables. This file reads and writes single tags; grouping them into blocks
 * is parse-groups.ts's job.
 */

/** Tags that open a block. Every other `{% … %}` is ordinary text. */
export const CONTAINER_TAGS = ['hint', 'tabs', 'tab', 'code', 'content-ref', 'file', 'embed'] as const;
export type ContainerTag = (typeof CONTAINER_TAGS)[number];

/** An opening or closing tag; `details` stands for `<details>` and `</details>`. */
export interface TagMarker {
  kind: 'open' | 'close';
  name: ContainerTag | 'details';
  attrs: Record<string, string>;
  /** The tag as written, kept so that a tag which cannot be honoured is given back as text. */
  raw: string;
}

/** A `<summary>…</summary>` line; `source` is the Markdown between the two tags. */
export interface SummaryMarker {
  kind: 'summary';
  source: string;
  raw: string;
}

/** A piece of a tag line: a marker, or Markdown text between markers. */
export type LineSegment = TagMarker | SummaryMarker | { kind: 'text'; source: string };

const QUOTED = String.raw`"(?:[^"\\]|\\.)*"`;
const ATTRIBUTES = new RegExp(String.raw`^\s*([A-Za-z][\w-]*)((?:\s+[A-Za-z][\w-]*\s*=\s*${QUOTED})*)\s*$`);
const ATTRIBUTE = new RegExp(String.raw`([A-Za-z][\w-]*)\s*=\s*(${QUOTED})`, 'g');
const SEGMENT = new RegExp(
  [
    String.raw`\{%((?:[^%"]|${QUOTED}|%(?!\}))*)%\}`,
    String.raw`<details(?:\s[^>]*)?>`,
    String.raw`<\/details\s*>`,
    String.raw`<summary>(.*?)(?<!\\)<\/summary>`,
  ].join('|'),
  'g',
);

function isContainerTag(name: string): name is ContainerTag {
  return (CONTAINER_TAGS as readonly string[]).includes(name);
}

/** Reads the inside of `{% … %}`; undefined when it is not a well-formed tag of ours. */
export function readTag(inner: string, raw: string): TagMarker | undefined {
  const match = ATTRIBUTES.exec(inner);
  if (!match) return undefined;
  const name = match[1];
  const attrs: Record<string, string> = {};
  for (const [, key, value] of match[2].matchAll(ATTRIBUTE)) attrs[key] = value.slice(1, -1).replace(/\\(.)/g, '$1');
  if (isContainerTag(name)) return { kind: 'open', name, attrs, raw };
  const closed = name.startsWith('end') ? name.slice(3) : '';
  if (isContainerTag(closed) && match[2].trim() === '') return { kind: 'close', name: closed, attrs: {}, raw };
  return undefined;
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
export function writeTag(name: string, attrs: Record<string, string | undefined> = {}): string {
  const written = Object.entries(attrs)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${value.replace(/[\\"]/g, '\\$&')}"`)
    .join('');
  return `{% ${name}${written} %}`;
}
