import type { AnyExtension, JSONContent } from '@tiptap/core';
import type { DocumentBlock } from '../api/types.ts';

/** Converters between document blocks and editor nodes, given to each block for its children. */
export interface Convert {
  blocksToEditor(blocks: DocumentBlock[]): JSONContent[];
  blocksToDocument(nodes: JSONContent[] | undefined): DocumentBlock[];
}

/**
 * One block of Quire's document model in the editor: the TipTap extensions that make its node(s), and the
 * two mappings. `toEditor` answers null when this block's content is beyond what the node can hold (the
 * block is then kept whole, read-only, as an opaque block); `toDocument` is called for the spec's own nodes.
 */
export interface BlockSpec {
  /** The document's block types this spec maps. */
  documentTypes: string[];
  /** The editor's node names this spec maps back. */
  nodeNames: string[];
  extensions: AnyExtension[];
  toEditor(block: DocumentBlock, convert: Convert): JSONContent | null;
  toDocument(node: JSONContent, convert: Convert): DocumentBlock;
}
