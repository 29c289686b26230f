import type { DocumentBlockFile } from '../../../../src/content/markdown/types.ts';
import { captionOf, line, voidBlockSpec, withCaption } from './void-block.ts';

/** `file` (one of the space's files offered for download, optional caption). */
export const file = voidBlockSpec<DocumentBlockFile>({
  type: 'file',
  node: 'fileBlock',
  title: 'File',
  keywords: 'attachment download pdf',
  blank: () => ({ object: 'block', type: 'file', data: { ref: { kind: 'file', file: '' } }, isVoid: true }),
  fields: (block, data) => [
    {
      name: 'file',
      label: 'File of the space',
      kind: 'select',
      value: block.data.ref.file,
      required: true,
      choices: async () => (data ? (await data.files()).map((item) => ({ label: item.name, value: item.id })) : block.data.ref.file ? [{ label: block.data.ref.file, value: block.data.ref.file }] : []),
    },
    { name: 'caption', label: 'Caption', value: captionOf(block) },
  ],
  apply(block, values) {
    const fragments = withCaption(block.fragments, String(values.caption ?? ''));
    return { ...block, data: { ref: { kind: 'file', file: String(values.file) } }, ...(fragments.length ? { fragments } : { fragments: undefined }) };
  },
  describe(block, dom, data) {
    const name = document.createElement('p');
    name.textContent = block.data.ref.file ? `File ${block.data.ref.file}` : 'No file chosen yet';
    dom.append(name);
    void data?.files().then((files) => {
      const found = files.find((item) => item.id === block.data.ref.file);
      if (found) name.textContent = `${found.name} (${Math.max(1, Math.round(found.size / 1024))} KB)`;
    }, () => undefined);
    const caption = captionOf(block);
    if (caption) line(dom, caption);
  },
});
