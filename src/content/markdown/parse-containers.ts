/**
 * Tag groups → blocks: hints, tabs, titled code blocks, content references, files, embeds and
 * expandables. A tag that cannot be honoured (unknown attributes, a bad value, a file that does not
 * resolve, no closing tag) is given back as text with its content, so nothing is silently dropped.
 */
import type { RootContent } from 'mdast';
import type { ParseContext } from './context.ts';
import { codeBlock, convertItems } from './parse-blocks.ts';
import type { GroupedItem, TagGroup } from './parse-groups.ts';
import { phrasingOf } from './parse-html.ts';
import { convertInline } from './parse-inline.ts';
import { fragment, paragraph } from './nodes.ts';
import { wrapAllowed, type Container } from './nesting.ts';
import { fileBlockRefOf, linkRefOf } from './refs.ts';
import { convertColumns, convertIf, convertOpenApiBlock, convertStepper, convertSwagger, convertUpdates } from './parse-gitbook.ts';
import type { DocumentBlock, DocumentBlockExpandable, DocumentBlockParagraph, DocumentBlockTabsItem, DocumentFragment, HintStyle } from './types.ts';

const HINT_STYLES: ReadonlySet<string> = new Set(['info', 'warning', 'danger', 'success']);
const BOOLEAN = new Set(['true', 'false']);

function isHintStyle(style: string): style is HintStyle {
  return HINT_STYLES.has(style);
}

/** Whether every attribute is one of `allowed`, with a value it accepts. */
function validAttributes(attrs: Record<string, string>, allowed: Record<string, (value: string) => boolean>): boolean {
  return Object.entries(attrs).every(([key, value]) => key in allowed && allowed[key](value));
}
const anyValue = () => true;
const bool = (value: string) => BOOLEAN.has(value);

function isNode(item: GroupedItem): item is RootContent {
  return !('kind' in item);
}

/** Leading paragraphs as a caption fragment; the other items, converted, to go after the block. */
function splitCaption(items: GroupedItem[], ctx: ParseContext, container: Container): { caption: DocumentFragment[]; rest: DocumentBlock[] } {
  const paragraphs: DocumentBlockParagraph[] = [];
  const others: GroupedItem[] = [];
  for (const item of items) {
    // Read as in a hint, where images stay inline: a caption is paragraphs only.
    const blocks = isNode(item) ? convertItems([item], ctx, 'hint') : [];
    if (blocks.length > 0 && blocks.every((block) => block.type === 'paragraph')) paragraphs.push(...blocks.filter((block) => block.type === 'paragraph'));
    else others.push(item);
  }
  return { caption: paragraphs.length > 0 ? [fragment('caption', paragraphs)] : [], rest: convertItems(others, ctx, container) };
}

interface Tab {
  title: string | undefined;
  icon: string | undefined;
  items: GroupedItem[];
}

/** The tabs of a tabs group, a tab left open giving up the tabs nested in it; undefined when a tab is malformed. */
function collectTabs(items: GroupedItem[]): { before: GroupedItem[]; tabs: Tab[] | undefined } {
  const before: GroupedItem[] = [];
  const tabs: Tab[] = [];
  const visit = (list: GroupedItem[], into: GroupedItem[]) => {
    for (const item of list) {
      if (!isNode(item) && item.kind === 'group' && item.open.name === 'tab') {
        if (!validAttributes(item.open.attrs, { title: anyValue, icon: anyValue })) return false;
        const tab: Tab = { title: item.open.attrs.title, icon: item.open.attrs.icon, items: [] };
        tabs.push(tab);
        if (visit(item.items, tab.items) === false) return false;
        into = tab.items;
      } else into.push(item);
    }
    return true;
  };
  return visit(items, before) ? { before, tabs } : { before, tabs: undefined };
}

function convertTabs(group: TagGroup, ctx: ParseContext, container: Container): DocumentBlock[] | undefined {
  if (!validAttributes(group.open.attrs, { fullWidth: bool })) return undefined;
  const { before, tabs } = collectTabs(group.items);
  if (!tabs) return undefined;
  const data = group.open.attrs.fullWidth === 'true' ? { fullWidth: true } : {};
  const out: DocumentBlock[] = convertItems(before, ctx, container);
  let items: DocumentBlockTabsItem[] = [];
  const flush = (force: boolean) => {
    if (items.length > 0 || force) out.push({ object: 'block', type: 'tabs', data: { ...data }, nodes: items });
    items = [];
  };
  for (const tab of tabs) {
    const body = convertItems(tab.items, ctx, 'tabs-item');
    const data: DocumentBlockTabsItem['data'] = {};
    if (tab.title !== undefined) data.title = tab.title;
    if (tab.icon !== undefined) data.icon = tab.icon;
    const parts = wrapAllowed('tabs-item', body, (nodes): DocumentBlockTabsItem => ({ object: 'block', type: 'tabs-item', data: { ...data }, nodes }));
    for (const part of parts) {
      if (part.type === 'tabs-item') items.push(part);
      else {
        flush(false);
        out.push(part);
      }
    }
  }
  flush(tabs.length === 0);
  return out;
}

