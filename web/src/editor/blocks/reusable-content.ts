import type { DocumentBlockReusableContent } from '../../../../src/content/markdown/types.ts';
import { voidBlockSpec } from './void-block.ts';

/** `reusable-content` (an include: content written once and shown in several pages). */
export const reusableContent = voidBlockSpec<DocumentBlockReusableContent>({
  type: 'reusable-content',
  node: 'reusableContent',
  title: 'Reusable content',
  keywords: 'include snippet shared',
  blank: () => ({ object: 'block', type: 'reusable-content', data: { ref: { kind: 'reusable-content', reusableContent: '' } }, isVoid: true }),
  fields: (block, data) => [
    {
      name: 'reusableContent',
      label: 'Reusable content',
      kind: 'select',
      required: true,
      value: block.data.ref.reusableContent,
      choices: async () => (data ? await data.reusableContents() : [{ label: block.data.ref.reusableContent, value: block.data.ref.reusableContent }]),
    },
  ],
  apply: (block, values) => (values.reusableContent ? { ...block, data: { ref: { ...block.data.ref, reusableContent: String(values.reusableContent) } } } : block),
  describe(block, dom, data) {
    const text = document.createElement('p');
    text.textContent = block.data.ref.reusableContent || 'None chosen yet';
    dom.append(text);
    void data?.reusableContents().then((items) => {
      const found = items.find((item) => item.value === block.data.ref.reusableContent);
      if (found) text.textContent = found.label;
    }, () => undefined);
  },
});
