import type { DocumentBlock, InlineContent } from '../api/types.ts';

/** The text of blocks or inlines, for labels of nodes shown read-only. */
export function plainText(nodes: Array<DocumentBlock | InlineContent>): string {
  return nodes
    .map((node): string => {
      if (node.object === 'text') return node.leaves.map((leaf) => leaf.text).join('');
      if ('nodes' in node && Array.isArray(node.nodes)) return plainText(node.nodes as Array<DocumentBlock | InlineContent>);
      return '';
    })
    .join(' ')
    .trim();
}

/** A paragraph with no text: the line the editor needs where the document may hold nothing. */
export function isEmptyParagraph(block: DocumentBlock): boolean {
  return block.type === 'paragraph' && block.nodes.every((node) => node.object === 'text' && node.leaves.every((leaf) => leaf.text === ''));
}

/** A container's blocks for the editor, which needs one block where the document may hold none. */
export function childrenToEditor(blocks: DocumentBlock[], convert: { blocksToEditor(blocks: DocumentBlock[]): import('@tiptap/core').JSONContent[] }): import('@tiptap/core').JSONContent[] {
  return blocks.length ? convert.blocksToEditor(blocks) : [{ type: 'paragraph' }];
}

/** A container's blocks back, empty again when the editor's one line was left empty. */
export function childrenToDocument(nodes: DocumentBlock[]): DocumentBlock[] {
  return nodes.length === 1 && isEmptyParagraph(nodes[0]) ? [] : nodes;
}
