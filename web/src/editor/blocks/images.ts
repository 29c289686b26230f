import { Node } from '@tiptap/core';
import type { DocumentBlockImage, DocumentBlockImages, ImageRef } from '../../../../src/content/markdown/types.ts';
import type { BlockSpec } from '../block-spec.ts';
import { plainText } from '../plain-text.ts';
import { placeData } from '../place.ts';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    images: { insertImage: (image: { url: string; alt: string; caption: string }) => ReturnType };
  }
}

/** The image blocks as the document holds them, kept whole in one attribute (`block`, JSON text). */
const ImagesNode = Node.create({
  name: 'images',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: true,
  addAttributes() {
    return { block: { default: '{}' } };
  },
  parseHTML: () => [{ tag: 'figure[data-images]', getAttrs: (element) => ({ block: (element as HTMLElement).dataset.images }) }],
  renderHTML: ({ node }) => ['figure', { 'data-images': node.attrs.block }],
  addNodeView() {
    return ({ node, editor }) => {
      const block = JSON.parse(node.attrs.block) as DocumentBlockImages;
      const dom = document.createElement('div');
      dom.className = 'images-block';
      for (const image of block.nodes ?? []) {
        const figure = document.createElement('figure');
        const img = document.createElement('img');
        const ref = image.data.ref;
        img.alt = image.data.alt ?? '';
        if (ref.kind === 'url') img.src = ref.url;
        // A file of the space is shown from its signed download address.
        else void placeData(editor)?.files().then((files) => {
          const found = files.find((item) => item.id === ref.file);
          if (found) img.src = found.downloadURL;
        }, () => undefined);
        figure.append(img);
        const caption = plainText(image.fragments.find((fragment) => fragment.fragment === 'caption')?.nodes ?? []);
        if (caption) {
          const figcaption = document.createElement('figcaption');
          figcaption.textContent = caption;
          figure.append(figcaption);
        }
        dom.append(figure);
      }
      return { dom };
    };
  },
  addCommands() {
    return {
      insertImage:
        ({ url, alt, caption }) =>
        ({ commands }) => {
          const ref: ImageRef = { kind: 'url', url };
          const image: DocumentBlockImage = {
            object: 'block',
            type: 'image',
            data: { ref, ...(alt ? { alt } : {}) },
            isVoid: true,
            fragments: caption ? [{ object: 'fragment', fragment: 'caption', nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: caption, marks: [] }] }] }] }] : [],
          };
          const block: DocumentBlockImages = { object: 'block', type: 'images', data: {}, nodes: [image], isVoid: false };
          return commands.insertContent({ type: 'images', attrs: { block: JSON.stringify(block) } });
        },
    };
  },
});

/** `images` (one or more `image`, caption, dark variant, size) ↔ an images node shown as the reader shows it. */
export const images: BlockSpec = {
  documentTypes: ['images'],
  nodeNames: ['images'],
  extensions: [ImagesNode],
  toEditor: (block) => ({ type: 'images', attrs: { block: JSON.stringify(block) } }),
  toDocument: (node) => JSON.parse(String(node.attrs?.block)) as DocumentBlockImages,
};
