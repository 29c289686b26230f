import type { ContentRef, DocumentBlockContentRef } from '../../../../src/content/markdown/types.ts';
import { line, voidBlockSpec } from './void-block.ts';

export function refLabel(ref: ContentRef): string {
  switch (ref.kind) {
    case 'url':
      return ref.url;
    case 'page':
      return `Page ${ref.page}`;
    case 'anchor':
      return `#${ref.anchor}${ref.page ? ` on page ${ref.page}` : ''}`;
    case 'file':
      return `File ${ref.file}`;
    default:
      return ref.kind;
  }
}

/** `content-ref` (a card linking to a page of the space, or an address). */
export const contentRef = voidBlockSpec<DocumentBlockContentRef>({
  type: 'content-ref',
  node: 'contentRef',
  title: 'Page link card',
  keywords: 'content reference page card link',
  blank: () => ({ object: 'block', type: 'content-ref', data: { ref: { kind: 'page', page: '' } }, isVoid: true }),
  fields: (block, data) => [
    {
      name: 'page',
      label: 'Page',
      kind: 'select',
      value: block.data.ref.kind === 'page' ? block.data.ref.page : '',
      choices: async () => [{ label: '(an address instead)', value: '' }, ...(data ? await data.pages() : [])],
    },
    { name: 'url', label: 'Or an address', kind: 'url', value: block.data.ref.kind === 'url' ? block.data.ref.url : '' },
  ],
  apply(block, values) {
    const page = String(values.page ?? '');
    const url = String(values.url ?? '').trim();
    if (!page && !url) return block;
    const ref: ContentRef = page ? { kind: 'page', page } : { kind: 'url', url };
    return { ...block, data: { ref } };
  },
  describe(block, dom, data) {
    const { ref } = block.data;
    const text = document.createElement('p');
    text.textContent = refLabel(ref);
    dom.append(text);
    if (ref.kind === 'page' && data)
      void data.pages().then((pages) => {
        const found = pages.find((page) => page.value === ref.page);
        if (found) text.textContent = found.label.trim();
      }, () => undefined);
    if (ref.kind === 'url') {
      text.remove();
      line(dom, ref.url, ref.url);
    }
  },
});
