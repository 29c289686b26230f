/**
 * Blocks that hold other blocks: hints, tabs, expandables. All of them work without JavaScript: tabs
 * are radio buttons, labels and panels that content.css switches, expandables are `<details>`.
 */
import type { DocumentBlockExpandable, DocumentBlockHint, DocumentBlockTabs, DocumentBlockTabsItem, DocumentFragment } from '../../content/markdown/index.ts';
import type { RenderContext } from './context.ts';
import { escapeHtml } from './escape.ts';
import { renderInlines } from './inlines.ts';

const HINT_STYLES: ReadonlySet<string> = new Set(['info', 'success', 'warning', 'danger']);

export function renderHint(block: DocumentBlockHint, ctx: RenderContext, out: string[]): void {
  const style = HINT_STYLES.has(block.data?.style) ? block.data.style : 'info';
  out.push(`<div class="hint hint-${style}" role="note">`);
  ctx.blocks(block.nodes ?? [], out);
  out.push('</div>');
}

/**
 * A group of tabs, as radio inputs each followed by its label and its panel. The stylesheet lines the
 * labels up above the panels (flex `order`) and shows the panel after the checked input, so the group
 * works for any number of tabs without JavaScript; without the stylesheet every panel shows, titled.
 */
export function renderTabs(block: DocumentBlockTabs, ctx: RenderContext, out: string[]): void {
  const items = block.nodes ?? [];
  if (items.length === 0) return;
  const name = ctx.nextTabsName();
  out.push(`<div class="tabs${block.data?.fullWidth ? ' full-width' : ''}">`);
  items.forEach((item, index) => {
    const id = `${name}_${index}`;
    out.push(`<input class="tab-input" type="radio" name="${name}" id="${id}"${index === 0 ? ' checked' : ''}>`);
    out.push(`<label class="tab-label" for="${id}">${escapeHtml(tabTitle(item, index))}</label>`);
    out.push('<div class="tab-panel">');
    ctx.blocks(item.nodes ?? [], out);
    out.push('</div>');
  });
  out.push('</div>');
}

function tabTitle(item: DocumentBlockTabsItem, index: number): string {
  const title = item.data?.title?.trim();
  return title ? title : `Tab ${index + 1}`;
}

/** A tabs item met outside its tabs (only in documents written elsewhere): a group of one tab. */
export function renderLoneTab(item: DocumentBlockTabsItem, ctx: RenderContext, out: string[]): void {
  renderTabs({ object: 'block', type: 'tabs', data: {}, nodes: [item] }, ctx, out);
}

function fragmentNamed(fragments: DocumentFragment[] | undefined, name: string): DocumentFragment | undefined {
  return (fragments ?? []).find((fragment) => fragment.fragment === name);
}

/** The inline content of a title fragment's paragraphs, line breaks between them. */
export function renderFragmentInline(fragment: DocumentFragment | undefined, ctx: RenderContext, out: string[]): void {
  let first = true;
  for (const block of fragment?.nodes ?? []) {
    if (block.type !== 'paragraph' && block.type !== 'heading-1' && block.type !== 'heading-2' && block.type !== 'heading-3') continue;
    if (!first) out.push('<br>');
    renderInlines(block.nodes ?? [], ctx, out);
    first = false;
  }
}

export function renderExpandable(block: DocumentBlockExpandable, ctx: RenderContext, out: string[]): void {
  out.push('<details class="expandable"><summary>');
  renderFragmentInline(fragmentNamed(block.fragments, 'expandable-title'), ctx, out);
  out.push('</summary><div class="expandable-body">');
  ctx.blocks(fragmentNamed(block.fragments, 'expandable-body')?.nodes ?? [], out);
  out.push('</div></details>');
}
