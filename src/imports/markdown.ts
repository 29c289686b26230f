import { BadRequest } from '../errors.ts';
import { normalizeSource } from '../content/markdown/index.ts';
import { readFrontmatter, writeFrontmatter } from '../content/markdown/frontmatter.ts';
import type { Frontmatter, JsonValue } from '../content/markdown/types.ts';
import { storedLayout, type LayoutOptions } from '../content/nodes.ts';
import type { ImportedPage, PageSettings } from './types.ts';

/**
 * One Markdown file as a page. Front matter is honoured: `title`, `description`, `icon`, `emoji`, `hidden`,
 * `noIndex` and `layout` (width, and `{ visible }` for title, description, tableOfContents, outline,
 * pagination, metadata and cover) become the page's settings; other keys stay in the body's front matter.
 * A first-level heading at the top is the page's title and leaves the body (unless the title was given
 * elsewhere and differs from it).
 */

const FRONTMATTER = /^---[ \t]*\n([\s\S]*?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)/;
const HEADING_1 = /^#[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/;

export interface MarkdownPageOptions {
  key: string;
  /** The title when the file gives none (from the file name, usually). */
  fallbackTitle: string;
  /** A title given by the layout (SUMMARY.md): it wins over the file's own. */
  title?: string;
  /** The name shown in error messages. */
  name?: string;
}

/** "getting-started.md" → "Getting started". */
export function titleFromName(name: string): string {
  const base = name.replace(/\.[^./]+$/, '').replace(/[-_]+/g, ' ').trim();
  return base ? base[0].toUpperCase() + base.slice(1) : 'Untitled';
}

/** The text of a heading written in Markdown, without inline HTML, emphasis marks or escapes. */
function plainTitle(text: string): string {
  return text
    .replace(/<[^>]*>/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`]+/g, '')
    .replace(/\\(.)/g, '$1')
    .trim();
}

function text(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

function visible(value: JsonValue | undefined): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value && typeof value === 'object' && !Array.isArray(value) && typeof value.visible === 'boolean') return value.visible;
  return undefined;
}

/** The `layout` of front matter, as stored layout options. */
function layoutOf(value: JsonValue | undefined): PageSettings['layout'] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const options: Partial<LayoutOptions> = {};
  if (value.width === 'wide' || value.width === 'default') options.width = value.width;
  for (const key of ['title', 'description', 'tableOfContents', 'outline', 'pagination', 'metadata', 'cover'] as const) {
    const shown = visible(value[key]);
    if (shown !== undefined) options[key] = shown;
  }
  const cover = value.cover;
  if (cover && typeof cover === 'object' && !Array.isArray(cover) && (cover.size === 'hero' || cover.size === 'full')) options.coverSize = cover.size;
  return storedLayout(options);
}

const SETTINGS_KEYS = ['title', 'description', 'icon', 'emoji', 'hidden', 'noIndex', 'layout'];

/** Splits front matter from a Markdown text; the settings it gives, and the rest of the front matter. */
export function splitFrontmatter(source: string, name: string): { settings: PageSettings; title?: string; rest: Frontmatter; body: string } {
  const match = FRONTMATTER.exec(source);
  if (!match) return { settings: {}, rest: {}, body: source };
  let data: Frontmatter;
  try {
    data = readFrontmatter(match[1]);
  } catch (error) {
    if (error instanceof BadRequest) throw new BadRequest(`${name}: ${error.message}`);
    throw error;
  }
  const settings: PageSettings = {};
  const description = text(data.description);
  if (description) settings.description = description.slice(0, 1000);
  const icon = text(data.icon);
  if (icon) settings.icon = icon;
  const emoji = text(data.emoji);
  if (emoji) settings.emoji = emoji;
  if (data.hidden === true) settings.hidden = true;
  if (data.noIndex === true) settings.noIndex = true;
  const layout = layoutOf(data.layout);
  if (layout) settings.layout = layout;
  const rest = Object.fromEntries(Object.entries(data).filter(([key]) => !SETTINGS_KEYS.includes(key))) as Frontmatter;
  return { settings, title: text(data.title), rest, body: source.slice(match[0].length) };
}

/** The page a Markdown file makes (see above). */
export function markdownPage(source: string, options: MarkdownPageOptions): ImportedPage {
  const name = options.name ?? options.key;
  const { settings, title: frontTitle, rest, body } = splitFrontmatter(normalizeSource(source), `The front matter of "${name}"`);
  let content = body.replace(/^\s*\n/, '');
  const lines = content.split('\n');
  const first = lines.findIndex((line) => line.trim() !== '');
  const heading = first >= 0 ? HEADING_1.exec(lines[first]) : null;
  const headingTitle = heading ? plainTitle(heading[1]) : undefined;
  const given = options.title ?? frontTitle;
  if (headingTitle && (!given || given.toLowerCase() === headingTitle.toLowerCase())) {
    content = lines.slice(first + 1).join('\n').replace(/^\s*\n/, '');
  }
  const yaml = writeFrontmatter(rest);
  const markdown = (yaml ? `---\n${yaml}\n---\n\n` : '') + content;
  return {
    key: options.key,
    type: 'document',
    title: (given ?? headingTitle ?? options.fallbackTitle).slice(0, 255) || options.fallbackTitle,
    markdown,
    ...(Object.keys(settings).length > 0 ? { settings } : {}),
    pages: [],
  };
}
