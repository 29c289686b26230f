/**
 * Document blocks → Markdown blocks (mdast flow content). Containers without Markdown syntax of their
 * own (hints, tabs, expandables, titled code) are written as their tags around their content; blocks
 * without any syntax are carried as opaque comments (opaque.ts).
 */
import type { BlockContent, ListItem } from 'mdast';
import { writeOpaque } from './opaque.ts';
import { inlineToPhrasing, type RenderContext } from './render-inline.ts';
import { captionInline, renderContentRef, renderEmbed, renderFile, renderImages } from './render-media.ts';
import { renderTable } from './render-table.ts';
import { writeTag } from './tags.ts';
import type { DocumentBlock, DocumentBlockCode, DocumentBlockExpandable, DocumentBlockHeading, DocumentBlockList, DocumentBlockParagraph, DocumentBlockTabs } from './types.ts';

const ALIGN = { start: 'left', center: 'center', end: 'right' } as const;

function html(value: string): BlockContent {
  return { type: 'html', value };
}

function renderParagraph(block: DocumentBlockParagraph, ctx: RenderContext): BlockContent[] {
  const empty = block.nodes.every((node) => node.object === 'text' && node.leaves.every((leaf) => leaf.text === ''));
  if (block.data?.align) {
    return [html(`<p align="${ALIGN[block.data.align]}">${ctx.inlineMarkdown(inlineToPhrasing(block.nodes, ctx, { breaksAsHtml: true }))}</p>`)];
  }
  // An empty paragraph has no Markdown; where one is needed, the reader puts it back.
  return empty ? [] : [{ type: 'paragraph', children: inlineToPhrasing(block.nodes, ctx) }];
}

function renderHeading(block: DocumentBlockHeading, ctx: RenderContext): BlockContent[] {
  const depth = block.type === 'heading-1' ? 1 : block.type === 'heading-2' ? 2 : 3;
  const children = inlineToPhrasing(block.nodes, ctx, { breaksAsHtml: block.data.align !== undefined });
  if (block.data.id !== undefined) children.push({ type: 'text', value: ' ' }, { type: 'html', value: `<a href="#${block.data.id}" id="${block.data.id}">` }, { type: 'html', value: '</a>' });
  if (block.data.align) return [html(`<h${depth} align="${ALIGN[block.data.align]}">${ctx.inlineMarkdown(children)}</h${depth}>`)];
  return [{ type: 'heading', depth, children }];
}

function renderList(block: DocumentBlockList, ctx: RenderContext): BlockContent {
  const tasks = block.type === 'list-tasks';
  const children = block.nodes.map((item): ListItem => ({
    type: 'listItem',
    spread: false,
    checked: tasks ? item.data?.checked === true : null,
    children: renderBlocks(item.nodes, ctx),
  }));
  const start = block.type === 'list-ordered' ? (block.data.start ?? 1) : null;
  return { type: 'list', ordered: block.type === 'list-ordered', start, spread: false, children };
}

function renderCode(block: DocumentBlockCode): BlockContent[] {
  const value = block.nodes.map((line) => line.nodes.map((node) => (node.object === 'text' ? node.leaves.map((leaf) => leaf.text).join('') : '')).join('')).join('\n');
  const code: BlockContent = { type: 'code', lang: block.data.syntax ?? null, meta: null, value };
  const { title, overflow, lineNumbers, fullWidth } = block.data;
  if (title === undefined && overflow === undefined && lineNumbers === undefined && fullWidth === undefined) return [code];
  const tag = writeTag('code', { title, overflow, lineNumbers: lineNumbers === undefined ? undefined : String(lineNumbers), fullWidth: fullWidth === undefined ? undefined : String(fullWidth) });
  return [html(tag), code, html('{% endcode %}')];
}

function renderTabs(block: DocumentBlockTabs, ctx: RenderContext): BlockContent[] {
  const open = writeTag('tabs', { fullWidth: block.data?.fullWidth === undefined ? undefined : String(block.data.fullWidth) });
  const tabs = block.nodes.flatMap((tab) => [html(writeTag('tab', { title: tab.data.title })), ...renderBlocks(tab.nodes, ctx), html('{% endtab %}')]);
  return [html(open), ...tabs, html('{% endtabs %}')];
}

function renderExpandable(block: DocumentBlockExpandable, ctx: RenderContext): BlockContent[] {
  const title = ctx.inlineMarkdown(inlineToPhrasing(captionInline(block.fragments, 'expandable-title'), ctx, { breaksAsHtml: true }));
  const body = block.fragments.find((fragment) => fragment.fragment === 'expandable-body')?.nodes ?? [];
  return [html('<details>'), html(`<summary>${title}</summary>`), ...renderBlocks(body, ctx), html('</details>')];
}

function renderBlock(block: DocumentBlock, ctx: RenderContext): BlockContent[] {
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
      return [html(writeTag('hint', { style: block.data.style })), ...renderBlocks(block.nodes, ctx), html('{% endhint %}')];
    case 'code':
      return renderCode(block);
    case 'math':
      return [{ type: 'math', value: block.data.formula }];
    case 'table':
      return [renderTable(block, ctx)];
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
      return renderTabs(block, ctx);
    default:
      // Blocks with no Markdown of their own, and blocks found where only their container may hold them.
      return [html(writeOpaque('block', block))];
  }
}

/** Converts a list of blocks to Markdown blocks. */
export function renderBlocks(blocks: DocumentBlock[], ctx: RenderContext): BlockContent[] {
  return blocks.flatMap((block) => renderBlock(block, ctx));
}

