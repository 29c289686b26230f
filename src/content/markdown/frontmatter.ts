/** The YAML front matter of a page: read into an object, written back from one. */
import { parse, stringify, YAMLParseError } from 'yaml';
import { BadRequest } from '../../errors.ts';
import type { Frontmatter } from './types.ts';
import { yamlDepth } from '../../yaml-depth.ts';

/** The longest front matter a page may have, in characters. */
const MAX_FRONTMATTER_LENGTH = 100_000;
/** The deepest front matter a page may have: far beyond any real page, far below what the parser's stack holds. */
const MAX_FRONTMATTER_DEPTH = 64;

/** Front matter that is not a YAML mapping; the page is refused rather than read without it. */
export class FrontmatterError extends BadRequest {}

function isMapping(value: unknown): value is Frontmatter {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads front matter; empty front matter is an empty object. */
export function readFrontmatter(yaml: string): Frontmatter {
  let value: unknown;
  try {
    // Aliases are bounded (a few aliases can expand to billions of values), and so is the text.
    if (yaml.length > MAX_FRONTMATTER_LENGTH) throw new FrontmatterError(`The page's front matter is longer than ${MAX_FRONTMATTER_LENGTH} characters, the most a page's front matter may be.`);
    if (yamlDepth(yaml) > MAX_FRONTMATTER_DEPTH) throw new FrontmatterError(`The page's front matter nests its values more than ${MAX_FRONTMATTER_DEPTH} deep, the most a page's front matter may.`);
    value = parse(yaml, { maxAliasCount: 100 });
  } catch (error) {
    if (error instanceof YAMLParseError) throw new FrontmatterError(`The page's front matter is not valid YAML: ${error.message.split('\n')[0]}`);
    // The yaml library throws a ReferenceError for an alias bomb, and a RangeError for nesting its parser cannot hold.
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      throw new FrontmatterError("The page's front matter uses aliases (*name) so often that it would expand beyond what a page may hold.");
    }
    if (error instanceof RangeError) throw new FrontmatterError("The page's front matter nests its values too deeply.");
    throw error;
  }
  if (value === null || value === undefined) return {};
  if (!isMapping(value)) throw new FrontmatterError("The page's front matter must be a YAML mapping of keys to values.");
  for (const key of ['description', 'icon'] as const) {
    if (value[key] !== undefined && typeof value[key] !== 'string') throw new FrontmatterError(`The front matter's "${key}" must be text.`);
  }
  if (value.hidden !== undefined && typeof value.hidden !== 'boolean') throw new FrontmatterError('The front matter\'s "hidden" must be true or false.');
  return value;
}

/** Writes front matter without its `---` fences; undefined when there is nothing to write. */
export function writeFrontmatter(frontmatter: Frontmatter | undefined): string | undefined {
  const entries = Object.entries(frontmatter ?? {}).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return undefined;
  return stringify(Object.fromEntries(entries), { lineWidth: 0 }).trimEnd();
}
