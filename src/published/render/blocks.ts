/**
 * Blocks → HTML: one case per block type of the document model, the text blocks here and the others in
 * their own modules (layout-blocks.ts for steppers, columns, updates, includes, OpenAPI and integrations).
 * The switch is exhaustive: a block type added to the model fails to compile until it has a rendering.
 */
import type { DocumentBlock, DocumentBlockHeading, DocumentBlockList, DocumentBlockParagraph } from '../../content/markdown/index.ts';
import { unreachable } from '../../content/markdown/nodes.ts';
import { renderColumns, renderDrawing, renderInclude, renderIntegration, renderOpenApi, renderStepper, renderUpdates } from './layout-blocks.ts';
import { headingTitle, type RenderContext } from './context.ts';
import { escapeAttribute } from './escape.ts';
import { renderCode } from './code.ts';
import { renderExpandable, renderHint, renderLoneTab, renderTabs } from './containers.ts';
import { renderInlines } from './inlines.ts';
import { renderMath } from './math.ts';
import { renderContentRef, renderEmbed, renderFile, renderImage, renderImages } from './media.ts';
import { renderTable } from './table.ts';

const ALIGN_CLASS: Record<string, string> = { center: 'align-center', end: 'align-end' };

function alignClass(align: string | undefined): string {
  return align && ALIGN_CLASS[align] ? ALIGN_CLASS[align] : '';
}

function renderParagraph(block: DocumentBlockParagraph, ctx: RenderContext, out: string[]): void {
  const align = alignClass(block.data?.align);
  out.push(align ? `<p class="${align}">` : '<p>');
  renderInlines(block.nodes ?? [], ctx, out);
  out.push('</p>');
}

/**
 * A heading, one level below its document level: the page's title is the page's `<h1>`, so `heading-1`
 * is an `<h2>`. It ends with a self-link to its anchor.
 */
function renderHeading(block: DocumentBlockHeading, ctx: RenderContext, out: string[]): void {
  const level = Number(block.type.slice(-1)) + 1;
  const id = escapeAttribute(ctx.headingId(block));
  const classes = [block.type, alignClass(block.data?.align)].filter(Boolean).join(' ');
  out.push(`<h${level} id="${id}" class="${classes}">`);
  renderInlines(block.nodes ?? [], ctx, out);
  out.push(`<a class="heading-anchor" href="#${id}" aria-label="${escapeAttribute(`Link to ${headingTitle(block)}`)}">#</a></h${level}>`);
}

function renderList(block: DocumentBlockList, ctx: RenderContext, out: string[]): void {
  const tasks = block.type === 'list-tasks';
  const start = block.type === 'list-ordered' ? block.data?.start : undefined;
  const open = block.type === 'list-ordered' ? `<ol${start !== undefined && Number.isInteger(start) && start !== 1 ? ` start="${start}"` : ''}>` : tasks ? '<ul class="task-list">' : '<ul>';
  out.push(open);
  for (const item of block.nodes ?? []) {
    if (tasks) out.push(`<li class="task-list-item"><input type="checkbox" disabled${item.data?.checked ? ' checked' : ''}> `);
    else out.push('<li>');
    ctx.blocks(item.nodes ?? [], out);
    out.push('</li>');
  }
  out.push(block.type === 'list-ordered' ? '</ol>' : '</ul>');
}

/** Appends the HTML of one block to `out`. */
export function renderBlock(block: DocumentBlock, ctx: RenderContext, out: string[]): void {
  switch (block.type) {
    case 'paragraph':
      return renderParagraph(block, ctx, out);
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
      return renderHeading(block, ctx, out);
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks':
      return renderList(block, ctx, out);
    case 'list-item':
      // An item outside a list (only in documents written elsewhere) is shown as a list of one.
      return renderList({ object: 'block', type: 'list-unordered', nodes: [block] }, ctx, out);
    case 'blockquote':
      out.push('<blockquote>');
      ctx.blocks(block.nodes ?? [], out);
      out.push('</blockquote>');
      return;
    case 'divider':
      out.push('<hr>');
      return;
    case 'hint':
      return renderHint(block, ctx, out);
    case 'code':
      return renderCode(block, out);
    case 'code-line':
      return renderCode({ object: 'block', type: 'code', data: {}, nodes: [block] }, out);
    case 'math':
      out.push(renderMath(block.data?.formula ?? '', true));
      return;
    case 'table':
      return renderTable(block, ctx, out);
    case 'images':
      return renderImages(block, ctx, out);
    case 'image':
      return renderImage(block, ctx, out);
    case 'file':
      return renderFile(block, ctx, out);
    case 'embed':
      return renderEmbed(block, ctx, out);
    case 'content-ref':
      return renderContentRef(block, ctx, out);
    case 'expandable':
      return renderExpandable(block, ctx, out);
    case 'tabs':
      return renderTabs(block, ctx, out);
    case 'tabs-item':
      return renderLoneTab(block, ctx, out);
    case 'stepper':
      return renderStepper(block, ctx, out);
    case 'stepper-step':
      return renderStepper({ object: 'block', type: 'stepper', data: {}, nodes: [block] }, ctx, out);
    case 'columns':
      return renderColumns(block, ctx, out);
    case 'column':
      return renderColumns({ object: 'block', type: 'columns', data: {}, nodes: [block], isVoid: false }, ctx, out);
    case 'updates':
      return renderUpdates(block, ctx, out);
    case 'update':
      return renderUpdates({ object: 'block', type: 'updates', data: {}, nodes: [block], isVoid: false }, ctx, out);
    case 'reusable-content':
      return renderInclude(block, ctx, out);
    case 'drawing':
      return renderDrawing(block, ctx, out);
    case 'integration':
      return renderIntegration(block, out);
    case 'swagger':
    case 'openapi-operation':
    case 'openapi-schemas':
    case 'openapi-webhook':
      return renderOpenApi(block, ctx, out);
    case 'if':
      // Decided before rendering with the reader's claims; an undecided condition hides its content.
      return;
    default:
      return unreachable(block);
  }
}

/** Appends the HTML of blocks to `out`, one line each, so that the page source stays readable. */
export function renderBlocks(blocks: DocumentBlock[], ctx: RenderContext, out: string[]): void {
  for (const block of blocks) {
    renderBlock(block, ctx, out);
    out.push('\n');
  }
}
