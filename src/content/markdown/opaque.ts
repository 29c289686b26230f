/**
 * Blocks and inlines that Markdown has no syntax for (OpenAPI blocks, integrations, drawings, emoji,
 * mentions, …) are written as an HTML comment holding their JSON, `<!-- quire:block {…} -->`, so that a
 * document read from Markdown that was written from a document keeps them.
 */
import type { DocumentBlock, DocumentInline, JsonValue } from './types.ts';

const PATTERN = /^<!--\s*quire:(block|inline)\s+([\s\S]*?)\s*-->$/;

/**
 * The types a comment may carry: those without Markdown syntax, and the parts of containers that the
 * writer found outside their container. Anything else has Markdown of its own and is not taken from a comment.
 */
const CARRIED: Record<'block' | 'inline', ReadonlySet<string>> = {
  block: new Set([
    'if', 'drawing', 'swagger', 'openapi-operation', 'openapi-schemas', 'openapi-webhook', 'integration', 'reusable-content',
    'stepper', 'stepper-step', 'columns', 'column', 'list-item', 'tabs-item', 'image', 'code-line',
  ]),
  inline: new Set(['emoji', 'icon', 'expression', 'annotation', 'mention', 'button']),
};

/** The comment that carries a node; `--` never appears in it, so the comment cannot end early. */
export function writeOpaque(kind: 'block' | 'inline', node: DocumentBlock | DocumentInline): string {
  return `<!-- quire:${kind} ${JSON.stringify(node).replace(/--/g, '-\\u002d')} -->`;
}

function isRecord(value: unknown): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readJson(html: string, kind: 'block' | 'inline'): Record<string, JsonValue> | undefined {
  const match = PATTERN.exec(html.trim());
  if (!match || match[1] !== kind) return undefined;
  try {
    const value: unknown = JSON.parse(match[2]);
    return isRecord(value) && value.object === kind && typeof value.type === 'string' && CARRIED[kind].has(value.type) ? value : undefined;
  } catch (error) {
    // A comment that only looks like ours is kept as text by the caller.
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/** The block an HTML comment carries, or undefined when it carries none. */
export function readOpaqueBlock(html: string): DocumentBlock | undefined {
  // The JSON was written from a block of that type; its fields are taken as they are.
  return readJson(html, 'block') as DocumentBlock | undefined;
}

/** The inline an HTML comment carries, or undefined when it carries none. */
export function readOpaqueInline(html: string): DocumentInline | undefined {
  return readJson(html, 'inline') as DocumentInline | undefined;
}
