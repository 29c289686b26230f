/**
 * Document blocks → Markdown blocks (mdast flow content). Containers without Markdown syntax of their
 * own (hints, tabs, expandables, titled code) are written as their tags around their content; blocks
 * without any syntax are carried as opaque comments (opaque.ts).
 */
import type { BlockContent, ListItem } from 'mdast';
import { writeOpaque } from './opaque.ts';
import { inlineToPhrasing, type RenderContext } from './render-inline.ts';
import { captionInline, renderContentRef, renderEmbed, renderFile, renderImages } from './render-media.ts';
import { renderTableBlock } from './render-table.ts';
import { inlineToHtml } from './render-html.ts';
import { needsHtmlCode, writeHtmlCode } from './code-html.ts';
import { writeTag } from './tags.ts';
import { unreachable } from './nodes.ts';
import { html, renderColumns, renderDrawing, renderHint, renderIf, renderInclude, renderIntegration, renderOpenApiBlock, renderStepper, renderSwagger, renderTabs, renderUpdates, tagged } from './render-tags.ts';
import type { DocumentBlock, DocumentBlockCode, DocumentBlockExpandable, DocumentBlockHeading, DocumentBlockList, DocumentBlockParagraph } from './types.ts';

const ALIGN = { start: 'left', center: 'center', end: 'right' } as const;


function renderParagraph(block: DocumentBlockParagraph, ctx: RenderContext): BlockContent[] {
  const empty = block.nodes.every((node) => node.object === 'text' && node.leaves.every((leaf) => leaf.text === ''));
  if (block.data?.align) {
    return [html(`<p align="${ALIGN[block.data.align]}">${ctx.inlineMarkdown(inlineToPhrasing(block.nodes, ctx, { breaksAsHtml: true }))}</p>`)];
  }
  // An empty paragraph has no Markdown; where one is needed, the reader puts it back.
  return empty ? [] : [{ type: 'paragraph', children: inlineToPhrasing(block.nodes, ctx) }];
}

function renderHeading(block: DocumentBlockHeading, ctx: RenderContext): BlockContent[] {
  const depth = block.type === 'heading-1' ? 2 : block.type === 'heading-2' ? 3 : 4;
  const children = inlineToPhrasing(block.nodes, ctx, { breaksAsHtml: block.data.align !== undefined });
  if (block.data.id !== undefined) children.push({ type: 'text', value: ' ' }, { type: 'html', value: `<a href="#${block.data.id}" id="${block.data.id}">` }, { type: 'html', value: '</a>' });
  if (block.data.align) return [html(`<h${depth} align="${ALIGN[block.data.align]}">${ctx.inlineMarkdown(children)}</h${depth}>`)];
  return [{ type: 'heading', depth, children }];
}

function renderList(block: DocumentBlockList, ctx: RenderContext): BlockContent {
  const tasks = block.type === 'list-tasks';
  const children = block.nodes.map((item): ListItem => ({
    type: 'listItem',
    // An item of several blocks (a nested list aside) is written as GitBook writes it: `*   `, its blocks
    // indented by four and apart; a line with a nested list under it stays tight.
    spread: item.nodes.filter((node) => !node.type.startsWith('list-')).length > 1,
    checked: tasks ? item.data?.checked === true : null,
    children: renderBlocks(item.nodes, ctx),
  }));
  const start = block.type === 'list-ordered' ? (block.data.start ?? 1) : null;
  return { type: 'list', ordered: block.type === 'list-ordered', start, spread: false, children };
}

function renderCode(block: DocumentBlockCode, ctx: RenderContext): BlockContent[] {
  const value = block.nodes.map((line) => line.nodes.map((node) => (node.object === 'text' ? node.leaves.map((leaf) => leaf.text).join('') : '')).join('')).join('\n');
  if (needsHtmlCode(block)) return [html(writeHtmlCode(block))];
  const code: BlockContent = { type: 'code', lang: block.data.syntax ?? null, meta: null, value };
  const { title, overflow, lineNumbers, fullWidth } = block.data;
  if (title === undefined && overflow === undefined && lineNumbers === undefined && fullWidth === undefined) return [code];
  const tag = writeTag('code', { title, overflow, lineNumbers: lineNumbers === undefined ? undefined : String(lineNumbers), fullWidth: fullWidth === undefined ? undefined : String(fullWidth) });
  return [html(tagged(tag, ctx.codeMarkdown(code), '{% endcode %}'))];
}

function renderExpandable(block: DocumentBlockExpandable, ctx: RenderContext): BlockContent[] {
  // GitBook writes the title as HTML (`<summary><strong>…</strong></summary>`).
  const title = inlineToHtml(captionInline(block.fragments, 'expandable-title'), ctx);
  const body = block.fragments.find((fragment) => fragment.fragment === 'expandable-body')?.nodes ?? [];
  return [html('<details>'), html(`<summary>${title}</summary>`), ...renderBlocks(body, ctx), html('</details>')];
}

export function renderBlock(block: DocumentBlock, ctx: RenderContext): BlockContent[] {
  switch (block.type) {
    case 'paragraph':
      return renderParagraph(block, ctx);
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
      return renderHeading(block, ctx);
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks':
      return [renderList(block, ctx)];
    case 'divider':
      return [{ type: 'thematicBreak' }];
    case 'blockquote':
      return [{ type: 'blockquote', children: renderBlocks(block.nodes, ctx) }];
    case 'hint':
      return [renderHint(block, ctx)];
    case 'code':
      return renderCode(block, ctx);
    case 'math':
      return [{ type: 'math', value: block.data.formula }];
    case 'table':
      return [renderTableBlock(block, ctx)];
    case 'images':
      return renderImages(block, ctx);
    case 'file':
      return renderFile(block, ctx);
    case 'embed':
      return renderEmbed(block, ctx);
    case 'content-ref':
      return renderContentRef(block, ctx);
    case 'expandable':
      return renderExpandable(block, ctx);
    case 'tabs':
      return [renderTabs(block, ctx)];
    case 'stepper':
      return [renderStepper(block, ctx)];
    case 'columns':
      return [renderColumns(block, ctx)];
    case 'if':
      return [renderIf(block, ctx)];
    case 'updates':
      return [renderUpdates(block, ctx)];
    case 'swagger':
      return [renderSwagger(block, ctx)];
    case 'openapi-operation':
    case 'openapi-schemas':
    case 'openapi-webhook':
      return [renderOpenApiBlock(block, ctx)];
    case 'reusable-content':
      return [renderInclude(block, ctx)];
    case 'integration':
      return [renderIntegration(block)];
    case 'drawing':
      return renderDrawing(block, ctx);
    case 'list-item':
    case 'tabs-item':
    case 'stepper-step':
    case 'column':
    case 'update':
    case 'image':
    case 'code-line':
      // The part of a container found outside it (a document written elsewhere): carried, so it reads back.
      return [html(writeOpaque('block', block))];
    default:
      return unreachable(block);
  }
}

/** Converts a list of blocks to Markdown blocks. */
export function renderBlocks(blocks: DocumentBlock[], ctx: RenderContext): BlockContent[] {
  return blocks.flatMap((block) => renderBlock(block, ctx));
}

