import type { Editor } from '@tiptap/core';
import type { DocumentBlockFile, DocumentBlockImages } from '../../../src/content/markdown/types.ts';
import type { RevisionFile } from '../api/operations.ts';

/** The block that shows a file of the space: a picture as an image block, anything else as a file block. */
export function fileBlock(file: Pick<RevisionFile, 'id' | 'name' | 'contentType'>): DocumentBlockImages | DocumentBlockFile {
  if (file.contentType.startsWith('image/'))
    return {
      object: 'block',
      type: 'images',
      data: {},
      nodes: [{ object: 'block', type: 'image', data: { ref: { kind: 'file', file: file.id }, alt: file.name.replace(/\.[^.]+$/, '') }, fragments: [], isVoid: true }],
      isVoid: false,
    };
  return { object: 'block', type: 'file', data: { ref: { kind: 'file', file: file.id } }, isVoid: true };
}

/** The editor node of a file's block. */
export function fileNode(file: Pick<RevisionFile, 'id' | 'name' | 'contentType'>): { type: string; attrs: { block: string } } {
  const block = fileBlock(file);
  return block.type === 'images' ? { type: 'images', attrs: { block: JSON.stringify(block) } } : { type: 'fileBlock', attrs: { block: JSON.stringify(block) } };
}

/** Puts a file of the space into the page where the cursor is (the files panel's "Insert"). */
export function insertFile(editor: Editor, file: Pick<RevisionFile, 'id' | 'name' | 'contentType'>): void {
  editor.chain().focus().insertContent(fileNode(file)).run();
}
