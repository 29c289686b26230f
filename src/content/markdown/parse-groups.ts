/**
 * Turns the flat children of a Markdown container into a tree of tag groups: every `tagLine` is split
 * into its markers and the Markdown between them, and each opening marker is matched with its closing
 * one. A closing tag with no opening one stays a lone marker, and a group left open is marked as such;
 * parse-containers.ts gives both back as text.
 */
import type { RootContent } from 'mdast';
import type { ParseContext } from './context.ts';
import { splitTagLine, type SummaryMarker, type TagMarker, type VoidMarker } from './tags.ts';

/** An opening tag, what came before its closing tag, and that closing tag (undefined when none came). */
export interface TagGroup {
  kind: 'group';
  open: TagMarker;
  closeRaw: string | undefined;
  items: GroupedItem[];
}

export type GroupedItem = RootContent | SummaryMarker | TagMarker | VoidMarker | TagGroup;

type FlowItem = RootContent | SummaryMarker | TagMarker | VoidMarker;

const TAG_LINE_START = /^[ \t]*(?:\{%|<details[\s>]|<\/details|<summary>)/i;

/**
 * An HTML block runs on until a blank line, so it swallows a tag line written right under it
 * (`<figure>…</figure>` then `{% endtab %}`); such an HTML block is cut before that line, and the rest
 * is read again as blocks.
 */
function cutHtml(value: string, ctx: ParseContext): RootContent[] | undefined {
  const lines = value.split('\n');
  const cut = lines.findIndex((line, index) => index > 0 && TAG_LINE_START.test(line));
  if (cut === -1) return undefined;
  return [{ type: 'html', value: lines.slice(0, cut).join('\n') }, ...ctx.subparseBlocks(lines.slice(cut).join('\n')).children];
}

function flatten(children: RootContent[], ctx: ParseContext): FlowItem[] {
  return children.flatMap((child): FlowItem[] => {
    if (child.type === 'html') {
      const cut = cutHtml(child.value, ctx);
      return cut ? flatten(cut, ctx) : [child];
    }
    if (child.type !== 'tagLine') return [child];
    return splitTagLine(child.value).flatMap((segment): FlowItem[] => (segment.kind === 'text' ? ctx.subparse(segment.source).children : [segment]));
  });
}

interface Frame {
  open: TagMarker | undefined;
  items: GroupedItem[];
}

/** Groups the children of one container by their tags. */
export function groupByTags(children: RootContent[], ctx: ParseContext): GroupedItem[] {
  const stack: Frame[] = [{ open: undefined, items: [] }];
  const top = () => stack[stack.length - 1];
  const close = (closeRaw: string | undefined) => {
    const frame = stack.pop();
    if (frame?.open) top().items.push({ kind: 'group', open: frame.open, closeRaw, items: frame.items });
  };
  for (const item of flatten(children, ctx)) {
    if (!('kind' in item) || item.kind === 'summary' || item.kind === 'void') top().items.push(item);
    else if (item.kind === 'open') stack.push({ open: item, items: [] });
    else {
      let match = stack.length - 1;
      while (match > 0 && stack[match].open?.name !== item.name) match--;
      if (match === 0) top().items.push(item);
      else {
        while (stack.length - 1 > match) close(undefined);
        close(item.raw);
      }
    }
  }
  while (stack.length > 1) close(undefined);
  return stack[0].items;
}