function convertDetails(group: TagGroup, ctx: ParseContext): DocumentBlock[] {
  const [first, ...others] = group.items;
  const summary = first && !isNode(first) && first.kind === 'summary' ? first : undefined;
  // Each part of a split expandable gets its own copy of the title.
  const title = () => paragraph(summary ? convertInline(phrasingOf(summary.source, ctx), ctx) : undefined);
  const body = convertItems(summary ? others : group.items, ctx, 'expandable-body');
  return wrapAllowed('expandable-body', body, (nodes): DocumentBlockExpandable => ({
    object: 'block',
    type: 'expandable',
    data: {},
    fragments: [
      fragment('expandable-title', [title()], 'expandable-title'),
      fragment('expandable-body', nodes.length > 0 ? nodes : [paragraph()], 'expandable-body'),
    ],
    isVoid: true,
  }));
}

function honour(group: TagGroup, ctx: ParseContext, container: Container): DocumentBlock[] | undefined {
  const { open, items } = group;
  const attrs = open.attrs;
  switch (open.name) {
    case 'hint': {
      const style = attrs.style ?? 'info';
      if (!validAttributes(attrs, { style: anyValue, icon: anyValue }) || !isHintStyle(style)) return undefined;
      const data = attrs.icon === undefined ? { style } : { style, icon: attrs.icon };
      return wrapAllowed('hint', convertItems(items, ctx, 'hint'), (nodes) => ({ object: 'block', type: 'hint', data: { ...data }, nodes }));
    }
    case 'tabs':
      return convertTabs(group, ctx, container);
    case 'code': {
      const [code] = items;
      if (items.length !== 1 || !isNode(code) || code.type !== 'code') return undefined;
      const valid = validAttributes(attrs, { title: anyValue, overflow: (v) => v === 'wrap' || v === 'scroll', lineNumbers: bool, fullWidth: bool });
      return valid ? [codeBlock(code, attrs)] : undefined;
    }
    case 'content-ref': {
      if (attrs.url === undefined || !validAttributes(attrs, { url: anyValue })) return undefined;
      const block: DocumentBlock = { object: 'block', type: 'content-ref', data: { ref: linkRefOf(attrs.url, ctx.options) }, isVoid: true };
      // The link inside only repeats the reference, with the target's title; it is written anew from the reference.
      const [only] = items;
      const isTitleLink = items.length === 1 && isNode(only) && only.type === 'paragraph' && only.children.length === 1 && only.children[0].type === 'link';
      return [block, ...(isTitleLink || items.length === 0 ? [] : convertItems(items, ctx, container))];
    }
    case 'file': {
      if (attrs.src === undefined || !validAttributes(attrs, { src: anyValue })) return undefined;
      const ref = fileBlockRefOf(attrs.src, ctx.options);
      if (ref === undefined) return undefined;
      const { caption, rest } = group.closeRaw === undefined ? { caption: [], rest: convertItems(items, ctx, container) } : splitCaption(items, ctx, container);
      return [{ object: 'block', type: 'file', data: { ref }, ...(caption.length > 0 ? { fragments: caption } : {}), isVoid: true }, ...rest];
    }
    case 'embed': {
      if (attrs.url === undefined || !validAttributes(attrs, { url: anyValue, fullWidth: bool })) return undefined;
      const data = attrs.fullWidth === undefined ? { url: attrs.url } : { url: attrs.url, fullWidth: attrs.fullWidth === 'true' };
      const { caption, rest } = group.closeRaw === undefined ? { caption: [], rest: convertItems(items, ctx, container) } : splitCaption(items, ctx, container);
      return [{ object: 'block', type: 'embed', data, ...(caption.length > 0 ? { fragments: caption } : {}), isVoid: true }, ...rest];
    }
    case 'details':
      return convertDetails(group, ctx);
    case 'stepper':
      return convertStepper(group, ctx);
    case 'columns':
      return convertColumns(group, ctx);
    case 'if':
      return convertIf(group, ctx);
    case 'updates':
      return convertUpdates(group, ctx);
    case 'openapi':
    case 'swagger':
      return convertSwagger(group, ctx);
    case 'openapi-operation':
    case 'openapi-schemas':
    case 'openapi-webhook':
      return convertOpenApiBlock(group);
    case 'tab':
    case 'step':
    case 'column':
    case 'update':
      return undefined;
  }
}

/**
 * Converts a tag group. A group that cannot be honoured (a tag left open, attributes it does not take)
 * gives its content as ordinary blocks: the tags themselves show nowhere, and the page's Markdown keeps them.
 */
export function convertGroup(group: TagGroup, ctx: ParseContext, container: Container): DocumentBlock[] {
  // `{% embed %}` and `{% file %}` need no closing tag: without one, what follows is not their caption.
  const closed = group.closeRaw !== undefined || group.open.name === 'embed' || group.open.name === 'file';
  const honoured = closed ? honour(group, ctx, container) : undefined;
  return honoured ?? convertItems(group.items, ctx, container);
}
