/**
 * The layout blocks GitBook writes: steppers (numbered steps), columns (side by side, stacked on narrow
 * screens by content.css), updates (a timeline of dated entries), included reusable content, drawings,
 * integration blocks and OpenAPI blocks. `if` blocks are decided before rendering (evaluateDocument, with
 * the reader's claims); one that reaches the renderer undecided shows nothing.
 */
import type {
  DocumentBlockColumns,
  DocumentBlockDrawing,
  DocumentBlockIntegration,
  DocumentBlockOpenAPIOperation,
  DocumentBlockOpenAPISchemas,
  DocumentBlockOpenAPIWebhook,
  DocumentBlockReusableContent,
  DocumentBlockStepper,
  DocumentBlockSwagger,
  DocumentBlockUpdates,
  Length,
} from '../../content/markdown/index.ts';
import type { RenderContext } from './context.ts';
import { escapeAttribute, escapeHtml, safeUrl } from './escape.ts';
import { iconSvg } from './icons.ts';
import { imageSource } from './targets.ts';

export function renderStepper(block: DocumentBlockStepper, ctx: RenderContext, out: string[]): void {
  out.push('<ol class="stepper">');
  for (const step of block.nodes ?? []) {
    out.push('<li class="step">');
    if (step.data?.icon) out.push(`<span class="step-icon">${iconSvg(step.data.icon)}</span>`);
    out.push('<div class="step-body">');
    ctx.blocks(step.nodes ?? [], out);
    out.push('</div></li>');
  }
  out.push('</ol>');
}

/** A column's width as a CSS length: a number is pixels; a percentage stays one. */
function cssWidth(width: Length | undefined): string | undefined {
  if (width === undefined) return undefined;
  if (typeof width === 'number') return Number.isFinite(width) && width > 0 ? `${width}px` : undefined;
  return /^(%|px|em|rem)$/.test(width.unit) && Number.isFinite(width.value) && width.value > 0 ? `${width.value}${width.unit}` : undefined;
}

export function renderColumns(block: DocumentBlockColumns, ctx: RenderContext, out: string[]): void {
  out.push(`<div class="columns${block.data?.fullWidth ? ' full-width' : ''}">`);
  for (const column of block.nodes ?? []) {
    const width = cssWidth(column.data?.width);
    // The width is a style attribute (allowed by the policy's style-src-attr), not a rule: each column has its own.
    out.push(width ? `<div class="column" style="flex-basis:${escapeAttribute(width)}">` : '<div class="column">');
    ctx.blocks(column.nodes ?? [], out);
    out.push('</div>');
  }
  out.push('</div>');
}

export function renderUpdates(block: DocumentBlockUpdates, ctx: RenderContext, out: string[]): void {
  out.push('<div class="updates">');
  for (const update of block.nodes ?? []) {
    out.push('<article class="update">');
    const date = update.data?.date;
    const tags = update.data?.tags ?? [];
    if (date || tags.length > 0) {
      out.push('<header class="update-meta">');
      if (date) out.push(`<time datetime="${escapeAttribute(date)}">${escapeHtml(date)}</time>`);
      for (const tag of tags) out.push(`<span class="update-tag">${escapeHtml(tag)}</span>`);
      out.push('</header>');
    }
    ctx.blocks(update.nodes ?? [], out);
    out.push('</article>');
  }
  out.push('</div>');
}

export function renderInclude(block: DocumentBlockReusableContent, ctx: RenderContext, out: string[]): void {
  const included = ctx.links.reusableContent(block.data.ref.reusableContent);
  if (!included) return;
  out.push('<div class="reusable-content">');
  ctx.blocks(included.nodes ?? [], out);
  out.push('</div>');
}

export function renderDrawing(block: DocumentBlockDrawing, ctx: RenderContext, out: string[]): void {
  const src = block.data.ref ? imageSource(block.data.ref, ctx.links) : null;
  if (src === null) return;
  out.push(`<figure class="drawing"><img src="${escapeAttribute(src)}" alt="${escapeAttribute(block.data.alt ?? '')}" loading="lazy" decoding="async"></figure>`);
}

/** An integration block the site cannot run: a card naming it, linked when it points somewhere. */
export function renderIntegration(block: DocumentBlockIntegration, out: string[]): void {
  const url = typeof block.data.props?.url === 'string' ? safeUrl(block.data.props.url) : block.data.url ? safeUrl(block.data.url) : null;
  const name = `${block.data.integration} · ${block.data.block}`;
  out.push(url ? `<a class="card integration" href="${escapeAttribute(url)}" rel="noopener"><span class="card-title">${escapeHtml(url)}</span><span class="card-meta">${escapeHtml(name)}</span></a>` : `<div class="card integration"><span class="card-title">${escapeHtml(name)}</span></div>`);
}

/** An OpenAPI block: the site's API reference renderer when there is one, else a notice naming the operation. */
export function renderOpenApi(block: DocumentBlockSwagger | DocumentBlockOpenAPIOperation | DocumentBlockOpenAPISchemas | DocumentBlockOpenAPIWebhook, ctx: RenderContext, out: string[]): void {
  const html = ctx.links.openApi?.(block);
  if (html) {
    out.push(html);
    return;
  }
  const what = block.type === 'openapi-schemas' ? block.data.schemas.join(', ') : block.type === 'openapi-webhook' ? `${block.data.method.toUpperCase()} ${block.data.name}` : `${block.data.method.toUpperCase()} ${block.data.path}`;
  out.push(`<div class="openapi-missing" role="note">This API reference (${escapeHtml(what)}) is not available yet.</div>`);
}
