import type { DocumentBlockDrawing } from '../../../../src/content/markdown/types.ts';
import { voidBlockSpec } from './void-block.ts';

/** `drawing` (a picture drawn in GitBook, kept as its file): its description is what can be changed here. */
export const drawing = voidBlockSpec<DocumentBlockDrawing>({
  type: 'drawing',
  node: 'drawing',
  title: 'Drawing',
  keywords: 'diagram sketch',
  blank: () => ({ object: 'block', type: 'drawing', data: {}, isVoid: true }),
  fields: (block, data) => [
    { name: 'file', label: 'Picture (a file of the space)', kind: 'select', value: block.data.ref?.file ?? '', choices: async () => [{ label: '(none)', value: '' }, ...(data ? (await data.files()).map((item) => ({ label: item.name, value: item.id })) : [])] },
    { name: 'alt', label: 'Description', value: block.data.alt ?? '' },
  ],
  apply(block, values) {
    const data: DocumentBlockDrawing['data'] = {};
    if (values.file) data.ref = { kind: 'file', file: String(values.file) };
    if (values.alt) data.alt = String(values.alt);
    return { ...block, data };
  },
  describe(block, dom) {
    const text = document.createElement('p');
    text.textContent = [block.data.alt, block.data.ref ? `file ${block.data.ref.file}` : ''].filter(Boolean).join(' · ') || 'An empty drawing';
    dom.append(text);
  },
});
