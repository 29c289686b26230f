/**
 * Blocks written as GitBook's tags (`{% name … %}` … `{% endname %}`), laid out as GitBook lays them out:
 * the opening tag, the content right under it, the closing tag right under the content, and a blank line
 * between the parts of a container (`{% endtab %}`, blank, `{% tab %}`). The whole is one HTML node of the
 * Markdown tree, so that lists and quotes indent it as one block.
 */
import type { BlockContent } from 'mdast';
import { writeStartTag } from './html.ts';
import { writeLength } from './lengths.ts';
import type { RenderContext } from './render-inline.ts';
import { imageHref, includeHref, refHref } from './refs.ts';
import { writeTag } from './tags.ts';
import type {
  DocumentBlock,
  DocumentBlockColumns,
  DocumentBlockDrawing,
  DocumentBlockIf,
  DocumentBlockIntegration,
  DocumentBlockOpenAPIOperation,
  DocumentBlockOpenAPISchemas,
  DocumentBlockOpenAPIWebhook,
  DocumentBlockReusableContent,
  DocumentBlockStepper,
  DocumentBlockSwagger,
  DocumentBlockTabs,
  DocumentBlockUpdates,
} from './types.ts';

export function html(value: string): BlockContent {
  return { type: 'html', value };
}

/** `open`, the content under it, `close` under the content. */
export function tagged(open: string, inner: string, close: string): string {
  return inner === '' ? `${open}\n${close}` : `${open}\n${inner}\n${close}`;
}

function part(open: string, blocks: DocumentBlock[], close: string, ctx: RenderContext): string {
  return tagged(open, ctx.blocksMarkdown(blocks), close);
}

const bool = (value: boolean | undefined) => (value === undefined ? undefined : String(value));

export function renderHint(block: Extract<DocumentBlock, { type: 'hint' }>, ctx: RenderContext): BlockContent {
  return html(part(writeTag('hint', { style: block.data.style, icon: block.data.icon }), block.nodes, '{% endhint %}', ctx));
}

export function renderTabs(block: DocumentBlockTabs, ctx: RenderContext): BlockContent {
  const tabs = block.nodes.map((tab) => part(writeTag('tab', { title: tab.data.title, icon: tab.data.icon }), tab.nodes, '{% endtab %}', ctx)).join('\n\n');
  return html(tagged(writeTag('tabs', { fullWidth: bool(block.data?.fullWidth) }), tabs, '{% endtabs %}'));
}

export function renderStepper(block: DocumentBlockStepper, ctx: RenderContext): BlockContent {
  const steps = block.nodes.map((step) => part(writeTag('step', { icon: step.data.icon }), step.nodes, '{% endstep %}', ctx)).join('\n\n');
  return html(tagged('{% stepper %}', steps, '{% endstepper %}'));
}

export function renderColumns(block: DocumentBlockColumns, ctx: RenderContext): BlockContent {
  const columns = block.nodes
    .map((column) => part(writeTag('column', { width: column.data.width === undefined ? undefined : writeLength(column.data.width) }), column.nodes, '{% endcolumn %}', ctx))
    .join('\n\n');
  return html(tagged(writeTag('columns', { fullWidth: bool(block.data.fullWidth) }), columns, '{% endcolumns %}'));
}

export function renderIf(block: DocumentBlockIf, ctx: RenderContext): BlockContent {
  return html(part(writeTag('if', {}, block.data.expression), block.nodes, '{% endif %}', ctx));
}

export function renderUpdates(block: DocumentBlockUpdates, ctx: RenderContext): BlockContent {
  const updates = block.nodes
    .map((update) => part(writeTag('update', { date: update.data.date, tags: update.data.tags?.join(','), title: update.data.title }), update.nodes, '{% endupdate %}', ctx))
    .join('\n\n');
  return html(tagged(writeTag('updates', { format: block.data.format }), updates, '{% endupdates %}'));
}

/** The description an OpenAPI block names, as the link GitBook writes inside the tag. */
function sourceLink(url: string): string {
  return `[${url}](${url})`;
}

export function renderSwagger(block: DocumentBlockSwagger, ctx: RenderContext): BlockContent {
  const src = imageHref(block.data.ref, ctx.options);
  const open = writeTag('openapi', { src, path: block.data.path, method: block.data.method, expanded: bool(block.data.expanded), fullWidth: bool(block.data.fullWidth) });
  return html(tagged(open, sourceLink(src), '{% endopenapi %}'));
}

/** `[OpenAPI <slug>](<source>)`: the link GitBook writes inside OpenAPI blocks, when the source is known. */
function specLink(spec: string, ctx: RenderContext): string {
  const source = ctx.options.openApiSource?.(spec);
  return source ? `[OpenAPI ${spec}](${source})` : '';
}

export function renderOpenApiBlock(block: DocumentBlockOpenAPIOperation | DocumentBlockOpenAPISchemas | DocumentBlockOpenAPIWebhook, ctx: RenderContext): BlockContent {
  const { spec } = block.data.ref;
  switch (block.type) {
    case 'openapi-operation':
      return html(tagged(writeTag('openapi-operation', { spec, path: block.data.path, method: block.data.method }), specLink(spec, ctx), '{% endopenapi-operation %}'));
    case 'openapi-schemas':
      return html(tagged(writeTag('openapi-schemas', { spec, schemas: block.data.schemas.join(','), grouped: bool(block.data.grouped) }), specLink(spec, ctx), '{% endopenapi-schemas %}'));
    case 'openapi-webhook':
      return html(tagged(writeTag('openapi-webhook', { spec, name: block.data.name, method: block.data.method }), specLink(spec, ctx), '{% endopenapi-webhook %}'));
  }
}

export function renderInclude(block: DocumentBlockReusableContent, ctx: RenderContext): BlockContent {
  return html(writeTag('include', {}, JSON.stringify(includeHref(block.data.ref.reusableContent, ctx.options))));
}

export function renderIntegration(block: DocumentBlockIntegration): BlockContent {
  const props = Object.fromEntries(Object.entries(block.data.props).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]));
  return html(writeTag(`@${block.data.integration}/${block.data.block}`, props));
}

export function renderDrawing(block: DocumentBlockDrawing, ctx: RenderContext): BlockContent[] {
  if (!block.data.ref) return [];
  return [html(writeStartTag('img', [['src', refHref(block.data.ref, ctx.options)], ['alt', block.data.alt ?? ''], ['class', 'gitbook-drawing']]))];
}
